import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordActivity } from '../../../pipeline/ingest/activity.ts';
import { type DiscoveredRecord, ingestListings, mergeDiscovered } from '../../../pipeline/ingest/index.ts';
import { computeWeekFigures, freezeWeek } from '../../../pipeline/reports/index.ts';
import { MIGRATIONS_DIR, migrate, openStore, withStore } from '../../../pipeline/store/index.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import { formatMismatch, verifyGeneration } from '../../../pipeline/verify/index.ts';
import { ReportBody } from '../../../site/contract/index.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { makeContext, tempDir, testClock } from '../../helpers/context.ts';
import { addDiscovered, addReviewed, at, insertCheckSeries, type ListingOp, writeListingFile } from '../compute/fixtures.ts';
import { computeAt, viewAt, withDb } from '../compute/helpers.ts';

/**
 * Activity periods (migration 005, rules.sql atlas_activity_stretches): a listing deactivated and
 * reactivated, an operation disabled and re-enabled expect no checks while inactive: not in the live 30-day evidence, not in a weekly report
 * before or after it freezes, not in what `atlas verify` recomputes.
 *
 * Simulated month from DAY0 (a Monday), everything through the ingest paths:
 *   svc_pause   hourly; its listing file removed on day 10, restored on day 20
 *   svc_flag    hourly; its listing set `active: false` on day 3, true again on day 6
 *   svc_ops     hourly primary + `search` (hourly); `search` dropped from the listing on day 12,
 *               back on day 15 (reviewed calls are hourly, schedule/1)
 *   cand        discovered x402, daily; delisted by a complete sweep on day 8, relisted on day 18. A
 *               delisted service stays active (its registry's listing is not part of activity): it
 *               is still expected on the schedule in force, daily until compute moves it to monthly
 *               on day 15 (7 days unlisted) and daily again on day 18; the probe misses days 25, 26
 * Checks run at every slot of every active period.
 */
const DAY0 = '2026-11-02T00:00:00.000Z';
const d = (n: number, h = 0) => at(DAY0, n, h);
const week = (n: number) => new Date(d(7 * n));

const HOURLY: ListingOp = { id: 'primary', kind: 'call', primary: true, interval: 'hourly' };
const SEARCH_HOURLY: ListingOp = { id: 'search', kind: 'call', interval: 'hourly' };
const CAND = 'cand_activity';

function candidate(): DiscoveredRecord {
  return {
    id: CAND,
    type: 'api_endpoint',
    protocol: 'x402',
    pass_rule: 'x402-mainnet/2',
    name: 'Candidate',
    host: 'cand.example',
    url: 'https://cand.example/pay',
    method: 'GET',
    templated_url: false,
    tags: [],
    description: null,
    registry_key: 'https://cand.example/pay',
    x402_version: 2,
    registry_updated_at: null,
    registry_calls_30d: null,
    // 5..99 payers: daily (schedule/1), so compute keeps the interval it starts with
    registry_payers_30d: 50,
    registry_last_called_at: null,
    registry_price_usd: 0.01,
    registry_max_price_usd: null,
    registry_networks: ['eip155:8453'],
    mcp_status: null,
    mcp_server_name: null,
    remote_type: null,
    listed: true,
    registry_raw: {},
  };
}

const sweep = (store: Store, records: DiscoveredRecord[], now: string) =>
  store.transaction(() => mergeDiscovered(store, records, { registry: 'test', protocol: 'x402', now: new Date(now), delistMissing: true }));

interface Fig {
  checks: number;
  missed: number;
}

async function evidenceFigures(store: Store, iso: string): Promise<Record<string, Fig>> {
  const rows = await viewAt<{ id: string; checks: number; missed: number }>(
    store,
    iso,
    'SELECT service_id AS id, checks_30d AS checks, missed_30d AS missed FROM evidence_30d',
  );
  return Object.fromEntries(rows.map((r) => [r.id, { checks: Number(r.checks), missed: Number(r.missed) }]));
}

async function expectedOf(store: Store, lo: string, hi: string): Promise<Record<string, number>> {
  const rows = await store.all<{ k: string; expected: number }>(
    `SELECT service_id || '/' || operation AS k, expected::INTEGER AS expected FROM atlas_expected_checks($1::TIMESTAMP, $2::TIMESTAMP) ORDER BY k`,
    [lo, hi],
  );
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.expected)]));
}

const checksOf = (b: ReportBody) => ({
  reviewed: { ran: b.checks.by_kind.reviewed.ran, missed: b.checks.by_kind.reviewed.missed },
  x402: { ran: b.checks.by_kind.x402.ran, missed: b.checks.by_kind.x402.missed },
});

/** The simulated month; `step` runs at day 14 (before that day's events) and at day 30. */
async function simulate(store: Store, dir: string, clock: ReturnType<typeof testClock>, step: (day: number) => Promise<void>) {
  const listings = join(dir, 'listings');
  mkdirSync(listings, { recursive: true });
  const ctx = makeContext(dir, { clock });
  const write = (slug: string, operations: ListingOp[], active = true) =>
    writeListingFile(listings, { slug, approvedAt: DAY0, operations, active });
  const ingestAt = async (day: number) => {
    clock.set(d(day));
    await ingestListings(ctx, store, listings);
  };

  // checks of every slot of every active period (and the delisted candidate's daily probes)
  await insertCheckSeries(store, { serviceId: 'svc_pause', from: d(0), to: d(10), everyHours: 1, rule: 'reviewed/1' });
  await insertCheckSeries(store, { serviceId: 'svc_pause', from: d(20), to: d(30), everyHours: 1, rule: 'reviewed/1' });
  await insertCheckSeries(store, { serviceId: 'svc_flag', from: d(0), to: d(3), everyHours: 1, rule: 'reviewed/1' });
  await insertCheckSeries(store, { serviceId: 'svc_flag', from: d(6), to: d(30), everyHours: 1, rule: 'reviewed/1' });
  await insertCheckSeries(store, { serviceId: 'svc_ops', from: d(0), to: d(30), everyHours: 1, rule: 'reviewed/1' });
  await insertCheckSeries(store, { serviceId: 'svc_ops', operation: 'search', from: d(0), to: d(12), everyHours: 1, rule: 'reviewed/1' });
  await insertCheckSeries(store, { serviceId: 'svc_ops', operation: 'search', from: d(15), to: d(30), everyHours: 1, rule: 'reviewed/1' });
  await insertCheckSeries(store, { serviceId: CAND, from: d(0), to: d(15), everyHours: 24 });
  await insertCheckSeries(store, { serviceId: CAND, from: d(18), to: d(25), everyHours: 24 });
  await insertCheckSeries(store, { serviceId: CAND, from: d(27), to: d(30), everyHours: 24 });

  write('pause', [HOURLY]);
  write('flag', [HOURLY]);
  write('ops', [HOURLY, SEARCH_HOURLY]);
  await ingestAt(0);
  await sweep(store, [candidate()], d(0));
  write('flag', [HOURLY], false);
  await ingestAt(3);
  write('flag', [HOURLY]);
  await ingestAt(6);
  await sweep(store, [], d(8));
  rmSync(join(listings, 'pause.json'));
  await ingestAt(10);
  write('ops', [HOURLY]);
  await ingestAt(12);
  await step(14);
  write('ops', [HOURLY, SEARCH_HOURLY]);
  await ingestAt(15);
  await computeAt(store, dir, d(15));
  await sweep(store, [candidate()], d(18));
  await computeAt(store, dir, d(18));
  write('pause', [HOURLY]);
  await ingestAt(20);
  clock.set(d(30));
  await step(30);
}

describe('activity periods', () => {
  it('a deactivated listing, a disabled operation and a delisted service miss nothing while inactive: live, in reports, frozen, verified', async () => {
    await withDb(async (store, dir) => {
      const clock = testClock(DAY0);
      let provisional: ReportBody | undefined;
      let frozenW2: unknown;
      await simulate(store, dir, clock, async (day) => {
        if (day === 14) {
          // day 14: svc_pause and search inactive, cand delisted. The live evidence (the window
          // [now - 30d, now] includes the checks at 00:00 of day 14):
          expect(await evidenceFigures(store, d(14))).toEqual({
            svc_pause: { checks: 240, missed: 0 },
            svc_flag: { checks: 72 + 192 + 1, missed: 0 },
            svc_ops: { checks: 336 + 1 + 288, missed: 0 },
            [CAND]: { checks: 15, missed: 0 },
          });
          // week 2 [day 7, day 14) before it freezes, then frozen
          provisional = await computeWeekFigures(store, week(1), new Date(d(13)));
          expect(checksOf(provisional)).toEqual({
            reviewed: { ran: 72 + 144 + 144 + 120, missed: 0 },
            x402: { ran: 6, missed: 0 },
          });
          expect(await freezeWeek(store, week(1), new Date(d(14)))).toBe(true);
          const [r] = await store.all<{ body: string }>(`SELECT body::VARCHAR AS body FROM reports WHERE week = $1::DATE`, [
            d(7).slice(0, 10),
          ]);
          frozenW2 = JSON.parse(String(r?.body));
        }
      });
      expect(frozenW2).toBeDefined();

      // Expected checks per operation over the 30 days ending on day 30
      expect(await expectedOf(store, d(0), d(30))).toEqual({
        // daily over days 0–15, monthly over 15–18 (no whole month), daily over 18–30
        [`${CAND}/primary`]: 15 + 0 + 12,
        'svc_flag/primary': 72 + 576,
        'svc_ops/primary': 720,
        'svc_ops/search': 288 + 360,
        'svc_pause/primary': 240 + 240,
      });

      // the live 30-day evidence at day 30 (view and the materialized table of `atlas compute`)
      const live = {
        svc_pause: { checks: 480, missed: 0 },
        svc_flag: { checks: 648, missed: 0 },
        svc_ops: { checks: 720 + 288 + 360, missed: 0 },
        // 25 checks ran (7 of them while delisted, on the daily schedule in force); 27 expected: 2 missed
        [CAND]: { checks: 25, missed: 2 },
      };
      expect(await evidenceFigures(store, d(30))).toEqual(live);
      await computeAt(store, dir, d(30));
      const stored = await store.all<{ service_id: string; checks_30d: number; missed_30d: number }>(
        'SELECT service_id, checks_30d, missed_30d FROM evidence ORDER BY service_id',
      );
      expect(Object.fromEntries(stored.map((r) => [r.service_id, { checks: r.checks_30d, missed: r.missed_30d }]))).toEqual(live);

      // weekly reports: frozen week 2 unchanged by the reactivation; recomputed the same; weeks 1, 3, 4
      const [r2] = await store.all<{ body: string }>(`SELECT body::VARCHAR AS body FROM reports WHERE week = $1::DATE`, [
        d(7).slice(0, 10),
      ]);
      expect(JSON.parse(String(r2?.body))).toEqual(frozenW2);
      const w2 = ReportBody.parse(frozenW2);
      const w2Checks = { reviewed: { ran: 72 + 168 + 168 + 120, missed: 0 }, x402: { ran: 7, missed: 0 } };
      expect(checksOf(w2)).toEqual(w2Checks);
      expect(checksOf(await computeWeekFigures(store, week(1), week(2)))).toEqual(w2Checks);
      for (const n of [0, 2, 3]) expect(await freezeWeek(store, week(n), new Date(d(30)))).toBe(true);
      const frozen = async (n: number) => {
        const [r] = await store.all<{ body: string }>(`SELECT body::VARCHAR AS body FROM reports WHERE week = $1::DATE`, [
          d(7 * n).slice(0, 10),
        ]);
        return checksOf(ReportBody.parse(JSON.parse(String(r?.body))));
      };
      expect(await frozen(0)).toEqual({ reviewed: { ran: 168 + 96 + 336, missed: 0 }, x402: { ran: 7, missed: 0 } });
      expect(await frozen(2)).toEqual({ reviewed: { ran: 24 + 168 + 168 + 144, missed: 0 }, x402: { ran: 1 + 3, missed: 0 } });
      expect(await frozen(3)).toEqual({ reviewed: { ran: 168 * 4, missed: 0 }, x402: { ran: 5, missed: 2 } });

      // the state at any instant, for researchers: one query
      const asOf = async (t: string, k: string) => {
        const rows = await store.all<Record<string, unknown>>(
          `SELECT listed, active, enabled, declared_interval_hours, interval_hours, in_force FROM atlas_activity_as_of($1::TIMESTAMP)
           WHERE service_id || '/' || operation = $2`,
          [t, k],
        );
        return rows.map((r) => ({
          ...r,
          declared_interval_hours: r.declared_interval_hours ?? null,
          interval_hours: Number(r.interval_hours),
        }));
      };
      const state = (listed: boolean, active: boolean, enabled: boolean, declared: number | null, hours: number) => [
        { listed, active, enabled, declared_interval_hours: declared, interval_hours: hours, in_force: active && enabled },
      ];
      expect(await asOf(d(9, 23), 'svc_pause/primary')).toEqual(state(true, true, true, 1, 1));
      expect(await asOf(d(10), 'svc_pause/primary')).toEqual(state(true, false, false, 1, 1));
      expect(await asOf(d(20), 'svc_pause/primary')).toEqual(state(true, true, true, 1, 1));
      expect(await asOf(d(4), 'svc_flag/primary')).toEqual(state(true, false, false, 1, 1));
      expect(await asOf(d(13), 'svc_ops/search')).toEqual(state(true, true, false, 1, 1));
      expect(await asOf(d(16), 'svc_ops/search')).toEqual(state(true, true, true, 1, 1));
      expect(await asOf(d(9), `${CAND}/primary`)).toEqual(state(false, true, true, null, 24));
      expect(await asOf(d(16), `${CAND}/primary`)).toEqual(state(false, true, true, null, 720));
      expect(await asOf(d(19), `${CAND}/primary`)).toEqual(state(true, true, true, null, 24));
      // nothing existed before the first listing's approval
      expect(await asOf(at(DAY0, -1), 'svc_pause/primary')).toEqual([]);

      // `atlas verify` over a published tree recomputes every figure equal (evidence and reports)
      const ctx = makeContext(dir, { clock });
      await publish(ctx, store, { pages: false });
      store.close();
      const v = await withStore(ctx.paths.db, (s) => verifyGeneration(s, join(dir, 'public')), { readOnly: true });
      expect(v.mismatches.map(formatMismatch)).toEqual([]);
      expect(v.checked.reports).toBe(4);

      // a day later svc_pause's listing is removed again: the published tree of day 30 still verifies,
      // its directory criteria and evidence replayed on the state of their own instant
      clock.set(d(31));
      rmSync(join(dir, 'listings', 'pause.json'));
      await withStore(ctx.paths.db, (s) => ingestListings(ctx, s, join(dir, 'listings')));
      const later = await withStore(ctx.paths.db, (s) => verifyGeneration(s, join(dir, 'public')), { readOnly: true });
      expect(later.mismatches.map(formatMismatch)).toEqual([]);
      const [now] = await withStore(ctx.paths.db, (s) => s.all<{ active: boolean }>(`SELECT active FROM services WHERE id = 'svc_pause'`), {
        readOnly: true,
      });
      expect(now?.active).toBe(false);
    });
  }, 240_000);

  it('a database from before activity periods is back-filled by migration 005; ingest then records changes only', async () => {
    const t = tempDir('atlas-activity-');
    const store = await openStore(join(t.dir, 'atlas.duckdb'));
    try {
      // the tables as the older code created them (no rules yet: they need the new tables)
      await store.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)');
      for (const name of [
        '001_core',
        '002_operation_monitoring_since',
        '003_operation_declared_interval',
        '004_bounded_history',
        '030_compute',
      ]) {
        await store.run(readFileSync(join(MIGRATIONS_DIR, `${name}.sql`), 'utf8'));
        await store.run('INSERT INTO schema_migrations VALUES ($1, $2, now())', [Number(name.slice(0, 3)), name]);
      }
      // an inactive listing (no record of when it stopped), and a discovered service whose registry
      // delisted it on day 5 and listed it again on day 9 (a repeated event on day 10 changes nothing)
      await addReviewed(store, { id: 'svc_old', monitoring_since: DAY0, active: false }, {});
      await store.run(`UPDATE operations SET enabled = false WHERE service_id = 'svc_old'`);
      await addDiscovered(store, { id: 'cand_old', monitoring_since: DAY0, first_seen_at: DAY0 });
      for (const [day, listed, reason] of [
        [0, true, 'first_seen'],
        [5, false, 'missing_from_sweep'],
        [9, true, 'relisted'],
        [10, true, 'relisted'],
      ] as const)
        await store.run(`INSERT INTO listing_events VALUES ('cand_old', $1::TIMESTAMP, $2, 'test', $3)`, [d(day), listed, reason]);

      await migrate(store, new Date(d(20)));
      const rows = await store.all<{ service_id: string; since: string; listed: boolean; active: boolean }>(
        `SELECT service_id, atlas_iso(since) AS since, listed, active FROM service_activity ORDER BY service_id, since`,
      );
      expect(rows).toEqual([
        { service_id: 'cand_old', since: d(0), listed: true, active: true },
        { service_id: 'cand_old', since: d(5), listed: false, active: true },
        { service_id: 'cand_old', since: d(9), listed: true, active: true },
        { service_id: 'svc_old', since: d(0), listed: true, active: false },
      ]);
      expect(
        await store.all(`SELECT service_id, operation, atlas_iso(since) AS since, enabled FROM operation_activity ORDER BY 1, 2`),
      ).toEqual([
        { service_id: 'cand_old', operation: 'primary', since: d(0), enabled: true },
        { service_id: 'svc_old', operation: 'primary', since: d(0), enabled: false },
      ]);
      // the delisting is kept as a period but is not inactivity: 20 daily checks expected
      expect(await expectedOf(store, d(0), d(20))).toEqual({ 'cand_old/primary': 20, 'svc_old/primary': 0 });

      // nothing changed: nothing written; a reactivation: one row each, from then on
      expect(await recordActivity(store, d(20), 'listings')).toEqual({ services: 0, operations: 0 });
      await store.run(`UPDATE services SET active = true WHERE id = 'svc_old'`);
      await store.run(`UPDATE operations SET enabled = true WHERE service_id = 'svc_old'`);
      expect(await recordActivity(store, d(20), 'listings')).toEqual({ services: 1, operations: 1 });
      expect(await recordActivity(store, d(20), 'listings')).toEqual({ services: 0, operations: 0 });
      expect(await expectedOf(store, d(0), d(30))).toEqual({ 'cand_old/primary': 30, 'svc_old/primary': 240 });
    } finally {
      store.close();
      t.cleanup();
    }
  });
});
