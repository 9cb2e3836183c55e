import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../pipeline/core/config.ts';
import { fleetConfig, REAL_402_FILES, startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { runProbe } from '../../../pipeline/probe/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { REAL_402_TABLE, realResponses } from '../../helpers/real-402.ts';
import { realdataGate } from '../../helpers/realdata-gate.ts';
import { seedServices } from './seed.ts';

/**
 * End to end: the real 402 responses of both files (read at run time from the realdata folder, served by the
 * fleet on loopback) probed by `runProbe` as discovered x402 services. The stored check carries the
 * verdict, reason, status and detail of REAL_402_TABLE, and a valid request stores its payment terms
 * (why each verdict: docs/notes/fleet.md, "Real 402 responses"). Without the realdata folder the
 * suite is skipped with one printed line (a failure in CI: test/helpers/realdata-gate.ts).
 */
const gate = realdataGate('probe against real 402 responses (test/pipeline/probe/probe-one.real-402.test.ts)', REAL_402_FILES);

describe.skipIf(!gate.present)('probe against real 402 responses', () => {
  const clock = testClock('2026-11-25T12:10:00Z');
  const t = tempDir();
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ clock, real402: realResponses() });
  });
  afterAll(async () => {
    await fleet?.close();
    t.cleanup();
  });

  it('stores the verdict, reason, status and detail of the table, and the terms of the valid ones', async () => {
    const store = await openTestStore(t.dir);
    try {
      const ids = Object.keys(REAL_402_TABLE);
      await seedServices(
        store,
        ids.map((id) => {
          const e = fleet.endpoint(`real-402-${id}`);
          return { id: `cand_${id}`, protocol: 'x402' as const, ops: [{ url: e.url, method: e.method, rule: 'x402-mainnet/2' as const }] };
        }),
      );
      const ctx = makeContext(t.dir, { clock, config: parseConfig(fleetConfig(fleet)) });
      const summary = await runProbe(ctx, store, { timeoutMs: 3000 });
      expect(summary.counts.probed).toBe(ids.length);

      const checks = await store.all<{
        service_id: string;
        passed: boolean;
        reason: string;
        status: number | null;
        rule: string;
        detail: string | null;
        protocols: string[] | null;
      }>('SELECT service_id, passed, reason, status, rule, detail, protocols FROM checks ORDER BY service_id');
      const terms = await store.all<{ service_id: string; networks: string[]; min_price_usd: number | null }>(
        'SELECT service_id, networks, min_price_usd FROM payment_terms ORDER BY service_id',
      );
      const got = Object.fromEntries(
        ids.map((id) => {
          const c = checks.find((r) => r.service_id === `cand_${id}`);
          const pt = terms.find((r) => r.service_id === `cand_${id}`);
          return [
            id,
            c && {
              passed: c.passed,
              reason: c.reason,
              status: c.status,
              detail: c.detail,
              protocols: c.protocols === null ? null : [...c.protocols],
              terms: pt ? { networks: [...pt.networks], minPriceUsd: pt.min_price_usd } : null,
            },
          ];
        }),
      );
      expect(got).toEqual(REAL_402_TABLE);
      expect(new Set(checks.map((c) => c.rule))).toEqual(new Set(['x402-mainnet/2']));
    } finally {
      store.close();
    }
  });
});
