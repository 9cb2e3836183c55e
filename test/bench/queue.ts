import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateCluster, openCluster } from '../../pipeline/cluster/index.ts';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { migrateQueue, PROBE_QUEUE } from '../../pipeline/probe/queue/index.ts';
import { startTestPostgres } from '../helpers/postgres.ts';
import { seed } from './cycle.ts';
import { arg, startFleetChild } from './probe.ts';

/**
 * `npm run bench -- queue [--size N] [--ticks N] [--workers N] [--concurrency N] [--timeout-ms N] [--spread MIN] [--seed N] [--start ISO]`
 *
 * The probe queue against a local run over one simulated day: N services (default 20,000) with the
 * cycle bench's schedule mix and seeded history (cycle.ts `seed`), served by the fleet in its own
 * process (latency 5–60 ms, nothing hanging), ticked every five simulated minutes (default 288
 * ticks). Each tick, interleaved so load drift on a shared machine hits both sides:
 * - local: `runProbe` over the calls due, in a process of its own (queue-child.ts `local`);
 * - queue: the writer's probe step (queue-child.ts `writer`: load what came back, enqueue what is
 *   due) and then the wait until `--workers` real `atlas probe --worker` processes have completed
 *   every job; the writer loads those checks at the next tick (a last load after the day).
 * PostgreSQL is a test server of its own (test/helpers/postgres.ts). Prints checks/s on each side,
 * the queue's overhead per check as a ratio of wall time (writer step + drain, over local probing)
 * and of CPU (writer + workers, over the local prober), the writer's load time per tick, each
 * process's peak RSS, and PostgreSQL's disk for the day (pg_total_relation_size of the queue's tables).
 */
const SECRET = 'bench-secret-0123456789';

interface Reply {
  ms: number;
  probed?: number;
  enqueued?: number;
  jobs?: number;
  loaded?: number;
  loadMs?: number;
  error?: string;
}

function side(role: 'local' | 'writer', dir: string, args: string[]) {
  const child = fork(fileURLToPath(new URL('./queue-child.ts', import.meta.url)), [role, dir, ...args], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${role} child exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (m) => {
        child.off('exit', onExit);
        resolve(m as T);
      });
    });
  const ready = next<{ ready: boolean }>();
  return {
    ready,
    async tick(msg: { at?: string; loadOnly?: boolean }): Promise<Reply> {
      const r = next<Reply>();
      child.send(msg);
      const out = await r;
      if (out.error) throw new Error(`${role}: ${out.error}`);
      return out;
    },
    async close(): Promise<{ maxRssBytes: number; cpuMs: number }> {
      const r = next<{ maxRssBytes: number; cpuMs: number }>();
      child.send('close');
      return r;
    },
  };
}

function startWorkerProcess(
  i: number,
  config: string,
  dir: string,
): { child: ChildProcess; ready: Promise<void>; done: Promise<Record<string, number>> } {
  const data = join(dir, `worker-${i}`);
  mkdirSync(data, { recursive: true });
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(PROJECT_ROOT, 'cli', 'main.ts'),
      '--json',
      '--data',
      data,
      '--config',
      config,
      'probe',
      '--worker',
      '--poll-ms',
      '100',
    ],
    { cwd: PROJECT_ROOT, env: { ...process.env, ATLAS_SECRET: SECRET }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let last = '';
  let buf = '';
  let isReady!: () => void;
  const ready = new Promise<void>((r) => (isReady = r));
  child.stderr!.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const l of lines) {
      if (l.includes('worker: done')) last = l;
      if (l.includes('taking probe jobs')) isReady();
    }
  });
  const done = new Promise<Record<string, number>>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 && last ? resolve(JSON.parse(last) as Record<string, number>) : reject(new Error(`worker ${i} exited ${code}`)),
    ),
  );
  return { child, ready, done };
}

const mb = (b: number) => (b / 2 ** 20).toFixed(0);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(s.length * p) - 1))] ?? 0;
};

export async function run(args: string[]): Promise<void> {
  const size = arg(args, '--size', 20_000);
  const ticks = arg(args, '--ticks', 288);
  const nWorkers = arg(args, '--workers', 4);
  const concurrency = arg(args, '--concurrency', 256);
  const timeoutMs = arg(args, '--timeout-ms', 2000);
  const spread = arg(args, '--spread', 5);
  const seedN = arg(args, '--seed', 11);
  const si = args.indexOf('--start');
  const start = new Date(si >= 0 ? args[si + 1]! : '2026-11-27T00:00:00Z');
  const dir = mkdtempSync(join(tmpdir(), 'atlas-bench-queue-'));
  const fleet = await startFleetChild(size, seedN, { minMs: 5, maxMs: 60, hangShare: 0, slowMs: 2000 });
  const pg = await startTestPostgres();
  const workers: Array<ReturnType<typeof startWorkerProcess>> = [];
  try {
    const url = await pg.database();
    const cluster = openCluster(url, { applicationName: 'atlas bench' });
    await migrateCluster(cluster);
    await migrateQueue(cluster);
    const localDir = join(dir, 'local');
    const queueDir = join(dir, 'queue');
    const t0 = performance.now();
    for (const d of [localDir, queueDir]) {
      mkdirSync(d, { recursive: true });
      await seed(d, fleet.endpoints, start, spread);
    }
    const config = join(dir, 'atlas.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        probe: { allowPrivate: true, resolve: { '*.fleet.test': '127.0.0.1' }, concurrency, timeoutMs, spreadMinutes: spread },
        cluster: { postgres: url },
      }),
    );
    const childArgs = [String(concurrency), String(timeoutMs), String(spread)];
    const local = side('local', localDir, childArgs);
    const writer = side('writer', queueDir, [...childArgs, url]);
    await Promise.all([local.ready, writer.ready]);
    for (let i = 0; i < nWorkers; i++) workers.push(startWorkerProcess(i, config, dir));
    await Promise.all(workers.map((w) => w.ready));
    process.stdout.write(
      `queue: ${size} services (cycle bench mix: 5% hourly, 35% daily, 60% weekly), fleet latency 5–60 ms, concurrency ${concurrency}, timeout ${timeoutMs} ms, ` +
        `spread ${spread} min, ${ticks} five-minute ticks from ${start.toISOString()}, ${nWorkers} workers; seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s; node ${process.version}\n`,
    );
    const openJobs = async () =>
      (
        await cluster.query<{ n: number }>(
          "SELECT count(*)::integer AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')",
          [PROBE_QUEUE],
        )
      ).rows[0]!.n;
    let localMs = 0;
    let localChecks = 0;
    let queueMs = 0;
    let enqueued = 0;
    let loaded = 0;
    let jobs = 0;
    const loadMs: number[] = [];
    for (let i = 0; i < ticks; i++) {
      const at = new Date(start.getTime() + i * 5 * 60_000).toISOString();
      const l = await local.tick({ at });
      localMs += l.ms;
      localChecks += l.probed ?? 0;
      const tq = performance.now();
      const w = await writer.tick({ at });
      while ((await openJobs()) > 0) await new Promise((r) => setTimeout(r, 20)); // the bench may poll; tests may not
      queueMs += performance.now() - tq;
      enqueued += w.enqueued ?? 0;
      jobs += w.jobs ?? 0;
      loaded += w.loaded ?? 0;
      loadMs.push(w.loadMs ?? 0);
      if (i % 24 === 0 || i === ticks - 1)
        process.stdout.write(
          `  ${at.slice(11, 16)} local ${l.probed} checks ${(l.ms / 1000).toFixed(2)} s; queue ${w.enqueued} enqueued in ${w.jobs} jobs, loaded ${w.loaded} in ${((w.loadMs ?? 0) / 1000).toFixed(2)} s, drained ${((performance.now() - tq) / 1000).toFixed(2)} s; load ${os.loadavg()[0]!.toFixed(1)}\n`,
        );
    }
    const tl = performance.now();
    const last = await writer.tick({ loadOnly: true });
    queueMs += performance.now() - tl;
    loaded += last.loaded ?? 0;
    loadMs.push(last.loadMs ?? 0);
    const disk = await cluster.query<{ rel: string; bytes: string }>(
      // pgboss.job is partitioned by queue: its size is its partitions' (the parent itself holds nothing);
      // pg_partition_tree has no rows for a plain table.
      `SELECT rel, COALESCE((SELECT sum(pg_total_relation_size(t.relid)) FROM pg_partition_tree(rel::regclass) t),
                            pg_total_relation_size(rel::regclass))::text AS bytes
       FROM unnest(ARRAY['atlas.probe_checks', 'atlas.probe_queued', 'pgboss.job', 'pgboss.archive']) AS rel`,
    );
    const rows = (await cluster.query<{ n: number }>('SELECT count(*)::integer AS n FROM atlas.probe_checks')).rows[0]!.n;
    await cluster.close();
    const [lr, wr] = await Promise.all([local.close(), writer.close()]);
    for (const w of workers) w.child.kill('SIGTERM');
    const wstats = await Promise.all(workers.map((w) => w.done));
    const workerCpu = wstats.reduce((a, s) => a + (s.cpu_ms ?? 0), 0);
    const totalDisk = disk.rows.reduce((a, r) => a + Number(r.bytes), 0);
    const out = [
      `checks: local ${localChecks}; queue ${enqueued} enqueued in ${jobs} jobs, ${loaded} loaded into DuckDB (${rows} rows written back)`,
      `checks/s (wall, probing only): local ${(localChecks / (localMs / 1000)).toFixed(1)}; queue ${(loaded / (queueMs / 1000)).toFixed(1)} (writer step + wait for the workers)`,
      `queue overhead per check: wall ${(queueMs / loaded / (localMs / localChecks)).toFixed(2)}x the local run's; CPU ${((wr.cpuMs + workerCpu) / loaded / (lr.cpuMs / localChecks)).toFixed(2)}x (writer ${wr.cpuMs.toFixed(0)} ms + workers ${workerCpu} ms vs local ${lr.cpuMs.toFixed(0)} ms)`,
      `writer load per tick: median ${(pct(loadMs, 0.5) / 1000).toFixed(3)} s, p95 ${(pct(loadMs, 0.95) / 1000).toFixed(3)} s, max ${(Math.max(...loadMs) / 1000).toFixed(3)} s`,
      `peak RSS: local prober ${mb(lr.maxRssBytes)} MB; writer ${mb(wr.maxRssBytes)} MB; workers ${wstats.map((s) => `${mb(s.max_rss_bytes ?? 0)} MB`).join(', ')}`,
      `PostgreSQL disk for the day: ${mb(totalDisk)} MB (${disk.rows.map((r) => `${r.rel} ${mb(Number(r.bytes))} MB`).join(', ')}), ${(totalDisk / Math.max(1, rows)).toFixed(0)} bytes per check`,
      `load average at the end ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    await fleet.close();
    await pg.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
