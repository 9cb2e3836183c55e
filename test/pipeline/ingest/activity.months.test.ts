import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../pipeline/fleet/prng.ts';
import { type DiscoveredRecord, ingestListings, mergeDiscovered } from '../../../pipeline/ingest/index.ts';
import { computeWeekFigures, freezeWeek } from '../../../pipeline/reports/index.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import { ReportBody } from '../../../site/contract/index.ts';
import { makeContext, testClock } from '../../helpers/context.ts';
import { at, type ListingOp, writeListingFile } from '../compute/fixtures.ts';
import { viewAt, withDb } from '../compute/helpers.ts';

/**
 * Months of listings coming and going: a seeded sequence over 90 simulated days (files removed and
 * restored, listings set inactive and active, an operation dropped and restored, discovered services
 * delisted and relisted), all through the ingest paths, with checks at every slot of every active
 * period except a few random outages. A delisted discovered service stays active: its registry's
 * listing is not part of activity (rules.sql atlas_activity_stretches), it is still probed on the
 * schedule in force (daily here: no compute runs to move it to monthly). An independent reference
 * (below, from the simulated states alone) gives the expected, ran and missed checks; the rules
 * (atlas_expected_checks, evidence_30d, the weekly reports, atlas_activity_as_of) must agree with it
 * at every instant asked, and a report frozen mid-way must equal the same week recomputed at the end.
 */
const DAY0 = '2026-11-02T00:00:00.000Z'; // a Monday
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const T0 = Date.parse(DAY0);
const DAYS = 90;
const d = (n: number, h = 0) => at(DAY0, n, h);

interface ListingState {
  present: boolean;
  active: boolean;
  extra: boolean;
}

/** Per operation: its interval and, per day, whether it is active (the state from 00:00 of that day). */
interface OpModel {
  service: string;
  op: string;
  kind: 'reviewed' | 'x402';
  hours: number;
  activeOn: boolean[];
  /** x402: whether its registry listed it that day (not part of activity). */
  listedOn: boolean[];
  checks: number[]; // checked_at, ms
}

const LISTINGS = ['l0', 'l1', 'l2', 'l3', 'l4'];
const CANDS = ['cand_m0', 'cand_m1'];
const PRIMARY: ListingOp = { id: 'primary', kind: 'call', primary: true, interval: 'hourly' };
const EXTRA: ListingOp = { id: 'extra', kind: 'call', interval: 'hourly' };

function candidate(id: string): DiscoveredRecord {
  return {
    id,
    type: 'api_endpoint',
    protocol: 'x402',
    pass_rule: 'x402-mainnet/2',
    name: id,
    host: `${id}.example`,
    url: `https://${id}.example/pay`,
    method: 'GET',
    templated_url: false,
    tags: [],
    description: null,
    registry_key: `https://${id}.example/pay`,
    x402_version: 2,
    registry_updated_at: null,
    registry_calls_30d: null,
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

/** The reference: expected, ran (all, and while active) and missed of one operation in a window. */
function reference(m: OpModel, lo: number, hi: number, hiInclusive: boolean) {
  let expected = 0;
  // maximal active stretches [a, b) by day, clipped to the window; one floor per stretch
  let day = 0;
  while (day < DAYS) {
    if (!m.activeOn[day]) {
      day++;
      continue;
    }
    let end = day;
    while (end < DAYS && m.activeOn[end]) end++;
    const a = Math.max(T0 + day * DAY_MS, lo);
    const b = Math.min(end === DAYS ? Number.POSITIVE_INFINITY : T0 + end * DAY_MS, hi);
    if (b > a) expected += Math.floor((b - a) / (m.hours * HOUR_MS));
    day = end;
  }
  const inWindow = (t: number) => t >= lo && (hiInclusive ? t <= hi : t < hi);
  const ran = m.checks.filter(inWindow);
  const ranActive = ran.filter((t) => m.activeOn[Math.floor((t - T0) / DAY_MS)]).length;
  return { expected, ran: ran.length, missed: Math.max(0, expected - ranActive) };
}

async function insertChecks(store: Store, models: OpModel[]): Promise<void> {
  const rows = models.flatMap((m) =>
    m.checks.map((t) => ({ s: m.service, o: m.op, t: new Date(t).toISOString(), r: m.kind === 'x402' ? 'x402-mainnet/1' : 'reviewed/1' })),
  );
  for (let i = 0; i < rows.length; i += 5000) {
    await store.run(
      `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule)
       SELECT s, o, t::TIMESTAMP, t::TIMESTAMP, 200, true, 'ok', r
       FROM (SELECT unnest(from_json($1::JSON, '[{"s":"VARCHAR","o":"VARCHAR","t":"VARCHAR","r":"VARCHAR"}]'), recursive := true))`,
      [JSON.stringify(rows.slice(i, i + 5000))],
    );
  }
}

describe('months of listings coming and going', () => {
  it('expected and missed checks agree with an independent reference over 90 seeded days, live and in reports', async () => {
    await withDb(async (store, dir) => {
      const rnd = mulberry32(20261102); // the fleet's seeded generator: the same sequence on every run
      const listings = join(dir, 'listings');
      mkdirSync(listings);
      const clock = testClock(DAY0);
      const ctx = makeContext(dir, { clock });

      const state = new Map<string, ListingState>(LISTINGS.map((l) => [l, { present: true, active: true, extra: true }]));
      const listed = new Map<string, boolean>(CANDS.map((c) => [c, true]));
      const models: OpModel[] = [
        ...LISTINGS.flatMap((l) =>
          ['primary', 'extra'].map((op) => ({
            service: `svc_${l}`,
            op,
            kind: 'reviewed' as const,
            hours: 1,
            activeOn: [],
            listedOn: [],
            checks: [],
          })),
        ),
        ...CANDS.map((c) => ({ service: c, op: 'primary', kind: 'x402' as const, hours: 24, activeOn: [], listedOn: [], checks: [] })),
      ];
      const writeListing = (l: string) => {
        const s = state.get(l) as ListingState;
        if (!s.present) rmSync(join(listings, `${l}.json`), { force: true });
        else
          writeListingFile(listings, { slug: l, approvedAt: DAY0, operations: s.extra ? [PRIMARY, EXTRA] : [PRIMARY], active: s.active });
      };
      const sweep = (day: number) =>
        store.transaction(() =>
          mergeDiscovered(store, CANDS.filter((c) => listed.get(c)).map(candidate), {
            registry: 'test',
            protocol: 'x402',
            now: new Date(d(day)),
            delistMissing: true,
          }),
        );

      const frozenMidway = new Map<number, unknown>();
      let asOfChecked = 0;
      for (let day = 0; day < DAYS; day++) {
        let listingsChanged = day === 0;
        let registryChanged = day === 0;
        if (day > 0) {
          for (const l of LISTINGS) {
            const s = state.get(l) as ListingState;
            const r = rnd();
            if (r < 0.06) s.present = !s.present;
            else if (r < 0.1 && s.present) s.active = !s.active;
            else if (r < 0.16 && s.present) s.extra = !s.extra;
            else continue;
            listingsChanged = true;
          }
          for (const c of CANDS) {
            if (rnd() < 0.08) {
              listed.set(c, !listed.get(c));
              registryChanged = true;
            }
          }
        }
        for (const l of LISTINGS) writeListing(l);
        clock.set(d(day));
        if (listingsChanged) await ingestListings(ctx, store, listings);
        if (registryChanged) await sweep(day);

        // the day's states, and the checks the probe made in them
        for (const m of models) {
          let active: boolean;
          if (m.kind === 'x402') {
            active = true;
            m.listedOn[day] = listed.get(m.service) as boolean;
          } else {
            const s = state.get(m.service.slice(4)) as ListingState;
            active = s.present && s.active && (m.op === 'primary' || s.extra);
          }
          m.activeOn[day] = active;
          const slots = 24 / m.hours;
          for (let i = 0; i < slots; i++) {
            const t = T0 + day * DAY_MS + i * m.hours * HOUR_MS;
            // an outage now and then while active
            if (active && rnd() >= 0.02) m.checks.push(t);
          }
        }

        // A week that just ended is frozen now (its checks are in before the freeze).
        if (day > 0 && day % 7 === 0 && day <= 63) {
          const ws = new Date(d(day - 7));
          await insertChecks(
            store,
            models.map((m) => ({ ...m, checks: m.checks.filter((t) => t >= ws.getTime() && t < Date.parse(d(day))) })),
          );
          expect(await freezeWeek(store, ws, new Date(d(day)))).toBe(true);
          const [r] = await store.all<{ body: string }>('SELECT body::VARCHAR AS body FROM reports WHERE week = $1::DATE', [
            d(day - 7).slice(0, 10),
          ]);
          frozenMidway.set(day / 7 - 1, JSON.parse(String(r?.body)));
        }

        // atlas_activity_as_of at a random hour of the day agrees with the simulated state
        if (day % 9 === 4) {
          const instant = d(day, Math.floor(rnd() * 24));
          const rows = await store.all<{ k: string; in_force: boolean; listed: boolean }>(
            `SELECT service_id || '/' || operation AS k, in_force, listed FROM atlas_activity_as_of($1::TIMESTAMP) ORDER BY k`,
            [instant],
          );
          const want = models
            .map((m) => ({ k: `${m.service}/${m.op}`, in_force: m.activeOn[day], listed: m.kind === 'x402' ? m.listedOn[day] : true }))
            .sort((a, b) => (a.k < b.k ? -1 : 1));
          expect(rows).toEqual(want);
          asOfChecked++;
        }
      }
      // the checks of the weeks not inserted yet (after the last mid-way freeze)
      await insertChecks(
        store,
        models.map((m) => ({ ...m, checks: m.checks.filter((t) => t >= Date.parse(d(63))) })),
      );
      expect(asOfChecked).toBe(10);
      // the sequence really came and went: every operation had both active and inactive days
      for (const m of models) {
        if (m.kind === 'x402') expect(new Set(m.listedOn).size, `${m.service} listed`).toBe(2);
        else expect(new Set(m.activeOn).size, `${m.service}/${m.op}`).toBe(2);
      }
      const [{ n } = { n: 0 }] = await store.all<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM (SELECT service_id FROM service_activity UNION ALL SELECT service_id FROM operation_activity)`,
      );
      expect(Number(n)).toBeGreaterThan(40);

      // per operation, expected checks over a few windows, against the reference
      for (const [lo, hi] of [
        [d(0), d(30)],
        [d(11, 5), d(47, 13)],
        [d(60), d(90)],
      ] as const) {
        const rows = await store.all<{ k: string; expected: number; ran: number; missed: number }>(
          `SELECT service_id || '/' || operation AS k, expected::INTEGER AS expected, ran::INTEGER AS ran, missed::INTEGER AS missed
           FROM atlas_operation_checks($1::TIMESTAMP, $2::TIMESTAMP) ORDER BY k`,
          [lo, hi],
        );
        const want = models
          .map((m) => ({ k: `${m.service}/${m.op}`, ...reference(m, Date.parse(lo), Date.parse(hi), false) }))
          .sort((a, b) => (a.k < b.k ? -1 : 1));
        expect(rows.map((r) => ({ ...r, expected: Number(r.expected), ran: Number(r.ran), missed: Number(r.missed) }))).toEqual(want);
      }

      // the live 30-day evidence per service at three instants
      for (const instant of [d(30, 7), d(61), d(89, 23)]) {
        const hi = Date.parse(instant);
        const rows = await viewAt<{ id: string; checks: number; missed: number }>(
          store,
          instant,
          'SELECT service_id AS id, checks_30d AS checks, missed_30d AS missed FROM evidence_30d ORDER BY service_id',
        );
        const want = [...new Set(models.map((m) => m.service))].sort().map((id) => {
          const refs = models.filter((m) => m.service === id).map((m) => reference(m, hi - 30 * DAY_MS, hi, true));
          return { id, checks: refs.reduce((a, r) => a + r.ran, 0), missed: refs.reduce((a, r) => a + r.missed, 0) };
        });
        expect(
          rows.map((r) => ({ id: r.id, checks: Number(r.checks), missed: Number(r.missed) })),
          instant,
        ).toEqual(want);
      }

      // every full week: frozen mid-way (weeks 0..8) equal to the week recomputed now, and to the reference
      for (let w = 0; w < 12; w++) {
        const lo = T0 + w * 7 * DAY_MS;
        const body = await computeWeekFigures(store, new Date(lo), new Date(lo + 7 * DAY_MS));
        const kind = (k: 'reviewed' | 'x402') => {
          const refs = models.filter((m) => m.kind === k).map((m) => reference(m, lo, lo + 7 * DAY_MS, false));
          return { ran: refs.reduce((a, r) => a + r.ran, 0), missed: refs.reduce((a, r) => a + r.missed, 0) };
        };
        const got = (b: ReportBody) => ({
          reviewed: { ran: b.checks.by_kind.reviewed.ran, missed: b.checks.by_kind.reviewed.missed },
          x402: { ran: b.checks.by_kind.x402.ran, missed: b.checks.by_kind.x402.missed },
        });
        expect(got(body), `week ${w}`).toEqual({ reviewed: kind('reviewed'), x402: kind('x402') });
        const frozen = frozenMidway.get(w);
        if (w < 9) expect(got(ReportBody.parse(frozen)), `frozen week ${w}`).toEqual(got(body));
      }
    });
  }, 240_000);
});
