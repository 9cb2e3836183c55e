import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../pipeline/core/paths.ts';
import { HEAP_GROWING_PERCENT } from '../../../pipeline/core/heap-growth.ts';
import { tuneStoreForSweep } from '../../../pipeline/probe/process-memory.ts';
import { openStore } from '../../../pipeline/store/index.ts';
import { openTestStore, tempDir } from '../../helpers/context.ts';

const setting = async (store: Awaited<ReturnType<typeof openStore>>) =>
  (await store.all<{ v: string }>("SELECT current_setting('allocator_background_threads')::VARCHAR AS v"))[0]!.v;

describe('memory settings of a probe process', () => {
  it('turns on DuckDB allocator background threads on the probe store, writable or read-only (batch-file worker)', async () => {
    const t = tempDir();
    try {
      const store = await openTestStore(t.dir);
      try {
        expect(await setting(store)).toBe('false');
        await tuneStoreForSweep(store);
        expect(await setting(store)).toBe('true');
      } finally {
        store.close();
      }
      const ro = await openStore(join(t.dir, 'atlas.duckdb'), { readOnly: true });
      try {
        await tuneStoreForSweep(ro);
        expect(await setting(ro)).toBe('true');
      } finally {
        ro.close();
      }
    } finally {
      t.cleanup();
    }
  });

  it('sets a heap growth flag V8 knows (an unknown flag is only reported on the output, never thrown)', () => {
    const file = join(PROJECT_ROOT, 'pipeline', 'core', 'heap-growth.ts');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', `import(${JSON.stringify(file)}).then((m) => { m.limitHeapGrowth(); console.log('set'); })`],
      { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 30_000 },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('set');
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/unrecognized flag/i);
    expect(HEAP_GROWING_PERCENT).toBeGreaterThan(0);
    expect(HEAP_GROWING_PERCENT).toBeLessThan(300); // V8's own dynamic factor goes up to 4 (300%)
  });
});
