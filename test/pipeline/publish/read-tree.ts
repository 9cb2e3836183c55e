import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { indexFileRecords } from '../../../site/contract/index-file.ts';
import { INDEX_BUCKETS_FILE, IndexRecordFile, IndexBuckets, RENDER_INSTANT_MEMBERS, bucketFile } from '../../../site/contract/index.ts';

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
 * Every record of a generation's index, bucket by bucket as `index/buckets.json` lists them (the layout
 * of site/contract/index-record.ts), each parsed with the published record's schema.
 */
export function readIndex(gen: string): IndexRecordFile[] {
  const layout = parseWith(IndexBuckets, join(gen, INDEX_BUCKETS_FILE));
  const out: IndexRecordFile[] = [];
  layout.counts.forEach((n, bucket) => {
    if (!n) return;
    const path = join(gen, bucketFile(bucket, layout.bits));
    const records = indexFileRecords(readFileSync(path, 'utf8')).map((r, i) => {
      const p = IndexRecordFile.safeParse(r);
      if (!p.success) throw new Error(`${path}[${i}]: ${JSON.stringify(p.error.issues.slice(0, 5))}`);
      return p.data;
    });
    if (records.length !== n) throw new Error(`bucket ${bucket}: ${records.length} records, the layout says ${n}`);
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
