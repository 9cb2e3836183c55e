import { existsSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Manifest } from '../../../site/contract/index.ts';
import { currentGeneration, publish, pruneGenerations, switchCurrent } from '../../../pipeline/publish/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { generations, readIndex } from './read-tree.ts';
import { seedRaw } from './seed.ts';

const NOW = '2026-11-25T12:00:00Z';

/** What a reader of the static tree does: resolve `current` once, then read inside that generation. */
function readConsistent(publicDir: string, validate = true): { generation: string; manifest: Manifest; records: number } {
  const gen = realpathSync(join(publicDir, 'current'));
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(gen, 'manifest.json'), 'utf8')));
  // Without validation, the layout's own count (a reader that follows the pointer reads it first).
  const records = validate
    ? readIndex(gen).length
    : (JSON.parse(readFileSync(join(gen, 'index', 'buckets.json'), 'utf8')) as { services: number }).services;
  expect(gen.endsWith(manifest.generation)).toBe(true);
  return { generation: manifest.generation, manifest, records };
}

describe('generations and the current pointer', () => {
  it('keeps the last 3 generations and points current at the newest', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openTestStore(dir);
    try {
      await seedRaw(store, new Date(NOW), 9, 3);
      const clock = testClock(NOW);
      const ctx = makeContext(dir, { clock });
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        made.push((await publish(ctx, store, { pages: false })).generation);
        clock.advance(60_000);
      }
      expect(generations(ctx.paths.publicDir)).toEqual(made.slice(-3));
      expect(await currentGeneration(ctx.paths.publicDir)).toBe(made[4]);
      expect(readlinkSync(join(ctx.paths.publicDir, 'current'))).toBe(join('generations', made[4]!));
      const seen = readConsistent(ctx.paths.publicDir);
      expect(seen.records).toBe(seen.manifest.counts.services);
      const runs = await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM runs WHERE kind = 'publish' AND status = 'ok'`);
      expect(Number(runs[0]!.n)).toBe(5);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('never shows a reader a half generation while publishes switch the pointer', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openTestStore(dir);
    try {
      await seedRaw(store, new Date(NOW), 30, 3);
      const clock = testClock(NOW);
      const ctx = makeContext(dir, { clock });
      await publish(ctx, store, { pages: false });
      let reading = true;
      let reads = 0;
      const seenGenerations = new Set<string>();
      // A reader polling the tree between event-loop turns while publishes run (fs calls are sync,
      // so every read is one resolved snapshot; the publisher's writes interleave between them).
      const reader = (async () => {
        while (reading) {
          const r = readConsistent(ctx.paths.publicDir, false);
          expect(r.records).toBe(r.manifest.counts.services);
          seenGenerations.add(r.generation);
          reads += 1;
          await new Promise((res) => setTimeout(res, 1));
        }
      })();
      try {
        for (let i = 0; i < 4; i++) {
          clock.advance(60_000);
          await publish(ctx, store, { pages: false, batchSize: 5 });
        }
      } finally {
        reading = false;
        await reader;
      }
      expect(reads).toBeGreaterThan(4);
      expect(seenGenerations.size).toBeGreaterThan(1);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('leaves current untouched and removes the half-written generation when publishing fails', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openTestStore(dir);
    try {
      await seedRaw(store, new Date(NOW), 6, 2);
      const clock = testClock(NOW);
      const ctx = makeContext(dir, { clock });
      const first = await publish(ctx, store, { pages: false });
      clock.advance(60_000);
      const bad = join(dir, 'roadmap.json');
      writeFileSync(bad, JSON.stringify({ items: 'not a list' }));
      await expect(publish({ ...ctx, paths: { ...ctx.paths, roadmap: bad } }, store, { pages: false })).rejects.toThrow(/roadmap/);
      expect(await currentGeneration(ctx.paths.publicDir)).toBe(first.generation);
      expect(generations(ctx.paths.publicDir)).toEqual([first.generation]);
      const runs = await store.all<{ status: string; error: string | null }>(
        `SELECT status, error FROM runs WHERE kind = 'publish' ORDER BY started_at`,
      );
      expect(runs.map((r) => r.status)).toEqual(['ok', 'failed']);
      expect(runs[1]!.error).toMatch(/roadmap/);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('switches with a rename over the old link and never prunes the generation current points to', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const pub = join(dir, 'public');
      const { mkdirSync } = await import('node:fs');
      for (const id of ['a', 'b', 'c', 'd']) mkdirSync(join(pub, 'generations', id), { recursive: true });
      await switchCurrent(pub, 'a');
      await switchCurrent(pub, 'b');
      expect(await currentGeneration(pub)).toBe('b');
      expect(await pruneGenerations(pub, 1)).toEqual(['a', 'c']);
      expect(generations(pub)).toEqual(['b', 'd']);
      expect(existsSync(join(pub, 'current', '.'))).toBe(true);
      // Publish prunes while it writes: its new generation is protected even where its id sorts first.
      mkdirSync(join(pub, 'generations', '0-new'), { recursive: true });
      expect(await pruneGenerations(pub, 1, ['0-new'])).toEqual([]);
      expect(generations(pub)).toEqual(['0-new', 'b', 'd']);
    } finally {
      cleanup();
    }
  });
});
