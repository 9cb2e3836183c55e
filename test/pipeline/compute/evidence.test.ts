import { describe, expect, it } from 'vitest';
import {
  addDiscovered,
  addReviewed,
  at,
  insertCheckSeries,
  insertChecks,
  insertIntervalChanges,
  makeCheck,
  makeIntervalChange,
  T0,
} from './fixtures.ts';
import { evidenceAt, withDb } from './helpers.ts';

describe('evidence over 30 days (view evidence_30d)', () => {
  it('hourly for 10 days then daily: expected, missed and pass rate against the interval in force', async () => {
    await withDb(async (store) => {
      await addDiscovered(store, { id: 'cand_a' }, { interval_hours: 1 });
      // history: hourly from T0 (the first row written by addDiscovered), daily from day 10
      await store.run(`UPDATE interval_changes SET to_hours = 1 WHERE service_id = 'cand_a'`);
      await insertIntervalChanges(store, [
        makeIntervalChange({ service_id: 'cand_a', changed_at: at(T0, 10), from_hours: 1, to_hours: 24, reason: 'payers_5_to_99' }),
      ]);
      await store.run(`UPDATE operations SET interval_hours = 24 WHERE service_id = 'cand_a'`);
      // 240 hourly checks, failing at 03:00 each day (10 failures); then 20 daily checks that pass
      await insertCheckSeries(store, { serviceId: 'cand_a', from: T0, to: at(T0, 10), everyHours: 1, passed: 'hour(t) <> 3' });
      await insertCheckSeries(store, { serviceId: 'cand_a', from: at(T0, 10), to: at(T0, 30), everyHours: 24 });

      const e = await evidenceAt(store, at(T0, 30), 'cand_a');
      expect(e).toMatchObject({ operations: 1, check_interval_hours: 24, check_interval: 'daily', check_interval_rule: 'schedule/1' });
      expect({ checks: e.checks_30d, passed: e.passed_30d, missed: e.missed_30d }).toEqual({ checks: 260, passed: 250, missed: 0 });
      expect(e.pass_rate).toBeCloseTo(250 / 260, 12);
      expect(e.limited_evidence).toBe(false);
      expect(e.monitoring_days).toBe(30);

      // five days later the window starts on day 5: 120 hourly + 25 daily expected, only 20 daily ran
      const later = await evidenceAt(store, at(T0, 35), 'cand_a');
      expect({ checks: later.checks_30d, passed: later.passed_30d, missed: later.missed_30d }).toEqual({
        checks: 140,
        passed: 135,
        missed: 5,
      });
      expect(later.pass_rate).toBeCloseTo(135 / 140, 12);
    });
  });

  it('a 6-hour pipeline outage counts 6 missed checks, not failures', async () => {
    await withDb(async (store) => {
      await addReviewed(store, { id: 'svc_out' });
      await insertCheckSeries(store, { serviceId: 'svc_out', from: T0, to: at(T0, 15), everyHours: 1, rule: 'reviewed/1' });
      await insertCheckSeries(store, { serviceId: 'svc_out', from: at(T0, 15, 6), to: at(T0, 40), everyHours: 1, rule: 'reviewed/1' });
      const e = await evidenceAt(store, at(T0, 40), 'svc_out');
      expect({ checks: e.checks_30d, passed: e.passed_30d, missed: e.missed_30d, rate: e.pass_rate, fresh: e.freshness }).toEqual({
        checks: 714,
        passed: 714,
        missed: 6,
        rate: 1,
        fresh: 'fresh',
      });
    });
  });

  it('reviewed services count every operation (hourly call + daily documentation)', async () => {
    await withDb(async (store) => {
      await addReviewed(store, { id: 'svc_docs' }, { docs: true });
      await insertCheckSeries(store, { serviceId: 'svc_docs', from: at(T0, 70), to: at(T0, 100), everyHours: 1, rule: 'reviewed/1' });
      await insertCheckSeries(store, {
        serviceId: 'svc_docs',
        operation: 'docs',
        from: at(T0, 70),
        to: at(T0, 100),
        everyHours: 24,
        rule: 'reviewed/1',
        passed: 'day(t) <> 5',
      });
      const e = await evidenceAt(store, at(T0, 100), 'svc_docs');
      expect({ ops: e.operations, checks: e.checks_30d, passed: e.passed_30d, missed: e.missed_30d, h: e.check_interval_hours }).toEqual({
        ops: 2,
        checks: 720 + 30,
        passed: 749,
        missed: 0,
        h: 1,
      });
      // last_check is the primary operation's
      expect(JSON.parse(e.last_check!)).toMatchObject({
        operation: 'primary',
        passed: true,
        rule: 'reviewed/1',
        status: 402,
        reason: 'ok',
      });
    });
  });

  it('freshness: no_data, fresh within two intervals, stale after, fresh again after a new check', async () => {
    await withDb(async (store) => {
      await addDiscovered(store, { id: 'cand_f' });
      expect((await evidenceAt(store, at(T0, 1), 'cand_f')).freshness).toBe('no_data');
      expect((await evidenceAt(store, at(T0, 1), 'cand_f')).pass_rate).toBeNull();
      expect((await evidenceAt(store, at(T0, 1), 'cand_f')).last_check).toBeNull();
      await insertCheckSeries(store, { serviceId: 'cand_f', from: T0, to: at(T0, 5), everyHours: 24 }); // last check day 4 00:00
      expect((await evidenceAt(store, at(T0, 6), 'cand_f')).freshness).toBe('fresh'); // 48 h old
      const stale = await evidenceAt(store, at(T0, 6, 0.001), 'cand_f');
      expect(stale.freshness).toBe('stale');
      expect(stale.last_check_at).toBe('2026-07-05 00:00:00');
      await insertChecks(store, [makeCheck({ service_id: 'cand_f', checked_at: at(T0, 6, 1), passed: false })]);
      const again = await evidenceAt(store, at(T0, 6, 2), 'cand_f');
      expect(again.freshness).toBe('fresh');
      expect(again.latest_passed).toBe(false);
      expect(JSON.parse(again.last_check!)).toEqual({
        checked_at: '2026-07-07T01:00:00.000Z',
        operation: 'primary',
        status: 500,
        passed: false,
        reason: 'not_402',
        latency_ms: 120,
        rule: 'x402-mainnet/1',
        protocols: null, // not recorded for this check (a 500)
        auth_schemes: null, // recorded for an MCP check's 401 only
      });
      await store.run("UPDATE checks SET protocols = ['x402-v2', 'mpp'] WHERE service_id = 'cand_f' AND checked_at = $1::TIMESTAMP", [
        at(T0, 6, 1),
      ]);
      expect(JSON.parse((await evidenceAt(store, at(T0, 6, 2), 'cand_f')).last_check!).protocols).toEqual(['x402-v2', 'mpp']);
      await store.run("UPDATE checks SET auth_schemes = [] WHERE service_id = 'cand_f' AND checked_at = $1::TIMESTAMP", [at(T0, 6, 1)]);
      expect(JSON.parse((await evidenceAt(store, at(T0, 6, 2), 'cand_f')).last_check!).auth_schemes).toEqual([]);
    });
  }, 30_000);

  it('limited_evidence below 30 days of monitoring (29 vs 31 days); checks before now are the only ones counted', async () => {
    await withDb(async (store) => {
      await addReviewed(store, { id: 'svc_new' });
      await insertCheckSeries(store, { serviceId: 'svc_new', from: T0, to: at(T0, 40), everyHours: 1, rule: 'reviewed/1' });
      const d29 = await evidenceAt(store, at(T0, 29), 'svc_new');
      expect({ limited: d29.limited_evidence, days: d29.monitoring_days, checks: d29.checks_30d, missed: d29.missed_30d }).toEqual({
        limited: true,
        days: 29,
        checks: 29 * 24 + 1, // the check at exactly now has run
        missed: 0,
      });
      const d31 = await evidenceAt(store, at(T0, 31), 'svc_new');
      expect({ limited: d31.limited_evidence, days: d31.monitoring_days, checks: d31.checks_30d }).toEqual({
        limited: false,
        days: 31,
        checks: 721,
      });
    });
  }, 30_000);
});
