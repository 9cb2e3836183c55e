import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openCluster } from '../../pipeline/cluster/index.ts';
import type { Clock } from '../../pipeline/core/clock.ts';
import { parseConfig } from '../../pipeline/core/config.ts';
import type { Context } from '../../pipeline/core/context.ts';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { openStore, type Store } from '../../pipeline/store/index.ts';
import { BEHAVIOURS } from '../pipeline/probe/behaviour-server.ts';
import { type SeedService, seedServices } from '../pipeline/probe/seed.ts';
import type { runCliInProcess } from './cli.ts';
import { makeContext, openTestStore } from './context.ts';

/**
 * The probe-queue side of the cluster tests (worker.test, chaos-cluster): a writer's data folder
 * seeded and `atlas init`ed against a test PostgreSQL, real `atlas probe --worker` child processes,
 * a loopback x402 endpoint that can hold chosen requests (a worker holding one is provably
 * mid-job), and the invariants read from PostgreSQL and DuckDB.
 */
const SECRET = 'test-secret-0123456789abcdef'; // the test context's: workers hash payTo like the writer

/** One held request: `reached` resolves with its agent once it arrives; `release` answers it. */
interface Held {
  reached: Promise<string>;
  release(): void;
}

export interface HoldServer {
  port: number;
  /**
   * Hold the k-th request of agent `ua` ('*': of any agent, counted together), counted from this
   * call, until released. Several holds may be set at once.
   */
  hold(ua: string, k: number): Held;
  /** Answer every held request and drop every hold. */
  release(): void;
  close(): Promise<void>;
}

interface Rule {
  ua: string;
  k: number;
  reached: (ua: string) => void;
  held: Array<{ q: IncomingMessage; r: ServerResponse }>;
  released: boolean;
}

/** A loopback endpoint answering x402 v2 402s, holding the requests `hold` names. */
export async function startHoldServer(): Promise<HoldServer> {
  const seen = new Map<string, number>();
  const rules: Rule[] = [];
  const answer = (q: IncomingMessage, r: ServerResponse) => BEHAVIOURS['x402-v2']!(q, r);
  const srv: Server = createServer((q, r) => {
    const ua = String(q.headers['user-agent'] ?? '').split(' ')[0]!; // the configured agent, without the contact URL
    for (const key of [ua, '*']) seen.set(key, (seen.get(key) ?? 0) + 1);
    const rule = rules.find((x) => !x.released && (x.ua === ua || x.ua === '*') && x.k === seen.get(x.ua));
    if (!rule) return answer(q, r);
    rule.held.push({ q, r });
    rule.reached(ua);
  });
  const release = (rule: Rule) => {
    rule.released = true;
    for (const h of rule.held.splice(0)) answer(h.q, h.r);
  };
  await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res));
  return {
    port: (srv.address() as AddressInfo).port,
    hold(ua, k) {
      seen.delete(ua);
      let rule!: Rule;
      const reached = new Promise<string>((resolve) => {
        rule = { ua, k, reached: resolve, held: [], released: false };
      });
      rules.push(rule);
      return { reached, release: () => release(rule) };
    },
    release() {
      for (const rule of rules.splice(0)) release(rule);
    },
    close: () =>
      new Promise<void>((res) => {
        srv.closeAllConnections();
        srv.close(() => res());
      }),
  };
}

/** `n` services whose one call goes to the hold server (host hold.t.test, resolved to loopback). */
export const holdServices = (port: number, n: number): SeedService[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `cand_h${String(i).padStart(2, '0')}`,
    ops: [{ url: `http://hold.t.test:${port}/s${i}`, rule: 'x402-mainnet/2' as const }],
  }));

export interface Worker {
  child: ChildProcess;
  ua: string;
  lines: string[];
  exited: Promise<number | null>;
  /** The first log line matching `re` (already written or to come); rejects if the worker exits first. */
  waitFor(re: RegExp): Promise<string>;
}

export const workerAgent = (i: number) => `AtlasQueueTest/worker-${i}`;

/** Every worker started by the running test: printed when it fails, killed if still running. */
const started: Worker[] = [];

/** An afterEach hook: print the log of each worker of a failed test, SIGKILL those still running. */
export function reapWorkers(c: { task: { result?: { state?: string } } }): void {
  for (const w of started.splice(0)) {
    if (c.task.result?.state === 'fail') console.log(`${w.ua}:\n  ${w.lines.join('\n  ')}`);
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  }
}

/** `atlas probe --worker --until-empty` as a child process, with its own data folder under `dataDir`. */
export function startWorker(i: number, opts: { config: string; dataDir: string; now: string }): Worker {
  const ua = workerAgent(i);
  const data = join(opts.dataDir, `worker-${i}`);
  mkdirSync(data, { recursive: true });
  const args = ['--data', data, '--config', opts.config, '--now', opts.now, 'probe', '--worker', '--until-empty'];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'cli', 'main.ts'), ...args, '--maintenance-seconds', '1', '--poll-ms', '100'],
    { cwd: PROJECT_ROOT, env: { ...process.env, ATLAS_SECRET: SECRET, ATLAS_USER_AGENT: ua }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const lines: string[] = [];
  const waiters: Array<{ re: RegExp; resolve: (l: string) => void }> = [];
  let buf = '';
  child.stderr!.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    let nl = buf.indexOf('\n');
    while (nl >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      lines.push(line);
      for (const w of waiters.splice(0)) {
        if (w.re.test(line)) w.resolve(line);
        else waiters.push(w);
      }
      nl = buf.indexOf('\n');
    }
  });
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const w: Worker = {
    child,
    ua,
    lines,
    exited,
    waitFor: (re) => {
      const hit = lines.find((l) => re.test(l));
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        waiters.push({ re, resolve });
        void exited.then(() => reject(new Error(`worker ${i} exited before ${re}: ${lines.slice(-5).join(' | ')}`)));
      });
    },
  };
  started.push(w);
  return w;
}

export interface WriterWorld {
  url: string;
  config: string;
  writerDir: string;
  db: string;
  ctx: Context;
}

/**
 * The writer's data folder `<dir>/writer` seeded with `services`, `<dir>/atlas.config.json` holding
 * `config` plus cluster.postgres = url, and `atlas init` run through `init` (a real process or in
 * this process): PostgreSQL migrated and the probe queue created.
 */
export async function writerWorld(opts: {
  dir: string;
  url: string;
  services: SeedService[];
  config: Record<string, unknown>;
  clock: Clock;
  init: typeof runCliInProcess;
}): Promise<WriterWorld> {
  const writerDir = join(opts.dir, 'writer');
  const store = await openTestStore(writerDir);
  try {
    await seedServices(store, opts.services);
  } finally {
    store.close();
  }
  const cfg = { ...opts.config, cluster: { postgres: opts.url } };
  const config = join(opts.dir, 'atlas.config.json');
  writeFileSync(config, JSON.stringify(cfg));
  const init = await opts.init(['--data', writerDir, '--config', config, 'init']);
  expect(init.code, init.stderr).toBe(0);
  expect(init.stderr).toMatch(/migrated PostgreSQL .*020_probe_queue/);
  expect(init.stderr).toMatch(/probe queue: pg-boss schema pgboss created \(version \d+\), queue atlas-probe created/);
  const ctx = makeContext(writerDir, { clock: opts.clock, config: parseConfig(cfg) });
  return { url: opts.url, config, writerDir, db: join(writerDir, 'atlas.duckdb'), ctx };
}

export async function withDb<T>(path: string, fn: (s: Store) => Promise<T>): Promise<T> {
  const s = await openStore(path);
  try {
    return await fn(s);
  } finally {
    s.close();
  }
}

/** The probe jobs by state (with how many were retried, and which) and the checks written back, in PostgreSQL. */
export async function jobStates(url: string) {
  const c = openCluster(url);
  try {
    const r = await c.query<{ state: string; n: number; retried: number }>(
      "SELECT state::text, count(*)::integer AS n, count(*) FILTER (WHERE retry_count > 0)::integer AS retried FROM pgboss.job WHERE name = 'atlas-probe' GROUP BY state ORDER BY state",
    );
    const rows = await c.query<{ n: number; distinct_slots: number }>(
      'SELECT count(*)::integer AS n, count(DISTINCT (service_id, operation, slot))::integer AS distinct_slots FROM atlas.probe_checks',
    );
    const again = await c.query<{ id: string }>("SELECT id::text FROM pgboss.job WHERE name = 'atlas-probe' AND retry_count > 0");
    return { states: r.rows, checks: rows.rows[0]!, retriedIds: again.rows.map((x) => x.id) };
  } finally {
    await c.close();
  }
}

/** The checks in the writer's DuckDB and the distinct slots among them. */
export const onePerSlot = (db: string) =>
  withDb(db, (s) =>
    s.all<{ n: number; slots: number }>(
      'SELECT count(*)::INTEGER AS n, count(DISTINCT (service_id, operation, slot))::INTEGER AS slots FROM checks',
    ),
  );
