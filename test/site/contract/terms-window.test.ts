import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setComputeNow } from '../../../pipeline/compute/index.ts';
import { TERMS_WINDOW_DAYS, termsWindowStart, withTermsWindowStart } from '../../../site/contract/terms-window.ts';
import { insertServices, insertTerms, makeService, makeTerms, T0 } from '../../pipeline/compute/fixtures.ts';
import { withDb } from '../../pipeline/compute/helpers.ts';

/**
 * payment_terms.window_start has two copies by necessity: view terms_90d (pipeline/store/rules.sql),
 * which compute stores in `terms_summary`, and site/contract/terms-window.ts, which the server
 * evaluates when it answers (a published file carries the value only while `limited`, publish's
 * staging in pipeline/publish/sql.ts). Generated cases show that the view's value equals the TypeScript
 * rule applied to what a file carries, to the millisecond, on both sides of the 90-day boundary, and
 * that what a file carries (the first observation) does not depend on the compute instant.
 */
const DAY = 86_400_000;
const WINDOW = TERMS_WINDOW_DAYS * DAY;
const SERVICES = 40;
const ids = Array.from({ length: SERVICES }, (_, i) => `cand_w${String(i).padStart(3, '0')}`);

interface Run {
  now: number;
  ages: number[];
}

const ageArb = fc.oneof(
  fc.integer({ min: 0, max: 400 * DAY }),
  // at the boundary, give or take a few milliseconds
  fc.integer({ min: -3, max: 3 }).map((d) => WINDOW + d),
);
const runArb: fc.Arbitrary<Run> = fc.record({
  now: fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2030, 0, 1) }),
  ages: fc.array(ageArb, { minLength: SERVICES, maxLength: SERVICES }),
});

const iso = (ms: number) => new Date(ms).toISOString();

describe('payment_terms.window_start: view terms_90d and the TypeScript rule agree', () => {
  it('on generated (first observation, compute instant) cases, the 90-day boundary included', async () => {
    await withDb(async (store) => {
      await insertServices(
        store,
        ids.map((id) => makeService({ id })),
      );
      // One observation per service (its first and latest); each run moves them.
      await insertTerms(
        store,
        ids.map((id) => makeTerms({ service_id: id, observed_at: T0 })),
      );
      const viewAt = async (run: Run) => {
        await store.run(
          `UPDATE payment_terms SET observed_at = c.first::TIMESTAMP, slot = c.first::TIMESTAMP
           FROM (SELECT unnest(from_json($1, '[{"id":"VARCHAR","first":"VARCHAR"}]'), recursive := true)) c
           WHERE payment_terms.service_id = c.id`,
          [JSON.stringify(ids.map((id, i) => ({ id, first: iso(run.now - run.ages[i]!) })))],
        );
        await setComputeNow(store, new Date(run.now));
        const rows = await store.all<{ id: string; window_start: string; limited: boolean }>(
          'SELECT service_id AS id, atlas_iso(window_start) AS window_start, limited FROM terms_90d ORDER BY service_id',
        );
        expect(rows.map((r) => r.id)).toEqual(ids);
        return rows;
      };
      const check = async (run: Run) => {
        const rows = await viewAt(run);
        rows.forEach((r, i) => {
          const first = iso(run.now - run.ages[i]!);
          // What publish stages for the file: the value only while limited, and then it is the first observation.
          const file = r.limited ? r.window_start : null;
          if (r.limited) expect(file).toBe(first);
          expect(termsWindowStart(file, run.now)).toBe(r.window_start);
          // A file that carries the whole value (published before the split) answers it unchanged.
          expect(termsWindowStart(r.window_start, run.now)).toBe(r.window_start);
        });
        return rows;
      };

      const now = Date.UTC(2026, 10, 25, 12, 0, 0, 123);
      const fixed = await check({ now, ages: ids.map((_, i) => [0, 89 * DAY, WINDOW - 1, WINDOW, WINDOW + 1, 120 * DAY][i % 6]!) });
      expect(fixed.slice(0, 6).map((r) => [r.limited, r.window_start])).toEqual([
        [true, iso(now)],
        [true, iso(now - 89 * DAY)],
        [true, iso(now - WINDOW + 1)],
        [false, iso(now - WINDOW)],
        [false, iso(now - WINDOW)],
        [false, iso(now - WINDOW)],
      ]);

      let seen = 0;
      await fc.assert(
        fc.asyncProperty(runArb, async (run) => {
          seen += (await check(run)).length;
        }),
        { numRuns: 40 },
      );
      expect(seen).toBe(40 * SERVICES);
    });
  }, 60_000);

  it('withTermsWindowStart completes a file value in place and keeps null terms null', () => {
    const now = Date.UTC(2026, 10, 25, 12);
    const terms = {
      current_since: iso(now - 200 * DAY),
      changes_30d: 0,
      changes_90d: 1,
      pay_to_changes_90d: 0,
      last_change_at: null,
      last_change_kinds: [],
      window_start: null,
      limited: false,
    };
    const out = withTermsWindowStart(terms, now);
    expect(Object.keys(out!)).toEqual(Object.keys(terms));
    expect(out!.window_start).toBe(iso(now - WINDOW));
    expect(withTermsWindowStart({ ...terms, window_start: iso(now - DAY), limited: true }, now)!.window_start).toBe(iso(now - DAY));
    expect(withTermsWindowStart(null, now)).toBeNull();
  });
});
