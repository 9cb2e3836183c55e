import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHECKSUMS_SIG_FILE,
  currentGeneration,
  generationDir,
  isSealedGeneration,
  publish,
  removeUnsealedGenerations,
  switchCurrent,
  verifyTree,
} from '../../../pipeline/publish/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { generations } from './read-tree.ts';
import { seedRaw } from './seed.ts';

const NOW = '2026-11-25T12:00:00Z';

/**
 * What a publish killed with SIGKILL leaves behind: a generation folder that `current` never
 * pointed to, cut off anywhere before its signature (the seal's last file).
 */
function leaveKilledPublish(publicDir: string, from: string, id: string, cut: 'before-seal' | 'mid-write'): void {
  const dir = generationDir(publicDir, id);
  if (cut === 'before-seal') {
    cpSync(generationDir(publicDir, from), dir, { recursive: true });
    rmSync(join(dir, CHECKSUMS_SIG_FILE)); // killed between checksums.json and its signature
    writeFileSync(join(dir, `.${CHECKSUMS_SIG_FILE}.tmp`), 'AAAA'); // the signature's half-written temp
  } else {
    mkdirSync(join(dir, 'api', 'v1', 'services'), { recursive: true });
    writeFileSync(join(dir, 'api', 'v1', 'services', 'svc_x.json'), '{"id":"svc_x","na'); // a torn file
  }
}

describe('a publish killed midway', () => {
  it('leaves a generation current never points to; the next publish removes it before writing, and keeps only complete ones', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openTestStore(dir);
    try {
      await seedRaw(store, new Date(NOW), 6, 2);
      const clock = testClock(NOW);
      const ctx = makeContext(dir, { clock });
      const pub = ctx.paths.publicDir;
      const first = await publish(ctx, store, { pages: false });
      expect(await isSealedGeneration(first.dir)).toBe(true);
      expect(readdirSync(first.dir).filter((n) => n.startsWith('.'))).toEqual([]); // no seal temp left

      // Two killed publishes, newer than the live generation (ids sort by time).
      leaveKilledPublish(pub, first.generation, '20261125T120100Z-dead0001', 'before-seal');
      leaveKilledPublish(pub, first.generation, '20261125T120200Z-dead0002', 'mid-write');
      expect(await isSealedGeneration(generationDir(pub, '20261125T120100Z-dead0001'))).toBe(false);
      expect(await currentGeneration(pub)).toBe(first.generation); // a reader still sees the complete one
      expect((await verifyTree(join(pub, 'current'))).problems).toEqual([]);

      // With keep = 2, partial folders must not push the previous complete generation out.
      clock.advance(5 * 60_000);
      const second = await publish(ctx, store, { pages: false, keep: 2 });
      expect(generations(pub)).toEqual([first.generation, second.generation]);
      expect(await currentGeneration(pub)).toBe(second.generation);
      expect((await verifyTree(join(pub, 'current'))).problems).toEqual([]);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('never removes the generation current points to, sealed or not', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const pub = join(dir, 'public');
      for (const id of ['a', 'b', 'c']) mkdirSync(generationDir(pub, id), { recursive: true });
      writeFileSync(join(generationDir(pub, 'c'), CHECKSUMS_SIG_FILE), 'sig\n');
      await switchCurrent(pub, 'a');
      expect(await removeUnsealedGenerations(pub)).toEqual(['b']);
      expect(generations(pub)).toEqual(['a', 'c']);
      expect(existsSync(join(pub, 'current', '.'))).toBe(true);
    } finally {
      cleanup();
    }
  });
});
