import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { AtlasError, formatIssues, storageError } from '../core/errors.ts';

/**
 * Every body publish writes is validated with its contract schema first (a body that does not
 * match the contract is a bug and must not reach the published tree). Writes go into the new
 * generation folder, which nobody reads until the pointer switches, so plain writes suffice.
 * A full disk or read-only storage rejects with `storage_unavailable` naming the file; the caller
 * removes the half-written generation and never switches to it.
 */
export function validated<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new AtlasError('internal', `publish: ${what} does not match the contract: ${formatIssues(r.error.issues).slice(0, 1000)}`);
  return r.data;
}

export async function writeJson<S extends z.ZodType>(path: string, schema: S, value: unknown, what = path): Promise<z.infer<S>> {
  const body = validated(schema, value, what);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(body));
  } catch (e) {
    throw storageError(e, `publish: writing ${what}`) ?? e;
  }
  return body;
}
