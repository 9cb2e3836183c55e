import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCycle } from '../../../pipeline/cycle/index.ts';
import type { Logger } from '../../../pipeline/core/log.ts';
import { freezeWeek } from '../../../pipeline/reports/index.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';

const NOW = '2026-11-25T12:00:00Z';

describe('cycle → verify', () => {
  it('logs a mismatch as a warning and counts it in the cycle run without failing the cycle', async () => {
    const { dir, cleanup } = tempDir('atlas-cycle-verify-');
    const warnings: string[] = [];
    const log: Logger = { json: false, info() {}, warn: (m) => warnings.push(m), error() {} };
    try {
      const ctx = makeContext(dir, { now: NOW, log });
      ctx.paths.listings = join(dir, 'listings'); // none: nothing to probe, the world is the report below
      mkdirSync(ctx.paths.listings);
      const store = await openTestStore(dir, new Date(NOW));
      try {
        // A frozen week whose stored figure no longer matches the raw tables (nothing ran that week).
        await freezeWeek(store, new Date('2026-11-16T00:00:00Z'), new Date(NOW));
        await store.run(`UPDATE reports SET body = json_merge_patch(body, '{"checks":{"total":{"ran":5}}}')`);

        const r = await runCycle(ctx, store, { force: true, skipRegistries: true, snapshot: false });
        const verify = r.steps.find((s) => s.step === 'verify');
        expect(verify).toMatchObject({ status: 'ok', detail: { checked: { services: 0, reports: 1 }, mismatches: 1 } });
        expect(warnings.filter((w) => w.startsWith('cycle: verify found 1 mismatch(es)'))).toEqual([
          expect.stringContaining('reports/2026-11-16 checks.total.ran'),
        ]);
        const [run] = await store.all<{ counts: string }>(`SELECT counts::VARCHAR AS counts FROM runs WHERE kind = 'cycle'`);
        expect(JSON.parse(run!.counts)).toMatchObject({ publish: 'ok', verify: 'ok', verified: 0, mismatches: 1 });
      } finally {
        store.close();
      }
    } finally {
      cleanup();
    }
  }, 60_000);
});
