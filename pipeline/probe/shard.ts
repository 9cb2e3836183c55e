import { createHash } from 'node:crypto';
import { AtlasError } from '../core/errors.ts';

/**
 * `--shard I/N`: a service belongs to shard I (0-based, 0 ≤ I < N) when the first 4 bytes of
 * sha256(service id), as an unsigned integer, mod N equal I. Stable across runs, machines and
 * versions, and all operations of one service land in the same shard.
 */
export interface Shard {
  index: number;
  count: number;
}

export function shardOf(serviceId: string, count: number): number {
  return createHash('sha256').update(serviceId).digest().readUInt32BE(0) % count;
}

export function parseShard(value: string): Shard {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(value.trim());
  if (!m) throw new AtlasError('bad_usage', `--shard must look like I/N with 0 <= I < N, e.g. 0/4 (got ${JSON.stringify(value)})`);
  const shard = { index: Number(m[1]), count: Number(m[2]) };
  validateShard(shard);
  return shard;
}

export function validateShard(s: Shard): void {
  if (!Number.isInteger(s.index) || !Number.isInteger(s.count) || s.count < 1 || s.index < 0 || s.index >= s.count) {
    throw new AtlasError('bad_usage', `--shard I/N needs 0 <= I < N and N >= 1 (got ${s.index}/${s.count})`);
  }
}
