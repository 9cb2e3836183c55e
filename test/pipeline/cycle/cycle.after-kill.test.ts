import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCycle } from '../../../pipeline/cycle/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';

const T0 = '2026-11-25T12:02:00Z';

describe('a cycle after one that was killed before its publish', () => {
  it('publishes the evidence stored since the last publish: every cycle publishes', async () => {
    const { dir, cleanup } = tempDir('atlas-cycle-kill-');
    try {
      const clock = testClock(T0);
      const ctx = makeContext(dir, { clock });
      ctx.paths.listings = join(dir, 'listings'); // none: nothing to probe
      mkdirSync(ctx.paths.listings);
      const store = await openTestStore(dir, new Date(T0));
      const publishStep = async () =>
        (await runCycle(ctx, store, { skipRegistries: true, snapshot: false })).steps.find((s) => s.step === 'publish')!.status;
      try {
        expect(await publishStep()).toBe('ok'); // never published: due

        // The next cycle probed (its checks are committed) and was killed before it published.
        clock.advance(5 * 60_000);
        await store.run(
          `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, run_id, url, method)
           VALUES ('cand_a', 'primary', '2026-11-25 12:00:00', $1::TIMESTAMP, 402, true, 'ok', 'x402-mainnet/1', 'probe_killed', 'http://a.example/', 'GET')`,
          [clock().toISOString()],
        );

        clock.advance(5 * 60_000);
        expect(await publishStep()).toBe('ok'); // what the killed cycle stored is published now
        clock.advance(5 * 60_000);
        // Nothing new since, and the cycle still publishes: the run log the server counts the status
        // windows over must hold every cycle's runs.
        expect(await publishStep()).toBe('ok');
      } finally {
        store.close();
      }
    } finally {
      cleanup();
    }
  }, 60_000);
});
