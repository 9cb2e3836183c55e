import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type DemoHandle } from '../../../cli/demo/run-demo.ts';
import { computeStatus } from '../../../pipeline/compute/index.ts';
import { DEMO_CYCLE_MINUTES } from '../../../cli/demo/config.ts';
import { silentLogger } from '../../../pipeline/core/log.ts';
import { openStore, type Store } from '../../../pipeline/store/index.ts';
import { ServiceDetail, ServiceList, Status } from '../../../site/contract/index.ts';
import { tempDir } from '../../helpers/context.ts';

// A small demo world started as `npm start` starts it (the fleet, the hourly back-fill with its one
// outage, publish, the saved database), one simulated day so the test stays quick: every hourly
// slot has its check except the outage's, the published missed checks come from the outage, and the
// only probe runs missed are the outage's hours.
const end = new Date('2026-11-25T22:40:00Z');
const DAYS = 1;
// The demo's real clock, started at `end`: once live, its time runs on from the history's end.
const t0 = Date.now();
const realNow = () => end.getTime() + (Date.now() - t0);
const tmp = tempDir('atlas-demo-world-');
let demo: DemoHandle;
let store: Store;

beforeAll(async () => {
  demo = await startDemo({
    dataDir: tmp.dir,
    days: DAYS,
    port: 0,
    host: '127.0.0.1',
    size: 45,
    seed: 7,
    probeTimeoutMs: 1500,
    probeConcurrency: 64,
    coarseHours: 1,
    recentHours: 2,
    outageHours: 3,
    log: silentLogger,
    now: end,
    realNow,
    liveEveryMs: false,
  });
  // The demo closed its database once saved (no live cycles here): read the file it left.
  store = await openStore(demo.ctx.paths.db);
}, 120_000);

afterAll(async () => {
  try {
    store?.close();
    await demo?.stop();
  } finally {
    tmp.cleanup();
  }
});

const iso = (v: unknown) => `${String(v).replace(' ', 'T')}Z`;

describe('the demo world (1 day, every hour, one 3-hour outage)', () => {
  it('has a check in every hourly slot of every hourly call operation, except the outage hours', async () => {
    const outage = demo.summary.outage;
    expect(outage).toBeTruthy();
    const lastHour = new Date(Math.floor(end.getTime() / 3_600_000) * 3_600_000);
    // Every operation probed hourly or daily, from the slot in which its current interval took
    // effect (its latest interval change) to the last hour: each of those slots should have a check.
    const slots = `WITH ops AS (
         SELECT o.service_id, o.id AS operation, o.interval_hours AS h,
                (SELECT max(i.changed_at) FROM interval_changes i WHERE i.service_id = o.service_id AND i.operation = o.id) AS since
         FROM operations o
         WHERE o.interval_hours IN (1, 24) AND EXISTS (SELECT 1 FROM checks c WHERE c.service_id = o.service_id AND c.operation = o.id)),
       expected AS (
         SELECT service_id, operation, h,
                unnest(generate_series(make_timestamp((epoch_ms(since) // (h * 3600000)) * h * 3600000 * 1000), $1::TIMESTAMP, to_hours(h::BIGINT))) AS slot
         FROM ops)`;
    const holes = await store.all<{ slot: string; h: number; n: number }>(
      `${slots}
       SELECT slot::VARCHAR AS slot, h, count(*)::INTEGER AS n FROM expected e
       WHERE NOT EXISTS (SELECT 1 FROM checks c WHERE c.service_id = e.service_id AND c.operation = e.operation AND c.slot = e.slot)
       GROUP BY ALL ORDER BY slot`,
      [lastHour.toISOString()],
    );
    const [counts] = await store.all<{ hourly: number; daily: number }>(
      `${slots}
       SELECT count(DISTINCT (service_id, operation)) FILTER (WHERE h = 1)::INTEGER AS hourly,
              count(DISTINCT (service_id, operation)) FILTER (WHERE h = 24)::INTEGER AS daily FROM expected`,
      [lastHour.toISOString()],
    );
    expect(counts!.hourly).toBeGreaterThan(3);
    expect(counts!.daily).toBeGreaterThan(40);
    // Exactly the three outage hours, in each of them every hourly operation without its check, and
    // no daily slot missed.
    const hours = [0, 1, 2].map((h) => new Date(outage!.start.getTime() + h * 3_600_000).toISOString());
    expect(holes.map((h) => new Date(iso(h.slot)).toISOString())).toEqual(hours);
    for (const h of holes) expect([h.h, h.n]).toEqual([1, counts!.hourly]);
  });

  it('publishes missed checks only for services with a slot in the outage, and prints their share', async () => {
    const outage = demo.summary.outage!;
    // A service with missed checks has an operation without a check during the outage (and the test
    // above shows that hourly operations have no other gap).
    const missed = await store.all<{ service_id: string; missed_30d: number; in_outage: boolean }>(
      `SELECT e.service_id, e.missed_30d,
              EXISTS (SELECT 1 FROM operations o WHERE o.service_id = e.service_id AND NOT EXISTS (
                SELECT 1 FROM checks c WHERE c.service_id = o.service_id AND c.operation = o.id
                  AND c.slot >= $1::TIMESTAMP AND c.slot < $2::TIMESTAMP)) AS in_outage
       FROM evidence e WHERE e.missed_30d > 0`,
      [outage.start.toISOString(), outage.end.toISOString()],
    );
    expect(missed.length).toBeGreaterThan(0);
    for (const m of missed) expect(m.in_outage, m.service_id).toBe(true);
    const total = missed.reduce((a, m) => a + Number(m.missed_30d), 0);
    expect(demo.summary.missed).toBe(total);
    expect(demo.summaryText).toContain(`Missed checks: ${total} of ${demo.summary.expected} scheduled`);
    expect(demo.summaryText).toContain(`${outage.start.toISOString().slice(0, 16)}–${outage.end.toISOString().slice(11, 16)} UTC`);
    expect(demo.summaryText).toMatch(
      /Start-up: fleet [\d.]+ s, backfill [\d.]+ s \(.*probe [\d.]+ s.*\), publish [\d.]+ s, save [\d.]+ s, serve [\d.]+ s\./,
    );
  });

  it('shows missed probe runs for the outage hours only', async () => {
    const status = await computeStatus(store, end, { cycleEveryMinutes: DEMO_CYCLE_MINUTES });
    const probe = status.jobs.find((j) => j.kind === 'probe')!;
    expect(probe.windows['24h'].missed).toBe(3);
    expect(probe.windows['24h'].ran).toBe(probe.windows['24h'].scheduled - 3);
    expect(demo.summaryText).toMatch(/Missed runs \(status page, 30 days\): probe 3, compute 0, publish 0, docs 0, report 0 /);
  });

  it('shows the declared-terms differences and the signed offers of its sellers', async () => {
    const get = async (path: string) => (await fetch(`${demo.url}${path}`)).json();
    // Differences come from what a source declares (at this size: our listings' price claims); every
    // one listed differs now. A seller that signs is listed by the catalog with the terms its 402
    // asks, paid to its own key (pipeline/fleet/seller-offers.ts): none of them differs.
    const mismatch = ServiceList.parse(await get('/api/v1/services?scope=index&terms_mismatch=true&limit=100'));
    expect(mismatch.total).toBeGreaterThan(0);
    for (const s of mismatch.items) expect(s.declared_terms?.differs, s.host).toBe(true);
    const signing = ServiceList.parse(await get('/api/v1/services?scope=index&q=signed-&limit=100'));
    expect(signing.items.length).toBeGreaterThan(3);
    for (const s of signing.items) expect(s.declared_terms, s.host).toMatchObject({ differs: false });
    // A seller whose 402 carries an EIP-712 offer signed by its payee key: one valid, authorised offer.
    const found = signing.items.filter((s) => s.host.startsWith('signed-eip712-valid.'));
    expect(found).toHaveLength(1);
    const detail = ServiceDetail.parse(await get(`/api/v1/services/${found[0]!.id}`));
    expect(detail.signed_offers).toMatchObject({ signed: 1, valid: 1, authorised: 1, invalid: 0 });
  });

  it("serves a status page whose only missed runs are the outage's: the back-fill's compute and publish slots are left out and explained", async () => {
    const res = await fetch(`${demo.url}/api/v1/status`);
    const status = Status.parse(await res.json());
    expect(status.backfills).toHaveLength(1);
    const b = status.backfills[0]!;
    expect(Date.parse(b.from)).toBe(Date.parse(status.operating_since!));
    expect(Date.parse(b.until)).toBeGreaterThanOrEqual(end.getTime()); // the demo went live after the history's end
    const missed = Object.fromEntries(status.jobs.map((j) => [j.kind, j.windows['30d'].missed]));
    expect(missed).toEqual({ probe: 3, compute: 0, publish: 0, docs: 0, report: 0 });
    // Publish ran once, at start-up: its slot counts.
    expect(status.jobs.find((j) => j.kind === 'publish')!.windows['30d']).toEqual({ scheduled: 1, ran: 1, missed: 0 });
    const page = await (await fetch(`${demo.url}/status`)).text();
    expect(page).toContain('Back-filled history from');
    expect(page).toContain('compute and publish ran less often than hourly then');
  });
});
