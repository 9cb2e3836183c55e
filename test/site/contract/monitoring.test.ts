import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monitoringDaysAt, withMonitoringDays } from '../../../site/contract/monitoring.ts';
import { withDb } from '../../pipeline/compute/helpers.ts';

/**
 * monitoring_days has two copies by necessity: macro atlas_monitoring_days (pipeline/store/rules.sql),
 * which compute stores in `evidence`, and site/contract/monitoring.ts, which the server evaluates
 * when it answers (the published files leave the figure out). Generated cases show they agree to the
 * last digit: millisecond instants, half-way roundings (0.0005 day = 43.2 s), `since` after `at`
 * (0), and ages of many years.
 */
const DAY = 86_400_000;

interface Case {
  since: number;
  at: number;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    since: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
    age: fc.oneof(
      fc.integer({ min: -10 * DAY, max: 4000 * DAY }),
      // near a rounding boundary: k half-thousandths of a day, give or take a millisecond
      fc.tuple(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: -1, max: 1 })).map(([k, d]) => k * 43_200 + d),
    ),
  })
  .map(({ since, age }) => ({ since, at: since + age }));

const iso = (ms: number) => new Date(ms).toISOString();

describe('monitoring_days: the SQL macro and the TypeScript function agree', () => {
  it('on generated (monitoring_since, instant) cases, roundings and a start after the instant included', async () => {
    await withDb(async (store) => {
      const sqlDays = async (cases: Case[]): Promise<number[]> => {
        const rows = await store.all<{ i: number; d: number }>(
          `SELECT c.i, atlas_monitoring_days(c.since::TIMESTAMP, c.at::TIMESTAMP) AS d
           FROM (SELECT unnest(from_json($1, '[{"i":"INTEGER","since":"VARCHAR","at":"VARCHAR"}]'), recursive := true)) c
           ORDER BY c.i`,
          [JSON.stringify(cases.map((c, i) => ({ i, since: iso(c.since), at: iso(c.at) })))],
        );
        expect(rows.map((r) => Number(r.i))).toEqual(cases.map((_, i) => i));
        return rows.map((r) => Number(r.d));
      };
      const t = Date.UTC(2026, 10, 25, 12);
      const fixed: Case[] = [
        { since: t - 30 * DAY, at: t },
        { since: t + DAY, at: t },
        { since: t - 43_200, at: t }, // exactly half of the last digit
        { since: t - 1, at: t },
        { since: t - 1.5 * DAY, at: t },
      ];
      expect(fixed.map((c) => monitoringDaysAt(c.since, c.at))).toEqual([30, 0, 0.001, 0, 1.5]);
      expect(await sqlDays(fixed)).toEqual([30, 0, 0.001, 0, 1.5]);

      let seen = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(caseArb, { minLength: 1, maxLength: 100 }), async (cases) => {
          seen += cases.length;
          expect(await sqlDays(cases)).toEqual(cases.map((c) => monitoringDaysAt(c.since, c.at)));
        }),
        { numRuns: 40 },
      );
      expect(seen).toBeGreaterThan(40);
    });
  });

  it('withMonitoringDays places the figure right after monitoring_since and replaces a stale one', () => {
    const t = Date.UTC(2026, 10, 25, 12);
    const e = { operations: 1, monitoring_since: iso(t - 2 * DAY), limited_evidence: true };
    const out = withMonitoringDays(e, t);
    expect(Object.keys(out)).toEqual(['operations', 'monitoring_since', 'monitoring_days', 'limited_evidence']);
    expect(out.monitoring_days).toBe(2);
    expect(withMonitoringDays({ ...e, monitoring_days: 99 }, t).monitoring_days).toBe(2);
  });
});
