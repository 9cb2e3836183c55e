import { readdirSync, realpathSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import { FileWriter } from '../../../pipeline/publish/file-writer.ts';
import { publish, verifyTree } from '../../../pipeline/publish/index.ts';
import { bucketFile } from '../../../site/contract/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { seedRaw } from './seed.ts';

const NOW = '2026-11-25T12:00:00Z';

async function setup(n: number) {
  const { dir, cleanup } = tempDir('atlas-publish-fallback-');
  const store = await openTestStore(dir);
  await seedRaw(store, new Date(NOW), n, 3);
  const clock = testClock(NOW);
  const warnings: string[] = [];
  const base = makeContext(dir, { clock });
  const ctx = { ...base, log: { ...base.log, warn: (m: string) => warnings.push(m) } };
  await computeAll(ctx, store, { scope: 'full' });
  return { dir, cleanup, store, clock, ctx, warnings };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('publish falls back to a full render only when the previous generation is unusable', () => {
  it('a previous generation missing a bucket file: every service is rendered, and the generation is served', async () => {
    const { cleanup, store, clock, ctx, warnings } = await setup(12);
    try {
      const first = await publish(ctx, store, { pages: false });
      unlinkSync(join(first.dir, bucketFile(0, 0)));
      clock.advance(60_000);
      const second = await publish(ctx, store, { pages: false });
      expect(second.incremental).toEqual({ previous: null, rendered: 12, linked: 0 });
      expect(warnings.join('\n')).toMatch(/sharing with generation .* failed .*has no index\/summaries\/0\.json.*rendering every service/);
      expect(realpathSync(join(ctx.paths.publicDir, 'current'))).toBe(realpathSync(second.dir));
      expect((await verifyTree(second.dir)).ok).toBe(true);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('a full disk while writing fails the publish: no fallback, the current generation stays served', async () => {
    const { cleanup, store, clock, ctx, warnings } = await setup(12);
    try {
      const first = await publish(ctx, store, { pages: false });
      await store.run('UPDATE evidence SET passed_30d = passed_30d - 1 WHERE service_id = $1', ['svc_r0000003']);
      clock.advance(60_000);
      // The first file written fails as a full disk would (an injected writer; the disk is not filled).
      const put = vi
        .spyOn(FileWriter.prototype, 'put')
        .mockRejectedValueOnce(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
      await expect(publish(ctx, store, { pages: false })).rejects.toMatchObject({ code: 'storage_unavailable' });
      expect(put).toHaveBeenCalled();
      expect(warnings.join('\n')).not.toMatch(/rendering every service/);
      expect(realpathSync(join(ctx.paths.publicDir, 'current'))).toBe(realpathSync(first.dir));
      expect(readdirSync(join(ctx.paths.publicDir, 'generations'))).toEqual([first.generation]);
      expect((await verifyTree(first.dir)).ok).toBe(true);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);
});
