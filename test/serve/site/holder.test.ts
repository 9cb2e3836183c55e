import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../harness.ts';
import { writeIndexFiles } from '../../helpers/index-files.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('generation reload', () => {
  it('follows the pointer: loads the new generation fully, then swaps; requests during the load succeed', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    h.publish({ generation: 'g2', services: [{ id: 'cand_a' }, { id: 'cand_b' }, { id: 'cand_c' }] });
    const during = Array.from({ length: 20 }, () => h.json('/api/v1/services?scope=index'));
    const reloaded = h.deps.site.reload();
    const results = await Promise.all(during);
    for (const r of results) {
      expect(r.status).toBe(200);
      expect([1, 3]).toContain(r.body.total);
    }
    expect(await reloaded).toBe(true);
    expect((await h.json('/api/v1/services?scope=index&limit=3')).body.total).toBe(3);
    expect((await h.json('/api/v1/services/cand_c')).status).toBe(200);
    expect((await h.json('/healthz')).body.generation).toBe('g2');
  });

  it('keeps the old generation when the new one is broken', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const bad = join(h.siteDir, 'generations', 'broken');
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, 'manifest.json'), JSON.stringify({ generation: 'broken' }));
    writeIndexFiles(bad, [{ not: 'a record' }]);
    symlinkSync(join('generations', 'broken'), join(h.siteDir, 'current.tmp'));
    renameSync(join(h.siteDir, 'current.tmp'), join(h.siteDir, 'current'));
    expect(await h.deps.site.reload()).toBe(false);
    const r = await h.json('/api/v1/services?scope=index');
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(1);
  });

  it('watch(): picks up a publish without an explicit reload', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const swapped = new Promise<string>((resolve) => h!.deps.site.onSwap((next) => resolve(next.generation)));
    h.deps.site.watch(20);
    h.publish({ generation: 'g2', services: [{ id: 'cand_a' }, { id: 'cand_b' }] });
    // Waits for the swap event, no deadline of its own: a watcher that never picks the publish up
    // fails by the test timeout, a slow machine only waits longer.
    expect(await swapped).toBe('g2');
    expect(h.deps.site.current().generation).toBe('g2');
  });

  it('starts before the first publish and serves once one appears', async () => {
    h = await harness({ empty: true });
    expect((await h.json('/api/v1/services')).status).toBe(503);
    h.publish({ generation: 'g1', services: [{ id: 'cand_a' }] });
    await h.deps.site.reload();
    expect((await h.json('/api/v1/services?scope=index')).body.total).toBe(1);
  });
});
