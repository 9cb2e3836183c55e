import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Fleet, fleetConfig, startFleet } from '../../../../pipeline/fleet/index.ts';
import { mulberry32 } from '../../../../pipeline/fleet/prng.ts';
import { runProbe } from '../../../../pipeline/probe/index.ts';
import { runQueuedProbe } from '../../../../pipeline/probe/queue/index.ts';
import { chaosSeed } from '../../../helpers/chaos-seed.ts';
import { runCli, runCliInProcess } from '../../../helpers/cli.ts';
import { makeContext, tempDir, testClock } from '../../../helpers/context.ts';
import { postgresGate, startTestPostgres, type TestPostgres } from '../../../helpers/postgres.ts';
import {
  type HoldServer,
  holdServices as holdServicesOn,
  jobStates,
  onePerSlot,
  reapWorkers,
  startHoldServer,
  startWorker as startWorkerAt,
  type Worker,
  withDb,
  writerWorld,
} from '../../../helpers/probe-workers.ts';
import type { SeedService } from '../seed.ts';

/**
 * The probe queue end to end (issue 26 item 3): a real PostgreSQL, the writer's enqueue and load
 * (runQueuedProbe, in this process), and three real `atlas probe --worker` child processes.
 * - a world of the fleet probed through the queue equals the same world probed by a local run;
 * - a worker SIGKILLed mid-job (a seeded worker, at a seeded request of its first job): its job is
 *   retried after its lease by another worker; no job lost or left leased;
 * - PostgreSQL stopped mid-run: workers and the writer fail cleanly and recover after the restart.
 * Waits are on events (a log line, a held request, a process exit), never on timers.
 */
const gate = postgresGate('probe queue workers');
const NOW = '2026-11-25T12:10:00Z';
const SEED = chaosSeed();

describe.skipIf(!gate.present)('probe queue: the writer enqueues, three worker processes probe, the writer loads', () => {
  let server: TestPostgres;
  let fleet: Fleet;
  let hold: HoldServer;
  const t = tempDir();
  const clock = testClock(NOW);

  beforeAll(async () => {
    [server, fleet, hold] = await Promise.all([
      startTestPostgres(),
      startFleet({ clock, slowMs: 30_000, sseIntervalMs: 20 }),
      startHoldServer(),
    ]);
  }, 30_000);
  afterEach(reapWorkers);
  afterAll(async () => {
    await Promise.all([server?.close(), fleet?.close(), hold?.close()]);
    t.cleanup();
  });

  /** A writer world under `name`: the fleet's probe config, a fresh database, `atlas init` run. */
  async function world(name: string, services: SeedService[], timeoutMs = 5000) {
    const fc = fleetConfig(fleet);
    const config = { ...fc, probe: { ...fc.probe, timeoutMs, resolve: { ...fc.probe.resolve, '*.t.test': '127.0.0.1' } } };
    // `atlas init` as a real process once; the other worlds through the same main() in this process.
    const w = await writerWorld({
      dir: join(t.dir, name),
      url: await server.database(),
      services,
      config,
      clock,
      init: name === 'equal' ? runCli : runCliInProcess,
    });
    return { ...w, dir: join(t.dir, name) };
  }

  const holdServices = (n: number) => holdServicesOn(hold.port, n);
  const startWorker = (i: number, config: string, dir: string) => startWorkerAt(i, { config, dataDir: dir, now: NOW });

  it('three workers: every due call checked once, loaded once; the same checks, terms and run counts as a local run', async () => {
    const services: SeedService[] = fleet.endpoints
      // Endpoints that only ever time out are left out: a timeout's equality is not worth their seconds here.
      .filter((e) => e.protocol !== 'web' && !/slow|endless/.test(e.behaviour))
      .map((e, i) => ({
        id: `cand_s${i}`,
        protocol: e.protocol === 'mcp' ? 'mcp' : 'x402',
        ops: [{ url: e.url, method: e.method, rule: e.protocol === 'mcp' ? ('mcp-reach/3' as const) : ('x402-mainnet/2' as const) }],
      }));
    const w = await world('equal', services);
    const localDir = join(w.dir, 'local');
    mkdirSync(localDir, { recursive: true });
    copyFileSync(w.db, join(localDir, 'atlas.duckdb'));

    const first = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: 3 }));
    expect(first.enqueue.enqueued).toBe(services.length);
    expect(first.enqueue.jobs).toBe(Math.ceil(services.length / 3));
    // A second enqueue in the same slot (a second cycle, a re-run after a crash) adds nothing.
    const again = await runCliInProcess(['--data', join(w.dir, 'writer'), '--config', w.config, '--now', NOW, 'probe', '--only', 'calls']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(
        `^probe: loaded 0 checks from the queue \\(0 new\\), ${services.length} due, 0 enqueued in 0 jobs \\(lease 600 s\\), ${services.length} already queued or done, run probe_`,
      ),
    );
    const workers = [0, 1, 2].map((i) => startWorker(i, w.config, w.dir));
    const codes = await Promise.all(workers.map((x) => x.exited));
    expect(codes, workers.map((x) => x.lines.slice(-3).join(' | ')).join('\n')).toEqual([0, 0, 0]);
    const claimed = workers.map((x) => x.lines.filter((l) => /job \S+ claimed/.test(l)).length);
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(first.enqueue.jobs); // each job claimed once: no lease ran out

    const load = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: 3 }));
    expect(load.load).toMatchObject({ rows: services.length, inserted: services.length });
    expect(load.enqueue.due).toBe(0); // loaded: nothing is due any more in this slot
    const reload = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: 3 }));
    expect(reload.load.rows).toBe(0); // the watermark moved past every row

    const local = await withDb(join(localDir, 'atlas.duckdb'), (s) =>
      runProbe(makeContext(localDir, { clock, config: w.ctx.config }), s, { only: 'calls' }),
    );
    const evidence = (db: string) =>
      withDb(db, (s) =>
        s.all(
          'SELECT service_id, operation, slot::VARCHAR AS slot, checked_at::VARCHAR AS checked_at, status, passed, reason, rule, url, method, bytes, detail, protocols::VARCHAR AS p, auth_schemes::VARCHAR AS a FROM checks ORDER BY ALL',
        ),
      );
    const terms = (db: string) =>
      withDb(db, (s) => s.all('SELECT * EXCLUDE (observed_at) FROM payment_terms ORDER BY service_id, operation, slot'));
    const runs = (db: string) =>
      withDb(db, (s) =>
        s.all<{ kind: string; status: string; counts: string }>(
          "SELECT kind, status, counts::VARCHAR AS counts FROM runs WHERE kind = 'probe' ORDER BY started_at",
        ),
      );
    expect(await evidence(w.db)).toEqual(await evidence(join(localDir, 'atlas.duckdb')));
    expect(await terms(w.db)).toEqual(await terms(join(localDir, 'atlas.duckdb')));
    const stored = (c: string) => {
      const o = JSON.parse(c) as Record<string, unknown>;
      return {
        due: o.due,
        probed: o.probed,
        stored: o.stored,
        passed: o.passed,
        failed: o.failed,
        by_reason: o.by_reason,
        by_rule: o.by_rule,
        payment_terms: o.payment_terms,
      };
    };
    const queuedRuns = await runs(w.db);
    // The run that enqueued the slot carries a local run's counts once loaded; the later ones found nothing due.
    expect(queuedRuns.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(stored(queuedRuns[0]!.counts)).toEqual(stored((await runs(join(localDir, 'atlas.duckdb')))[0]!.counts));
    expect(local.counts.stored).toBe(services.length);
    expect(await onePerSlot(w.db)).toEqual([{ n: services.length, slots: services.length }]);
    const pg = await jobStates(w.url);
    expect(pg.states).toEqual([{ state: 'completed', n: first.enqueue.jobs, retried: 0 }]);
    expect(pg.checks).toEqual({ n: services.length, distinct_slots: services.length });
  }, 120_000);

  it(`a worker SIGKILLed mid-job (seed ${SEED}): its job is retried after its lease and done by another; none lost or left leased`, async () => {
    const r = mulberry32(SEED);
    const victim = Math.floor(r() * 3);
    const k = 1 + Math.floor(r() * 4); // the victim's k-th request, inside its first job of 4
    const services = holdServices(24);
    const w = await world('kill', services);
    const q = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: 4, leaseSeconds: 2 }));
    expect(q.enqueue.jobs).toBe(6);
    const heldUp = hold.hold(`AtlasQueueTest/worker-${victim}`, k).reached;
    // The victim starts first, so it surely claims a job; the others start once it has.
    const workers: Worker[] = [];
    workers[victim] = startWorker(victim, w.config, w.dir);
    const victimJob = (await workers[victim]!.waitFor(/job \S+ claimed/)).match(/job (\S+) claimed/)![1]!;
    for (const i of [0, 1, 2].filter((x) => x !== victim)) workers[i] = startWorker(i, w.config, w.dir);
    await heldUp;
    workers[victim]!.child.kill('SIGKILL');
    expect(await workers[victim]!.exited).toBe(null);
    hold.release();
    const others = [0, 1, 2].filter((x) => x !== victim);
    // SIGTERM to a seeded one of the others: it finishes what it holds and exits 0.
    const stopped = others[Math.floor(r() * 2)]!;
    await workers[stopped]!.waitFor(/taking probe jobs/);
    workers[stopped]!.child.kill('SIGTERM');
    const codes = await Promise.all(others.map((i) => workers[i]!.exited));
    expect(codes).toEqual([0, 0]);
    const retriedBy = others.filter((i) => workers[i]!.lines.some((l) => l.includes(`job ${victimJob} completed`)));
    expect(retriedBy).toHaveLength(1);
    expect(workers[stopped]!.lines.some((l) => /stopping after the current job/.test(l))).toBe(true);

    const load = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: 4 }));
    const pg = await jobStates(w.url);
    const slots = await onePerSlot(w.db);
    console.log(
      `probe queue chaos: seed ${SEED}, killed worker ${victim} at request ${k} of job ${victimJob}, SIGTERM to worker ${stopped}; jobs ${JSON.stringify(pg.states)}; written back ${pg.checks.n} (distinct slots ${pg.checks.distinct_slots}); loaded ${load.load.inserted}; DuckDB checks ${slots[0]!.n} in ${slots[0]!.slots} slots of ${services.length} due`,
    );
    expect(pg.states).toEqual([{ state: 'completed', n: 6, retried: 1 }]);
    expect(pg.checks).toEqual({ n: 24, distinct_slots: 24 });
    expect(load.load.inserted).toBe(24);
    expect(slots).toEqual([{ n: 24, slots: 24 }]);
  }, 120_000);

  it('PostgreSQL stopped mid-run: a worker write and the writer fail cleanly, both recover after the restart', async () => {
    const services = holdServices(12);
    const w = await world('restart', services, 30_000); // the held request must outlast the stop
    const q = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: 4, leaseSeconds: 2 }));
    expect(q.enqueue.jobs).toBe(3);
    // Whichever worker sends the first request is held there (mid-job) while PostgreSQL stops.
    const heldUp = hold.hold('*', 1).reached;
    const workers = [0, 1, 2].map((i) => startWorker(i, w.config, w.dir));
    const heldAgent = await heldUp;
    await server.stop();
    hold.release(); // the held worker finishes probing with PostgreSQL down: its write-back fails
    const heldWorker = workers.find((x) => x.ua === heldAgent)!;
    await heldWorker.waitFor(/not written back; it is retried after its lease/);
    await Promise.all(workers.map((x) => x.waitFor(/is unreachable/)));
    // The writer during the outage: one clean storage_unavailable, exit 2.
    const down = await runCliInProcess(['--data', join(w.dir, 'writer'), '--config', w.config, '--now', NOW, 'probe', '--only', 'calls']);
    expect(down.code).toBe(2);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    expect(down.stderr).toMatch(/unreachable/);
    await server.start();
    const codes = await Promise.all(workers.map((x) => x.exited));
    expect(codes).toEqual([0, 0, 0]);
    expect(workers.some((x) => x.lines.some((l) => /reachable again/.test(l)))).toBe(true);
    const load = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: 4 }));
    const pg = await jobStates(w.url);
    expect(pg.states.map((s) => [s.state, s.n])).toEqual([['completed', 3]]);
    expect(pg.checks).toEqual({ n: 12, distinct_slots: 12 });
    expect(load.load.inserted).toBe(12);
    expect(await onePerSlot(w.db)).toEqual([{ n: 12, slots: 12 }]);
  }, 120_000);
});
