import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../pipeline/fleet/prng.ts';
import { type DiscoveredRecord, mergeDiscovered } from '../../../pipeline/ingest/index.ts';
import { computeWeekFigures } from '../../../pipeline/reports/index.ts';
import { listMigrations, migrate, openStore, type Store } from '../../../pipeline/store/index.ts';
import { dbTimeToIso } from '../../../pipeline/store/store.ts';
import { tempDir, withTestStore } from '../../helpers/context.ts';

/**
 * Catalog presence over time (migration 061, pipeline/ingest/catalog-presence.ts, the catalog rules of
 * pipeline/store/rules.sql): months of complete catalog sweeps coming and going, all through the
 * merge every registry ingest uses, with the clock injected. An independent reference (below, from
 * the simulated sweeps alone) gives every listed/unlisted interval, the presence at any instant and
 * the events; the table and the rules must agree with it.
 */
const DAY0 = Date.parse('2026-08-03T00:00:00.000Z');
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

function record(id: string, protocol: 'x402' | 'mcp', listed = true, mcpStatus: string | null = null): DiscoveredRecord {
  return {
    id,
    type: protocol === 'x402' ? 'api_endpoint' : 'mcp_server',
    protocol,
    pass_rule: protocol === 'x402' ? 'x402-mainnet/2' : 'mcp-reach/1',
    name: id,
    host: `${id}.example`,
    url: `https://${id}.example/pay`,
    method: protocol === 'x402' ? 'GET' : 'POST',
    templated_url: false,
    tags: [],
    description: null,
    registry_key: `https://${id}.example/pay`,
    x402_version: protocol === 'x402' ? 2 : null,
    registry_updated_at: null,
    registry_calls_30d: null,
    registry_payers_30d: null,
    registry_last_called_at: null,
    registry_price_usd: null,
    registry_max_price_usd: null,
    registry_networks: [],
    mcp_status: mcpStatus,
    mcp_server_name: null,
    remote_type: null,
    listed,
    registry_raw: {},
  } as DiscoveredRecord;
}

interface Catalog {
  kind: 'x402' | 'mcp';
  name: string;
  services: string[];
}

const CATALOGS: Catalog[] = [
  { kind: 'x402', name: 'cdp', services: ['a0', 'a1', 'a2', 'a3', 'a4'] },
  { kind: 'x402', name: 'binance', services: ['a2', 'a3', 'a4', 'a5'] },
  { kind: 'mcp', name: 'official', services: ['m0', 'm1', 'm2'] },
];

/** One complete sweep: `listed` are listed; `withdrawn` arrive marked deprecated (MCP). */
async function sweep(store: Store, cat: Catalog, at: number, listed: string[], withdrawn: string[] = []): Promise<void> {
  const records = [...listed.map((id) => record(id, cat.kind)), ...withdrawn.map((id) => record(id, cat.kind, false, 'deprecated'))];
  await store.transaction(() =>
    mergeDiscovered(store, records, { registry: cat.name, protocol: cat.kind, now: new Date(at), delistMissing: true }),
  );
}

interface Interval {
  service: string;
  cat: string;
  listed_at: string;
  unlisted_at: string | null;
  reason: string | null;
}

/** The reference: intervals per (service, catalog) from the sweeps alone. */
class Reference {
  readonly intervals: Interval[] = [];
  readonly known = new Set<string>();
  sweep(cat: Catalog, at: number, listed: string[], withdrawn: string[]): void {
    const name = `${cat.kind}:${cat.name}`;
    for (const id of listed) this.known.add(id);
    const open = (id: string) => this.intervals.find((i) => i.service === id && i.cat === name && i.unlisted_at === null);
    for (const id of listed)
      if (!open(id)) this.intervals.push({ service: id, cat: name, listed_at: iso(at), unlisted_at: null, reason: null });
    for (const i of this.intervals.filter((x) => x.cat === name && x.unlisted_at === null && !listed.includes(x.service))) {
      i.unlisted_at = iso(at);
      i.reason = withdrawn.includes(i.service) ? 'deprecated_status' : 'missing_from_sweep';
    }
  }
  presence(at: number): Map<string, { listed_by: string[]; dropped_by: string[] }> {
    const out = new Map<string, { listed_by: string[]; dropped_by: string[] }>();
    const t = iso(at);
    for (const i of this.intervals.filter((x) => x.listed_at <= t)) {
      const p = out.get(i.service) ?? { listed_by: [], dropped_by: [] };
      out.set(i.service, p);
      const listing = i.unlisted_at === null || i.unlisted_at > t;
      if (listing && !p.listed_by.includes(i.cat)) p.listed_by.push(i.cat);
    }
    for (const i of this.intervals.filter((x) => x.listed_at <= t)) {
      const p = out.get(i.service)!;
      if (!p.listed_by.includes(i.cat) && !p.dropped_by.includes(i.cat)) p.dropped_by.push(i.cat);
    }
    for (const p of out.values()) {
      p.listed_by.sort();
      p.dropped_by.sort();
    }
    return out;
  }
}

const historyRows = async (store: Store) =>
  (
    await store.all<Record<string, unknown>>(
      `SELECT service_id, catalog_kind || ':' || catalog AS cat, listed_at, unlisted_at, unlisted_reason
       FROM catalog_listing_history ORDER BY service_id, cat, listed_at`,
    )
  ).map((r) => ({
    service: String(r.service_id),
    cat: String(r.cat),
    listed_at: dbTimeToIso(r.listed_at)!,
    unlisted_at: dbTimeToIso(r.unlisted_at),
    reason: r.unlisted_reason === null ? null : String(r.unlisted_reason),
  }));

const sortIntervals = (xs: Interval[]) =>
  [...xs].sort((a, b) => (a.service + a.cat + a.listed_at < b.service + b.cat + b.listed_at ? -1 : 1));

async function presenceAt(store: Store, at: number) {
  const rows = await store.all<{ service_id: string; listed_by: string[]; dropped_by: string[] }>(
    'SELECT service_id, listed_by, dropped_by FROM atlas_catalog_presence_as_of($1::TIMESTAMP) ORDER BY service_id',
    [iso(at)],
  );
  return new Map(rows.map((r) => [r.service_id, { listed_by: [...r.listed_by], dropped_by: [...r.dropped_by] }]));
}

/** Checks of each service's primary operation: one a day at 12:00, passing or not by `passes`. */
async function insertChecks(store: Store, checks: Array<{ service: string; at: number; passed: boolean }>): Promise<void> {
  const rows = checks.map((c) => ({ s: c.service, t: iso(c.at), p: c.passed }));
  await store.run(
    `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule)
     SELECT s, 'primary', t::TIMESTAMP, t::TIMESTAMP, CASE WHEN p THEN 402 ELSE 500 END, p, CASE WHEN p THEN 'ok' ELSE 'status_not_expected' END, 'x402-mainnet/2'
     FROM (SELECT unnest(from_json($1::JSON, '[{"s":"VARCHAR","t":"VARCHAR","p":"BOOLEAN"}]'), recursive := true))`,
    [JSON.stringify(rows)],
  );
}

describe('catalog presence over time', () => {
  it('the named cases: listed, dropped, relisted; dropped by one catalog and kept by another; withdrawn by status', {
    timeout: 60_000,
  }, async () => {
    await withTestStore(async (store) => {
      const [cdp, binance, official] = CATALOGS as [Catalog, Catalog, Catalog];
      const t = (d: number) => DAY0 + d * DAY_MS;
      await sweep(store, cdp, t(0), ['a0', 'a2']);
      await sweep(store, binance, t(0), ['a2']);
      await sweep(store, official, t(0), ['m0']);
      await sweep(store, cdp, t(10), ['a2']); // a0 dropped by its only catalog; a2 kept
      await sweep(store, binance, t(12), []); // a2 dropped by binance, still listed by cdp
      await sweep(store, official, t(15), [], ['m0']); // m0 withdrawn (deprecated)
      await sweep(store, cdp, t(40), ['a0', 'a2']); // a0 relisted
      await sweep(store, official, t(41), ['m0']); // m0 active again
      expect(await historyRows(store)).toEqual([
        { service: 'a0', cat: 'x402:cdp', listed_at: iso(t(0)), unlisted_at: iso(t(10)), reason: 'missing_from_sweep' },
        { service: 'a0', cat: 'x402:cdp', listed_at: iso(t(40)), unlisted_at: null, reason: null },
        { service: 'a2', cat: 'x402:binance', listed_at: iso(t(0)), unlisted_at: iso(t(12)), reason: 'missing_from_sweep' },
        { service: 'a2', cat: 'x402:cdp', listed_at: iso(t(0)), unlisted_at: null, reason: null },
        { service: 'm0', cat: 'mcp:official', listed_at: iso(t(0)), unlisted_at: iso(t(15)), reason: 'deprecated_status' },
        { service: 'm0', cat: 'mcp:official', listed_at: iso(t(41)), unlisted_at: null, reason: null },
      ]);
      // catalog_listing (024) keeps the current state: a0's row lost its drop, the history kept it.
      const current = await store.all<{ service_id: string; dropped: boolean }>(
        `SELECT service_id || '/' || catalog AS service_id, dropped_at IS NOT NULL AS dropped FROM catalog_listing ORDER BY 1`,
      );
      expect(current).toEqual([
        { service_id: 'a0/cdp', dropped: false },
        { service_id: 'a2/binance', dropped: true },
        { service_id: 'a2/cdp', dropped: false },
        { service_id: 'm0/official', dropped: false },
      ]);
      expect(await presenceAt(store, t(20))).toEqual(
        new Map([
          ['a0', { listed_by: [], dropped_by: ['x402:cdp'] }],
          ['a2', { listed_by: ['x402:cdp'], dropped_by: ['x402:binance'] }],
          ['m0', { listed_by: [], dropped_by: ['mcp:official'] }],
        ]),
      );
      // The standing at day 20: a0 passes (dropped live endpoint), a2 fails while cdp lists it, m0 never checked.
      await insertChecks(store, [
        { service: 'a0', at: t(19), passed: true },
        { service: 'a2', at: t(19), passed: false },
      ]);
      await store.run('SET VARIABLE atlas_now = $1::TIMESTAMP', [iso(t(20))]);
      const standing = await store.all<Record<string, unknown>>(
        'SELECT service_id, latest_passed, listed_but_failing, passing_but_unlisted FROM catalog_standing ORDER BY service_id',
      );
      expect(standing).toEqual([
        { service_id: 'a0', latest_passed: true, listed_but_failing: false, passing_but_unlisted: true },
        { service_id: 'a2', latest_passed: false, listed_but_failing: true, passing_but_unlisted: false },
        { service_id: 'm0', latest_passed: null, listed_but_failing: null, passing_but_unlisted: null },
      ]);
      const events = await store.all<Record<string, unknown>>(
        `SELECT service_id, catalog_kind || ':' || catalog AS cat, atlas_iso(event_at) AS at, listed, reason
         FROM atlas_catalog_events($1::TIMESTAMP) ORDER BY event_at, service_id, cat`,
        [iso(t(100))],
      );
      expect(events.map((e) => `${String(e.at).slice(0, 10)} ${e.service_id} ${e.cat} ${e.listed ? '+' : '-'} ${e.reason}`)).toEqual([
        '2026-08-03 a0 x402:cdp + first_listed',
        '2026-08-03 a2 x402:binance + first_listed',
        '2026-08-03 a2 x402:cdp + first_listed',
        '2026-08-03 m0 mcp:official + first_listed',
        '2026-08-13 a0 x402:cdp - missing_from_sweep',
        '2026-08-15 a2 x402:binance - missing_from_sweep',
        '2026-08-18 m0 mcp:official - deprecated_status',
        '2026-09-12 a0 x402:cdp + relisted',
        '2026-09-13 m0 mcp:official + relisted',
      ]);
    });
  });

  it('agrees with an independent reference over four months of seeded sweeps, at every instant asked', { timeout: 60_000 }, async () => {
    await withTestStore(async (store) => {
      const rnd = mulberry32(20260803);
      const ref = new Reference();
      const checks: Array<{ service: string; at: number; passed: boolean }> = [];
      const passes = new Map<string, boolean>();
      for (let day = 0; day < 120; day += 10) {
        for (const [k, cat] of CATALOGS.entries()) {
          const at = DAY0 + day * DAY_MS + k * 3_600_000;
          const listed = cat.services.filter(() => rnd() < 0.7);
          const withdrawn = cat.kind === 'mcp' ? cat.services.filter((s) => !listed.includes(s) && ref.known.has(s) && rnd() < 0.6) : [];
          await sweep(store, cat, at, listed, withdrawn);
          ref.sweep(cat, at, listed, withdrawn);
        }
        for (const s of ref.known) {
          if (rnd() < 0.3) passes.set(s, !(passes.get(s) ?? true));
          checks.push({ service: s, at: DAY0 + day * DAY_MS + 12 * 3_600_000, passed: passes.get(s) ?? true });
        }
      }
      expect(await historyRows(store)).toEqual(sortIntervals(ref.intervals));
      // the sequence exercises every case: relistings, drops by status, drops by one catalog kept by another
      expect(ref.intervals.filter((i) => i.reason === 'deprecated_status').length).toBeGreaterThan(0);
      expect(new Set(ref.intervals.map((i) => `${i.service}|${i.cat}`)).size).toBeLessThan(ref.intervals.length);
      await insertChecks(store, checks);
      let splitSeen = 0;
      for (const day of [1, 29, 61, 83, 115]) {
        const at = DAY0 + day * DAY_MS + 18 * 3_600_000;
        const want = ref.presence(at);
        expect(await presenceAt(store, at)).toEqual(want);
        splitSeen += [...want.values()].filter((p) => p.listed_by.length > 0 && p.dropped_by.length > 0).length;
        await store.run('SET VARIABLE atlas_now = $1::TIMESTAMP', [iso(at)]);
        const got = await store.all<{ service_id: string; listed_but_failing: boolean | null; passing_but_unlisted: boolean | null }>(
          'SELECT service_id, listed_but_failing, passing_but_unlisted FROM catalog_standing ORDER BY service_id',
        );
        const expected = [...want.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([id, p]) => {
            const latest = checks.filter((c) => c.service === id && c.at <= at).at(-1);
            const passed = latest === undefined ? null : latest.passed;
            return {
              service_id: id,
              listed_but_failing: passed === null ? null : p.listed_by.length > 0 && !passed,
              passing_but_unlisted: passed === null ? null : p.dropped_by.length > 0 && passed,
            };
          });
        expect(got).toEqual(expected);
      }
      expect(splitSeen).toBeGreaterThan(0);
      // The weekly report counts every catalog's listings and unlistings of the week [ws, we).
      let counted = 0;
      for (const week of [0, 3, 8, 12]) {
        const ws = DAY0 + week * 7 * DAY_MS;
        const we = ws + 7 * DAY_MS;
        const inWeek = (v: string | null) => v !== null && v >= iso(ws) && v < iso(we);
        const starts = ref.intervals.filter((i) => inWeek(i.listed_at));
        const ends = ref.intervals.filter((i) => inWeek(i.unlisted_at));
        const relisted = starts.filter((i) =>
          ref.intervals.some((o) => o.service === i.service && o.cat === i.cat && o.listed_at < i.listed_at),
        );
        const body = await computeWeekFigures(store, new Date(ws), new Date(we));
        expect(body.catalogs, `week ${week}`).toEqual({
          listed: starts.length,
          relisted: relisted.length,
          unlisted: ends.length,
          services: new Set([...starts, ...ends].map((i) => i.service)).size,
        });
        counted += starts.length + ends.length;
      }
      expect(counted).toBeGreaterThan(0);
      // events: every interval start and end, up to the instant
      const hi = DAY0 + 90 * DAY_MS;
      const events = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM atlas_catalog_events($1::TIMESTAMP)', [iso(hi)]);
      const t = iso(hi);
      expect(events[0]?.n).toBe(
        ref.intervals.filter((i) => i.listed_at <= t).length +
          ref.intervals.filter((i) => i.unlisted_at !== null && i.unlisted_at <= t).length,
      );
    });
  });

  it('migration 061 carries the rows of catalog_listing over as one interval each', async () => {
    const t = tempDir();
    try {
      // The database as the code before 061 left it: those migrations applied, without today's rules.
      const store = await openStore(join(t.dir, 'atlas.duckdb'));
      try {
        await store.run(
          'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)',
        );
        for (const m of listMigrations().filter((x) => x.version < 61)) {
          await store.run(m.sql);
          await store.run('INSERT INTO schema_migrations VALUES ($1, $2, $3::TIMESTAMP)', [m.version, m.name, iso(DAY0)]);
        }
        await store.run(
          `INSERT INTO catalog_listing VALUES
             ('a0', 'x402', 'cdp', TIMESTAMP '2026-08-01', TIMESTAMP '2026-08-05', NULL),
             ('a1', 'x402', 'cdp', TIMESTAMP '2026-08-01', TIMESTAMP '2026-08-02', TIMESTAMP '2026-08-03')`,
        );
        expect(await migrate(store, new Date(DAY0))).toContain('061_catalog_history');
        expect(await historyRows(store)).toEqual([
          { service: 'a0', cat: 'x402:cdp', listed_at: '2026-08-01T00:00:00.000Z', unlisted_at: null, reason: null },
          {
            service: 'a1',
            cat: 'x402:cdp',
            listed_at: '2026-08-01T00:00:00.000Z',
            unlisted_at: '2026-08-03T00:00:00.000Z',
            reason: 'not_recorded',
          },
        ]);
      } finally {
        store.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
