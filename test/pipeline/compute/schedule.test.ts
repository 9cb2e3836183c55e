import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestListings } from '../../../pipeline/ingest/index.ts';
import { makeContext, testClock } from '../../helpers/context.ts';
import { addDiscovered, addReviewed, at, insertCheckSeries, insertChecks, makeCheck, T0, writeListingFile } from './fixtures.ts';
import { changesOf, computeAt, evidenceAt, intervalOf, withDb } from './helpers.ts';

describe('check intervals, rule schedule/1', () => {
  it('third-probe rule: daily until the third probe, then by payers; every change recorded', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_new', registry_payers_30d: 250 });
      await insertChecks(store, [
        makeCheck({ service_id: 'cand_new', checked_at: T0 }),
        makeCheck({ service_id: 'cand_new', checked_at: at(T0, 1) }),
      ]);
      expect((await computeAt(store, dir, at(T0, 1, 1))).interval_changes).toBe(0);
      expect(await intervalOf(store, 'cand_new')).toBe(24);
      await insertChecks(store, [makeCheck({ service_id: 'cand_new', checked_at: at(T0, 2) })]);
      expect((await computeAt(store, dir, at(T0, 2, 1))).interval_changes).toBe(1);
      expect(await intervalOf(store, 'cand_new')).toBe(1);
      expect(await changesOf(store, 'cand_new')).toEqual([
        { changed_at: T0, from_hours: null, to_hours: 24, reason: 'new_until_third_probe' },
        { changed_at: at(T0, 2, 1), from_hours: 24, to_hours: 1, reason: 'payers_100_plus' },
      ]);
      // evaluating again changes nothing
      expect((await computeAt(store, dir, at(T0, 2, 2))).interval_changes).toBe(0);
      const e = await evidenceAt(store, at(T0, 2, 2), 'cand_new');
      expect({ h: e.check_interval_hours, name: e.check_interval, fresh: e.freshness }).toEqual({ h: 1, name: 'hourly', fresh: 'fresh' });
    });
  }, 60_000);

  it('payer bands: >= 100 hourly, 5-99 daily, < 5 or unknown weekly', async () => {
    await withDb(async (store, dir) => {
      const bands: Array<[string, number | null, number, string]> = [
        ['cand_p100', 100, 1, 'payers_100_plus'],
        ['cand_p99', 99, 24, 'payers_5_to_99'],
        ['cand_p5', 5, 24, 'payers_5_to_99'],
        ['cand_p4', 4, 168, 'payers_under_5'],
        ['cand_p0', 0, 168, 'payers_under_5'],
        ['cand_pnull', null, 168, 'payers_under_5'],
      ];
      for (const [id, payers] of bands) {
        await addDiscovered(store, { id, registry_payers_30d: payers });
        await insertCheckSeries(store, { serviceId: id, from: T0, to: at(T0, 3), everyHours: 24 });
      }
      const s = await computeAt(store, dir, at(T0, 3));
      expect(s.interval_changes).toBe(4); // the two daily bands keep the new-service interval
      for (const [id, , hours, reason] of bands) {
        expect(await intervalOf(store, id), id).toBe(hours);
        const last = (await changesOf(store, id)).at(-1)!;
        expect(last.to_hours, id).toBe(hours);
        if (hours !== 24) expect(last.reason, id).toBe(reason);
      }
      // payers move: 99 -> 150 moves daily -> hourly at the next evaluation
      await store.run(`UPDATE services SET registry_payers_30d = 150 WHERE id = 'cand_p99'`);
      await computeAt(store, dir, at(T0, 3, 1));
      expect(await intervalOf(store, 'cand_p99')).toBe(1);
      expect((await changesOf(store, 'cand_p99')).at(-1)).toEqual({
        changed_at: at(T0, 3, 1),
        from_hours: 24,
        to_hours: 1,
        reason: 'payers_100_plus',
      });
    });
  }, 60_000);

  it('every probe failed for 14 days -> monthly; back when a probe passes', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_fail', registry_payers_30d: 50 });
      // daily probes: pass on days 0-9, fail from day 10 on
      await insertCheckSeries(store, { serviceId: 'cand_fail', from: T0, to: at(T0, 10), everyHours: 24 });
      await insertCheckSeries(store, { serviceId: 'cand_fail', from: at(T0, 10), to: at(T0, 24, 1), everyHours: 24, passed: false });
      await computeAt(store, dir, at(T0, 23, 23)); // failing for 13 days 23 hours
      expect(await intervalOf(store, 'cand_fail')).toBe(24);
      await computeAt(store, dir, at(T0, 24)); // failing for 14 days
      expect(await intervalOf(store, 'cand_fail')).toBe(720);
      expect((await changesOf(store, 'cand_fail')).at(-1)).toEqual({
        changed_at: at(T0, 24),
        from_hours: 24,
        to_hours: 720,
        reason: 'all_failed_14d',
      });
      // still failing: stays monthly
      await insertChecks(store, [makeCheck({ service_id: 'cand_fail', checked_at: at(T0, 40), passed: false })]);
      expect((await computeAt(store, dir, at(T0, 40, 1))).interval_changes).toBe(0);
      // a probe passes: the condition clears, back to the payer band
      await insertChecks(store, [makeCheck({ service_id: 'cand_fail', checked_at: at(T0, 70) })]);
      await computeAt(store, dir, at(T0, 70, 1));
      expect(await intervalOf(store, 'cand_fail')).toBe(24);
      expect((await changesOf(store, 'cand_fail')).map((c) => [c.from_hours, c.to_hours, c.reason])).toEqual([
        [null, 24, 'new_until_third_probe'],
        [24, 720, 'all_failed_14d'],
        [720, 24, 'payers_5_to_99'],
      ]);
      // missed checks are counted against the interval in force at each time: at day 75 the window starts on
      // day 45; monthly until day 70 01:00 (floor(25 d / 30 d) = 0 expected), then daily (floor(4 d 23 h / 1 d) = 4)
      const e = await evidenceAt(store, at(T0, 75), 'cand_fail');
      expect({ checks: e.checks_30d, missed: e.missed_30d, passed: e.passed_30d }).toEqual({ checks: 1, missed: 3, passed: 1 });
    });
  }, 60_000);

  it('not listed by the registry for 7 days -> monthly; back when listed again', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_gone', registry_payers_30d: 1 });
      await insertCheckSeries(store, { serviceId: 'cand_gone', from: T0, to: at(T0, 3), everyHours: 24 });
      await computeAt(store, dir, at(T0, 3));
      expect(await intervalOf(store, 'cand_gone')).toBe(168);
      await store.run(
        `UPDATE services SET listed = false, unlisted_at = '${at(T0, 20).replace('T', ' ').replace('Z', '')}'::TIMESTAMP WHERE id = 'cand_gone'`,
      );
      await computeAt(store, dir, at(T0, 26, 23));
      expect(await intervalOf(store, 'cand_gone')).toBe(168);
      await computeAt(store, dir, at(T0, 27));
      expect(await intervalOf(store, 'cand_gone')).toBe(720);
      expect((await changesOf(store, 'cand_gone')).at(-1)).toEqual({
        changed_at: at(T0, 27),
        from_hours: 168,
        to_hours: 720,
        reason: 'unlisted_7d',
      });
      await store.run(`UPDATE services SET listed = true, unlisted_at = NULL WHERE id = 'cand_gone'`);
      await computeAt(store, dir, at(T0, 30));
      expect(await intervalOf(store, 'cand_gone')).toBe(168);
      expect((await changesOf(store, 'cand_gone')).at(-1)).toEqual({
        changed_at: at(T0, 30),
        from_hours: 720,
        to_hours: 168,
        reason: 'payers_under_5',
      });
    });
  }, 60_000);

  it('reviewed services stay fixed: calls hourly, documentation daily', async () => {
    await withDb(async (store, dir) => {
      await addReviewed(store, { id: 'svc_fix' }, { docs: true });
      await store.run(`UPDATE operations SET interval_hours = 168 WHERE service_id = 'svc_fix' AND id = 'primary'`);
      expect((await computeAt(store, dir, at(T0, 1))).interval_changes).toBe(1);
      expect(await intervalOf(store, 'svc_fix')).toBe(1);
      expect(await intervalOf(store, 'svc_fix', 'docs')).toBe(24);
      expect((await changesOf(store, 'svc_fix')).at(-1)).toMatchObject({ from_hours: 168, to_hours: 1, reason: 'reviewed_fixed' });
    });
  });

  it('every call of a reviewed service is hourly: a listing stating a daily call is refused, a call stored daily moves to hourly', async () => {
    await withDb(async (store, dir) => {
      const listings = join(dir, 'listings');
      mkdirSync(listings);
      const ops = (exportInterval: 'hourly' | 'daily') => [
        { id: 'primary', kind: 'call' as const, primary: true, interval: 'hourly' as const },
        { id: 'export', kind: 'call' as const, interval: exportInterval },
        { id: 'docs', kind: 'documentation' as const, interval: 'daily' as const },
      ];
      writeListingFile(listings, { slug: 'mixed', approvedAt: T0, operations: ops('hourly') });
      const clock = testClock(T0);
      const ctx = makeContext(dir, { clock });
      // the cycle: ingest the listings, then compute, every hour for six hours; nothing flips
      let computed = 0;
      for (let h = 0; h < 6; h++) {
        clock.set(at(T0, 0, h));
        expect((await ingestListings(ctx, store, listings)).rejected).toEqual([]);
        computed += (await computeAt(store, dir, at(T0, 0, h))).interval_changes;
      }
      expect(computed).toBe(0);
      expect(await intervalOf(store, 'svc_mixed', 'export')).toBe(1);
      expect(await intervalOf(store, 'svc_mixed')).toBe(1);
      expect(await intervalOf(store, 'svc_mixed', 'docs')).toBe(24);

      // a file stating a daily call is refused (path and zod path) and changes nothing
      writeListingFile(listings, { slug: 'mixed', approvedAt: T0, operations: ops('daily') });
      clock.set(at(T0, 0, 6));
      const refused = await ingestListings(ctx, store, listings);
      expect(refused.rejected.map((r) => r.issues.map((i) => [i.path, i.message]))).toEqual([
        [['operations.1.interval', 'every call of a reviewed service is checked hourly (schedule/1, fixed)']],
      ]);
      expect(await intervalOf(store, 'svc_mixed', 'export')).toBe(1);
      expect((await computeAt(store, dir, at(T0, 0, 6))).interval_changes).toBe(0);

      // a call stored daily (loaded before the check existed) moves to hourly at the next compute
      await store.run(
        `UPDATE operations SET interval_hours = 24, declared_interval_hours = 24 WHERE service_id = 'svc_mixed' AND id = 'export'`,
      );
      expect((await computeAt(store, dir, at(T0, 0, 7))).interval_changes).toBe(1);
      expect(await intervalOf(store, 'svc_mixed', 'export')).toBe(1);
      expect((await changesOf(store, 'svc_mixed', 'export')).at(-1)).toEqual({
        changed_at: at(T0, 0, 7),
        from_hours: 24,
        to_hours: 1,
        reason: 'reviewed_fixed',
      });
    });
  }, 60_000);
});
