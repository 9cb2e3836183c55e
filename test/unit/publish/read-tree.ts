import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';

/** Test helper: read a published generation and parse each file with its contract schema. */
export const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

export function parseWith<S extends z.ZodType>(schema: S, path: string): z.infer<S> {
  const r = schema.safeParse(readJson(path));
  if (!r.success) throw new Error(`${path}: ${JSON.stringify(r.error.issues.slice(0, 5))}`);
  return r.data;
}

export const currentDir = (publicDir: string) => realpathSync(join(publicDir, 'current'));

export const generations = (publicDir: string) =>
  existsSync(join(publicDir, 'generations')) ? readdirSync(join(publicDir, 'generations')).sort() : [];
