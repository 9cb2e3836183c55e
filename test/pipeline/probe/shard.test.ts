import { describe, expect, it } from 'vitest';
import { parseShard, shardOf } from '../../../pipeline/probe/shard.ts';

describe('shards', () => {
  it('parses I/N and refuses bad values as bad_usage', () => {
    expect(parseShard('0/4')).toEqual({ index: 0, count: 4 });
    for (const bad of ['4/4', '1/0', 'a/b', '1', '-1/2', '1/2/3'])
      expect(() => parseShard(bad)).toThrow(expect.objectContaining({ code: 'bad_usage' }));
  });
  it('is stable and partitions evenly enough', () => {
    expect(shardOf('cand_abc', 7)).toBe(shardOf('cand_abc', 7));
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[shardOf(`cand_${i}`, 4)]!++;
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });
});
