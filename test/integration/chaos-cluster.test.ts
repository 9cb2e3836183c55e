import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../pipeline/fleet/prng.ts';
import { runQueuedProbe } from '../../pipeline/probe/queue/index.ts';
import { openStore } from '../../pipeline/store/store.ts';
import { chaosSeed, replayable } from '../helpers/chaos-seed.ts';
import { runCliInProcess } from '../helpers/cli.ts';
import { tempDir, testClock } from '../helpers/context.ts';
import { postgresGate, useTestPostgres } from '../helpers/postgres.ts';
import {
  type HoldServer,
  holdServices,
  jobStates,
  onePerSlot,
  reapWorkers,
  startHoldServer,
  startWorker,
  type Worker,
  withDb,
  workerAgent,
  writerWorld,
} from '../helpers/probe-workers.ts';
import {
  BURSTS,
  checkReplicaInvariants,
  replicaClient,
  replicaServeConfig,
  restartStep,
  runBursts,
  startReplicas,
} from './replica-chaos.ts';

/**
 * The whole cluster under chaos (issue 26): ONE PostgreSQL database, three `atlas serve` replicas
 * taking keys, outcome reports and feedback from a seeded client (replica-chaos.ts), and three
 * `atlas probe --worker` processes taking the writer's enqueued probe jobs (2-second leases), all at
 * once. At seeded points:
 * - replicas SIGKILLed mid-burst and started again;
 * - a seeded worker SIGKILLed mid-job (its seeded request is held by the endpoint, so it is provably
 *   inside its first job), a new worker started in its place;
 * - PostgreSQL stopped and started again, while a second seeded worker is mid-job: its request is
 *   answered once PostgreSQL is down, so its write-back fails and its job is left to its lease.
 * Every worker process takes part: the three hold a job each before the bursts begin, and the third
 * one goes on only once the replacement holds one (the kill comes before the outage).
 * Then the writer loads the queue's checks and `atlas ingest inbox` loads the replicas' writes, and
 * every invariant is checked at once: every 201 in DuckDB once, no report twice, no day limit
 * exceeded; every job completed (none lost, failed or left leased), one check per slot in PostgreSQL
 * and in DuckDB. Waits are on events (a held request, a log line, a process exit), never on timers.
 *
 * ATLAS_CHAOS_SEED: see chaosSeed. The seed and every invariant count are printed on one line.
 */
const SEED = chaosSeed();
const NOW = '2026-11-25T12:10:00Z';
const SERVICES = 24;
const JOB_SIZE = 4;

const gate = postgresGate('cluster chaos on PostgreSQL');

describe.skipIf(!gate.present)('cluster chaos: three replicas and three probe workers on one PostgreSQL', () => {
  const pg = useTestPostgres();
  let hold: HoldServer;
  beforeAll(async () => {
    hold = await startHoldServer();
  });
  afterEach(reapWorkers);
  afterAll(async () => {
    await hold?.close();
  });

  it(`kills of replicas and workers and a PostgreSQL restart (seed ${SEED}) break no invariant`, async () => {
    const rnd = mulberry32(SEED);
    const tmp = tempDir('atlas-chaos-cluster-');
    const w = await writerWorld({
      dir: tmp.dir,
      url: await pg.database(),
      services: holdServices(hold.port, SERVICES),
      // One config for the writer, the replicas and the workers; a held request must outlast the run.
      config: { probe: { allowPrivate: true, timeoutMs: 60_000, resolve: { '*.t.test': '127.0.0.1' } }, serve: replicaServeConfig() },
      clock: testClock(NOW),
      init: runCliInProcess,
    });
    const q = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: JOB_SIZE, leaseSeconds: 2 }));
    expect(q.enqueue.jobs).toBe(SERVICES / JOB_SIZE);

    // The plan: which worker is killed (at which request of its first job), which one stalls over
    // the outage, and the bursts at which replicas are killed, the worker is killed, PostgreSQL stops.
    const killed = Math.floor(rnd() * 3);
    const stalled = [0, 1, 2].filter((i) => i !== killed)[Math.floor(rnd() * 2)]!;
    const third = 3 - killed - stalled;
    const killHold = hold.hold(workerAgent(killed), 1 + Math.floor(rnd() * JOB_SIZE));
    const stallHold = hold.hold(workerAgent(stalled), 1 + Math.floor(rnd() * JOB_SIZE));
    // The third worker is held too, until its replacement holds a job: every worker takes part.
    const thirdHold = hold.hold(workerAgent(third), 1 + Math.floor(rnd() * JOB_SIZE));
    const points = new Set<number>();
    while (points.size < 4) points.add(1 + Math.floor(rnd() * (BURSTS - 2)));
    const [replicaKillA, replicaKillB, ...last] = [...points];
    // The worker kill comes before the outage: until then the other two are held, so jobs are left for the replacement.
    const [workerKillAt, outageAt] = last.sort((a, b) => a - b);

    const replicasUp = startReplicas(join(tmp.dir, 'replicas'), w.config, NOW);
    const opts = { config: w.config, dataDir: tmp.dir, now: NOW };
    const workers: Worker[] = [];
    // The workers start one after the other, each once the one before holds a job: each surely gets one.
    for (const i of [killed, stalled, third]) {
      workers[i] = startWorker(i, opts);
      await workers[i]!.waitFor(/job \S+ claimed/);
    }
    const replicas = await replicasUp;
    await Promise.all([killHold.reached, stallHold.reached, thirdHold.reached]);
    const claimed = async (i: number) => (await workers[i]!.waitFor(/job \S+ claimed/)).match(/job (\S+) claimed/)![1]!;
    // Usually two jobs; one when the second worker started after the first one's lease ran out and took its job.
    const [killedJob, stalledJob] = [await claimed(killed), await claimed(stalled)];
    const replacement = [] as Worker[];
    const client = replicaClient(rnd, replicas.servers);

    // The worker killed mid-job: nothing of its job is written; a new worker takes its place and
    // claims a job while the other two are still held; then the third worker goes on.
    const killWorker = async (burst: Promise<void>) => {
      workers[killed]!.child.kill('SIGKILL');
      expect(await workers[killed]!.exited).toBe(null);
      killHold.release();
      replacement.push(startWorker(3, opts));
      await replacement[0]!.waitFor(/job \S+ claimed/);
      thirdHold.release();
      await burst;
    };
    // PostgreSQL down: the stalled worker's request is answered now, so its write-back fails.
    const stallOver = async () => {
      stallHold.release();
      await workers[stalled]!.waitFor(/not written back; it is retried after its lease/);
    };
    const steps = new Map([
      [workerKillAt!, killWorker],
      [outageAt!, restartStep(pg, client, stallOver)],
    ]);
    try {
      await runBursts(rnd, client, replicas, { replicaKills: new Set([replicaKillA!, replicaKillB!]), steps });
    } finally {
      hold.release();
    }
    const running = [...workers.filter((_, i) => i !== killed), ...replacement];
    expect(await Promise.all(running.map((x) => x.exited))).toEqual(running.map(() => 0));
    expect(workers[killed]!.lines.some((l) => l.includes(`job ${killedJob} completed`))).toBe(false);

    const load = await withDb(w.db, (s) => runQueuedProbe(w.ctx, s, { jobSize: JOB_SIZE }));
    const ingest = await runCliInProcess(['--data', w.writerDir, '--config', w.config, '--now', NOW, 'ingest', 'inbox']);
    expect(ingest.code, ingest.stderr).toBe(0);
    try {
      await replayable('chaos cluster', SEED, async () => {
        const jobs = await jobStates(w.url);
        const slots = (await onePerSlot(w.db))[0]!;
        const store = await openStore(w.db, { readOnly: true });
        const replicaCounts = await checkReplicaInvariants(store, client.sent).finally(() => store.close());
        const retried = jobs.states.reduce((n, s) => n + s.retried, 0);
        console.log(
          `chaos cluster: seed ${SEED}: ${replicas.kills} replicas SIGKILLed, worker ${killed} SIGKILLed mid-job ${killedJob} (replaced), ` +
            `worker ${stalled} mid-job ${stalledJob} over the PostgreSQL restart; replicas: ${replicaCounts}; ` +
            `workers: claims per worker ${[...workers, ...replacement].map((x, i) => `${i}:${x.lines.filter((l) => /job \S+ claimed/.test(l)).length}`).join(' ')}, jobs ${jobs.states.map((s) => `${s.state} ${s.n}`).join(', ')} of ${q.enqueue.jobs} (retried ${retried}), ` +
            `checks written back ${jobs.checks.n} in ${jobs.checks.distinct_slots} slots, loaded ${load.load.inserted}, ` +
            `DuckDB checks ${slots.n} in ${slots.slots} slots of ${SERVICES} due`,
        );
        // Every worker process, the replacement too, took at least one job.
        expect([...workers, ...replacement].map((x) => x.lines.some((l) => /job \S+ claimed/.test(l)))).toEqual([true, true, true, true]);
        // No job lost, failed or left leased; the killed and the stalled jobs were retried.
        expect(jobs.states.map((s) => [s.state, s.n])).toEqual([['completed', q.enqueue.jobs]]);
        expect(jobs.retriedIds).toEqual(expect.arrayContaining([killedJob, stalledJob]));
        expect(jobs.checks).toEqual({ n: SERVICES, distinct_slots: SERVICES });
        expect(load.load.inserted).toBe(SERVICES);
        expect(slots).toEqual({ n: SERVICES, slots: SERVICES });
      });
    } finally {
      tmp.cleanup();
    }
  }, 180_000);
});
