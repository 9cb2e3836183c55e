import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { INDEX_SHARDS_FILE, IndexRecordFile, IndexShards, RENDER_INSTANT_MEMBERS, shardFile } from '../../../site/contract/index.ts';

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

/**
 * Every record of a generation's index, shard by shard as `index/shards.json` lists them (the layout
 * of site/contract/index-record.ts), each parsed with the published record's schema.
 */
export function readIndex(gen: string): IndexRecordFile[] {
  const layout = parseWith(IndexShards, join(gen, INDEX_SHARDS_FILE));
  const out: IndexRecordFile[] = [];
  layout.counts.forEach((n, shard) => {
    if (!n) return;
    const records = parseWith(IndexRecordFile.array(), join(gen, shardFile(shard, layout.bits)));
    if (records.length !== n) throw new Error(`shard ${shard}: ${records.length} records, the layout says ${n}`);
    out.push(...records);
  });
  if (out.length !== layout.services) throw new Error(`${out.length} records, the layout says ${layout.services}`);
  return out;
}

/**
 * A single-service file's text with its render-instant members (site/contract/service-file.ts) taken
 * out: two renders of the same data at different instants give the same text.
 */
export function apartFromRenderInstants(text: string): string {
  const o = JSON.parse(text) as Record<string, unknown>;
  for (const path of RENDER_INSTANT_MEMBERS) {
    const keys = path.split('.');
    let v: unknown = o;
    for (const k of keys.slice(0, -1)) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    if (v !== null && typeof v === 'object') delete (v as Record<string, unknown>)[keys.at(-1)!];
  }
  return JSON.stringify(o);
}
