import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freshnessAt, type FreshnessState } from '../../../site/contract/freshness.ts';
import { withDb } from '../../pipeline/compute/helpers.ts';

/**
 * Freshness has two copies by necessity: macro atlas_freshness (pipeline/store/rules.sql) for the
 * pipeline's figures and site/contract/freshness.ts for the server's answer time. Generated cases
 * show they agree, boundaries included: an age of exactly two intervals (fresh), one millisecond
 * more (stale), a check later than "now" (fresh), never checked and no interval (no_data).
 */
const HOUR = 3_600_000;

interface Case {
  last: number | null;
  hours: number | null;
  now: number;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    last: fc.option(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }), { freq: 8 }),
    hours: fc.option(fc.oneof(fc.constantFrom(1, 24, 168, 720), fc.integer({ min: 1, max: 2000 })), { freq: 12 }),
    // the age at "now", in relation to the fresh window of two intervals
    age: fc.oneof(fc.constantFrom('boundary', 'boundary+1ms', 'boundary-1ms', 'zero'), fc.double({ min: -3, max: 6, noNaN: true })),
    base: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
  })
  .map(({ last, hours, age, base }) => {
    if (last === null || hours === null) return { last, hours, now: base };
    const window = 2 * hours * HOUR;
    const offset =
      age === 'boundary'
        ? window
        : age === 'boundary+1ms'
          ? window + 1
          : age === 'boundary-1ms'
            ? window - 1
            : age === 'zero'
              ? 0
              : Math.round(age * hours * HOUR);
    return { last, hours, now: last + offset };
  });

const iso = (ms: number) => new Date(ms).toISOString();

describe('freshness: the SQL macro and the TypeScript function agree', () => {
  it('on generated (latest check, interval, now) cases, boundaries and no data included', async () => {
    await withDb(async (store) => {
      const sqlFreshness = async (cases: Case[]): Promise<FreshnessState[]> => {
        const rows = await store.all<{ i: number; f: FreshnessState }>(
          `SELECT c.i, atlas_freshness(c.last::TIMESTAMP, c.hours, c.now::TIMESTAMP) AS f
           FROM (SELECT unnest(from_json($1, '[{"i":"INTEGER","last":"VARCHAR","hours":"INTEGER","now":"VARCHAR"}]'), recursive := true)) c
           ORDER BY c.i`,
          [JSON.stringify(cases.map((c, i) => ({ i, last: c.last === null ? null : iso(c.last), hours: c.hours, now: iso(c.now) })))],
        );
        expect(rows.map((r) => Number(r.i))).toEqual(cases.map((_, i) => i));
        return rows.map((r) => r.f);
      };
      // the named boundaries once each, whatever the generator draws
      const t = Date.UTC(2026, 10, 25, 12);
      const fixed: Case[] = [
        { last: t, hours: 1, now: t + 2 * HOUR },
        { last: t, hours: 1, now: t + 2 * HOUR + 1 },
        { last: t, hours: 24, now: t - 5 * HOUR },
        { last: null, hours: 24, now: t },
        { last: t, hours: null, now: t },
      ];
      expect(fixed.map((c) => freshnessAt(c.last, c.hours, c.now))).toEqual(['fresh', 'stale', 'fresh', 'no_data', 'no_data']);
      expect(await sqlFreshness(fixed)).toEqual(['fresh', 'stale', 'fresh', 'no_data', 'no_data']);

      let seen = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(caseArb, { minLength: 1, maxLength: 100 }), async (cases) => {
          seen += cases.length;
          const ts = cases.map((c) => freshnessAt(c.last, c.hours, c.now));
          expect(await sqlFreshness(cases)).toEqual(ts);
        }),
        { numRuns: 40 },
      );
      expect(seen).toBeGreaterThan(40);
    });
  });
});
