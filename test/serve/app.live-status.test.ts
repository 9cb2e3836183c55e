import { buildOpenApi } from '../../site/contract/openapi.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { computeAll } from '../../pipeline/compute/index.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import type { Store } from '../../pipeline/store/store.ts';
import { createApp } from '../../serve/app.ts';
import { closeDeps, createDeps, type AppDeps } from '../../serve/deps.ts';
import { RunLog, runWindows, ServiceList, Stats, Status } from '../../site/contract/index.ts';
import { publish } from '../../pipeline/publish/index.ts';
import { makeContext, openTestStore, tempDir, testClock, type TestClock } from '../helpers/context.ts';
import { currentDir } from '../pipeline/publish/read-tree.ts';
import { seedRaw } from '../pipeline/publish/seed.ts';

/**
 * GET /api/v1/status is live: the server recomputes the run windows from the run log published in
 * the tree against its own clock, so a pipeline that stops publishing shows missed slots.
 * T is on an hour boundary; probe, compute and publish ran in every hourly slot of the two days
 * before T; at T compute ran (T + 1 min) and publish wrote the tree (T + 2 min, its own run still
 * `running` in the database while it writes).
 */
const T = new Date('2026-11-25T12:00:00Z');
const min = (n: number) => new Date(T.getTime() + n * 60_000);
const HOUR = 3_600_000;

async function hourlyRuns(store: Store, kinds: string[], hours: number): Promise<void> {
  for (const kind of kinds)
    await store.run(
      `INSERT INTO runs (id, kind, scheduled_at, started_at, finished_at, status)
      SELECT $2 || '_' || strftime(slot, '%Y%m%dT%H%M%SZ') || '_0000000' || (h % 10)::VARCHAR, $2, slot,
        slot + INTERVAL 1 MINUTE, slot + INTERVAL 2 MINUTE, 'ok'
      FROM (SELECT h, $1::TIMESTAMP - INTERVAL (h) HOUR AS slot FROM range(1, $3 + 1) r(h))`,
      [T.toISOString(), kind, hours],
    );
}

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** Publish a tree at T + 2 min as described above; returns the public folder. */
async function publishedAtT(): Promise<{ publicDir: string; store: Store }> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const store = await openTestStore(dir, T);
  cleanups.push(() => store.close());
  await seedRaw(store, T, 4, 2); // also records hourly probe runs over the last day (ids of its own)
  await hourlyRuns(store, ['probe', 'compute', 'publish'], 48);
  // An hourly cycle (config cycle.everyMinutes 60): the hourly runs above are every slot of each job.
  const config = { cycle: { everyMinutes: 60 } };
  await computeAll(makeContext(dir, { now: min(1).toISOString(), config }), store, { scope: 'full' });
  const ctx = makeContext(dir, { now: min(2).toISOString(), config });
  await publish(ctx, store, { pages: false });
  return { publicDir: ctx.paths.publicDir, store };
}

async function serve(
  publicDir: string,
  clock: TestClock,
): Promise<{ deps: AppDeps; get: (p: string) => Promise<Record<string, unknown>> }> {
  const { dir, cleanup } = tempDir('atlas-serve-');
  cleanups.push(cleanup);
  const deps = await createDeps({
    clock,
    config: defaultConfig(),
    secret: 'test-secret-0123456789abcdef',
    log: silentLogger,
    siteDir: publicDir,
    inboxDir: join(dir, 'inbox'),
    replicaId: 'test',
    mounts: [],
    openapi: buildOpenApi,
  });
  cleanups.push(() => closeDeps(deps));
  const app = createApp(deps);
  return {
    deps,
    get: async (p) => {
      const res = await app.request(p);
      expect(res.status, p).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    },
  };
}

const job = (s: Status, kind: string) => s.jobs.find((j) => j.kind === kind)!;

describe('live status: run windows recomputed at answer time from the published run log', () => {
  it('served at T: nothing missed, and the publish that wrote the tree counts as ran (ok)', async () => {
    const { publicDir, store } = await publishedAtT();
    const log = RunLog.parse(JSON.parse(readFileSync(join(currentDir(publicDir), 'run-log.json'), 'utf8')));
    expect(log.generated_at).toBe(min(2).toISOString());
    expect(log.data_as_of).toBe(min(1).toISOString());
    const own = log.runs.filter((r) => r.kind === 'publish' && r.started_at === min(2).toISOString());
    expect(own).toEqual([expect.objectContaining({ status: 'ok', finished_at: null })]);
    // In the database the same run finished ok after the switch.
    const [row] = await store.all<{ status: string; finished: boolean }>(
      `SELECT status, finished_at IS NOT NULL AS finished FROM runs WHERE id = $1`,
      [own[0]!.id],
    );
    expect(row).toEqual({ status: 'ok', finished: true });

    const { get } = await serve(publicDir, testClock(min(2)));
    const s = Status.parse(await get('/api/v1/status'));
    expect(s.generated_at).toBe(min(2).toISOString());
    expect(s.data_as_of).toBe(min(1).toISOString());
    // The 24 h window ending at T + 2 min holds the ended slots T-23h .. T-1h (23) and slot T, in
    // progress: probe has no run in it yet (not scheduled yet); compute and publish ran in it.
    expect(job(s, 'probe').windows['24h']).toEqual({ scheduled: 23, ran: 23, missed: 0 });
    expect(job(s, 'compute').windows['24h']).toEqual({ scheduled: 24, ran: 24, missed: 0 });
    expect(job(s, 'publish').windows['24h']).toEqual({ scheduled: 24, ran: 24, missed: 0 });
    expect(job(s, 'publish').windows['7d']).toEqual({ scheduled: 49, ran: 49, missed: 0 });
    expect(job(s, 'publish').latest).toMatchObject({ status: 'ok', started_at: min(2).toISOString(), finished_at: null });
    // The static status.json of the tree says the same at its own instant.
    const published = Status.parse(JSON.parse(readFileSync(join(currentDir(publicDir), 'api', 'v1', 'status.json'), 'utf8')));
    expect(published.jobs).toEqual(s.jobs);
  }, 60_000);

  it('served at T + 3 h with no new runs: the probe, compute and publish slots after T show as missed', async () => {
    const { publicDir } = await publishedAtT();
    const clock = testClock(min(2));
    const { get } = await serve(publicDir, clock);
    const atT = Status.parse(await get('/api/v1/status'));
    clock.set(new Date(min(2).getTime() + 3 * HOUR));
    const s = Status.parse(await get('/api/v1/status'));
    expect(s.generated_at).toBe(new Date(min(2).getTime() + 3 * HOUR).toISOString());
    expect(s.data_as_of).toBe(min(1).toISOString()); // the last compute, not the answer instant
    // The window now holds the ended slots T-20h .. T+2h (23). Slots T, T+1h and T+2h have ended:
    // probe ran in none of them, compute and publish in T only.
    expect(job(s, 'probe').windows['24h']).toEqual({ scheduled: 23, ran: 20, missed: 3 });
    expect(job(s, 'compute').windows['24h']).toEqual({ scheduled: 23, ran: 21, missed: 2 });
    expect(job(s, 'publish').windows['24h']).toEqual({ scheduled: 23, ran: 21, missed: 2 });
    expect(job(s, 'publish').windows['30d'].missed).toBe(2);
    // Freshness is recomputed too: three hours without checks turn the hourly-checked services stale.
    expect(s.evidence_freshness.total).toBe(4);
    expect(s.evidence_freshness.fresh).toBeLessThan(atT.evidence_freshness.fresh);
    expect(s.evidence_freshness.stale).toBeGreaterThan(atT.evidence_freshness.stale);
  });

  it('data_as_of on the service list, a service and stats: the last compute', async () => {
    const { publicDir } = await publishedAtT();
    const { get } = await serve(publicDir, testClock(new Date(T.getTime() + 5 * HOUR)));
    const list = ServiceList.parse(await get('/api/v1/services?scope=index'));
    expect(list.data_as_of).toBe(min(1).toISOString());
    expect(list.items.length).toBeGreaterThan(0);
    const one = await get(`/api/v1/services/${list.items[0]!.id}`);
    expect(one.data_as_of).toBe(min(1).toISOString());
    const stats = Stats.parse(await get('/api/v1/stats'));
    expect(stats.data_as_of).toBe(min(1).toISOString());
    expect(stats.generated_at).toBe(min(2).toISOString()); // published as is: its 24 h window ends at the publish
  });
});

describe('runWindows (pure)', () => {
  const run = (kind: string, at: string, status: 'ok' | 'partial' | 'failed' | 'running' = 'ok', id = `${kind}_${at}`) => ({
    id,
    kind,
    status,
    scheduled_at: null,
    started_at: at,
    finished_at: null,
  });
  it('counts ok and partial runs by slot; failed and running ones leave the slot missed; later runs do not exist yet', () => {
    const runs = [
      run('probe', '2026-11-25T09:05:00.000Z'),
      run('probe', '2026-11-25T10:05:00.000Z', 'failed'),
      run('probe', '2026-11-25T11:05:00.000Z', 'running'),
      run('probe', '2026-11-25T12:05:00.000Z', 'partial'), // in the current slot: counts as scheduled and ran
      run('probe', '2026-11-25T13:05:00.000Z'), // after now
      run('cycle', '2026-11-25T12:01:00.000Z'),
    ];
    const w = runWindows({ operatingSince: '2026-11-25T09:05:00.000Z', runs, cycleEveryMinutes: 60 }, new Date('2026-11-25T12:30:00Z'));
    const probe = w.jobs.find((j) => j.kind === 'probe')!;
    expect(probe.windows['24h']).toEqual({ scheduled: 4, ran: 2, missed: 2 });
    expect(probe.latest?.started_at).toBe('2026-11-25T12:05:00.000Z');
    expect(w.latest_runs.map((r) => r.kind)).toEqual(['cycle', 'probe']);
    expect(w.operating_since).toBe('2026-11-25T09:05:00.000Z');
    // Before operation began nothing is scheduled.
    const before = runWindows(
      { operatingSince: '2026-11-25T09:05:00.000Z', runs, cycleEveryMinutes: 60 },
      new Date('2026-11-25T09:00:00Z'),
    );
    expect(before.operating_since).toBeNull();
    expect(before.jobs.every((j) => j.windows['30d'].scheduled === 0)).toBe(true);
  });

  it("leaves compute's and publish's slots inside a finished back-fill out, and counts every other job's", () => {
    const at = (h: number, m = 5) => new Date(Date.UTC(2026, 10, 25, h, m)).toISOString();
    // A back-fill from 00:01 to 06:20 (the demo going live): probe ran hourly except 03:00 (an
    // outage), compute at 05:01 only, one publish at 06:20 (in the slot of 06:00, which ends after the
    // back-fill and so counts).
    const backfill = { ...run('backfill', at(0, 1)), finished_at: at(6, 20) };
    const runs = [backfill, ...[0, 1, 2, 4, 5, 6].map((h) => run('probe', at(h, 1))), run('compute', at(5, 1)), run('publish', at(6, 20))];
    const w = runWindows({ operatingSince: at(0, 1), runs, cycleEveryMinutes: 60 }, new Date(at(6, 30)));
    const figures = (kind: string) => w.jobs.find((j) => j.kind === kind)!.windows['24h'];
    expect(w.backfills).toEqual([{ from: at(0, 1), until: at(6, 20), uncounted_jobs: ['compute', 'publish'] }]);
    expect(figures('probe')).toEqual({ scheduled: 7, ran: 6, missed: 1 }); // the outage hour, counted
    expect(figures('compute')).toEqual({ scheduled: 0, ran: 0, missed: 0 }); // 00:00–05:00 inside; 06:00 not run yet
    expect(figures('publish')).toEqual({ scheduled: 1, ran: 1, missed: 0 });
    // After the back-fill the hourly slots count again: at 08:30, 06:00 and 07:00 of compute ended unrun.
    expect(
      runWindows({ operatingSince: at(0, 1), runs, cycleEveryMinutes: 60 }, new Date(at(8, 30))).jobs.find((j) => j.kind === 'compute')!
        .windows['24h'],
    ).toEqual({
      scheduled: 2,
      ran: 0,
      missed: 2,
    });
    // A back-fill still running (no finished_at), or failed, leaves every slot counted.
    for (const b of [
      { ...backfill, finished_at: null, status: 'running' as const },
      { ...backfill, status: 'failed' as const },
    ]) {
      const open = runWindows({ operatingSince: at(0, 1), runs: [b, ...runs.slice(1)], cycleEveryMinutes: 60 }, new Date(at(6, 30)));
      expect(open.backfills).toEqual([]);
      expect(open.jobs.find((j) => j.kind === 'compute')!.windows['24h']).toEqual({ scheduled: 6, ran: 1, missed: 5 });
    }
  });
});
