import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseConfig } from '../../pipeline/core/config.ts';
import { runCycle } from '../../pipeline/cycle/index.ts';
import { openStore, type Store } from '../../pipeline/store/index.ts';
import { startServer } from '../../serve/index.ts';
import { type JobStatus, Status } from '../../site/contract/index.ts';
import { makeContext, tempDir, testClock, type TestClock } from '../helpers/context.ts';

/**
 * A world for the status-under-cron tests: one reviewed service on loopback (an hourly call that
 * answers 402, a daily documentation page that answers 200), its listing, a real DuckDB file, and
 * `atlas cycle` (runCycle, the function the CLI calls) on a simulated clock at a configured cadence.
 */

export const MIN = 60_000;
export const HOUR = 60 * MIN;
/** A Monday; cron fires on the cadence's boundaries and the cycle starts 30 s later. */
export const START = Date.parse('2026-11-16T00:00:30Z');
/**
 * A Wednesday of the same week, for the hourly-cadence test: the epoch-aligned weekly slot boundary
 * (Thursday 00:00) and a daily one fall within its first day and a half of cycles.
 */
export const WEDNESDAY = Date.parse('2026-11-18T00:00:30Z');
export const JOBS = ['probe', 'compute', 'publish', 'docs', 'report'] as const;
export type Job = (typeof JOBS)[number];

/** One reviewed service whose call answers 402 and whose documentation page answers 200. */
export async function startService(): Promise<{ port: number; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/docs')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>Cron service</h1><p>GET /call costs 0.01 USDC.</p></body></html>');
    } else {
      res.writeHead(402, { 'content-type': 'application/json' });
      res.end('{"error":"payment required"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

export function writeListing(dir: string, port: number): void {
  mkdirSync(dir, { recursive: true });
  const base = `http://svc.cron.test:${port}`;
  const source = { source_url: `${base}/docs`, checked_at: '2026-11-10' };
  const listing = {
    id: 'svc_cron',
    name: 'Cron test service',
    type: 'task_marketplace',
    operator: 'Cron test',
    category: 'test',
    operations: [
      { id: 'primary', kind: 'call', primary: true, url: `${base}/call`, method: 'GET', expected_statuses: [402], interval: 'hourly' },
      { id: 'docs', kind: 'documentation', url: `${base}/docs`, method: 'GET', expected_statuses: [200], interval: 'daily' },
    ],
    documentation_urls: [`${base}/docs`],
    sources: { operator: source, endpoint: source, documentation: source },
    approved_at: '2026-11-10T00:00:00Z',
  };
  writeFileSync(join(dir, 'cron.json'), `${JSON.stringify(listing, null, 2)}\n`);
}

export interface CronWorld {
  clock: TestClock;
  store: Store;
  ctx: ReturnType<typeof makeContext>;
  /** One `atlas cycle` at the clock's time. */
  cycle(): Promise<void>;
  /** Cycles at every cadence boundary (+30 s) from the clock's time for `ms`; the clock ends `ms` later. */
  cron(ms: number): Promise<number>;
  close(): Promise<void>;
}

/** The loopback service's listing (file `cron.json`, id svc_cron), its hosts under *.cron.test. */
export const CRON_RESOLVE = { '*.cron.test': '127.0.0.1' };

/**
 * The world at a cycle cadence (default: the config's) whose clock starts at `start` (default START);
 * `extraConfig` adds top-level config sections (e.g. `cluster`).
 */
export async function cronWorld(
  everyMinutes?: number,
  start: number = START,
  extraConfig: Record<string, unknown> = {},
): Promise<CronWorld> {
  const t = tempDir('atlas-status-cron-');
  const svc = await startService();
  const clock = testClock(new Date(start).toISOString());
  // No cadence given: the config's default.
  const config = parseConfig({
    ...(everyMinutes === undefined ? {} : { cycle: { everyMinutes } }),
    probe: { resolve: CRON_RESOLVE, allowPrivate: true },
    ...extraConfig,
  });
  const cadenceMs = config.cycle.everyMinutes * MIN;
  const ctx = makeContext(t.dir, { clock, config });
  ctx.paths.listings = join(t.dir, 'listings');
  writeListing(ctx.paths.listings, svc.port);
  const store = await openStore(ctx.paths.db);
  const cycle = async () => {
    // Pages are not published: the server renders /status itself from the run log.
    const r = await runCycle(ctx, store, {
      skipRegistries: true,
      snapshot: false,
      verifySample: 5,
      probe: { timeoutMs: 5_000 },
      publish: { pages: false },
    });
    expect(
      r.steps.filter((s) => s.status === 'failed'),
      clock().toISOString(),
    ).toEqual([]);
  };
  return {
    clock,
    store,
    ctx,
    cycle,
    async cron(ms) {
      const end = clock().getTime() + ms;
      let n = 0;
      while (clock().getTime() < end) {
        await cycle();
        n += 1;
        clock.advance(cadenceMs);
      }
      clock.set(new Date(end));
      return n;
    },
    async close() {
      try {
        store.close();
      } finally {
        await new Promise<void>((resolve) => svc.server.close(() => resolve()));
        t.cleanup();
      }
    },
  };
}

/** GET /api/v1/status and /status from a real server on the world's published tree, at the clock's time. */
export async function served(world: Pick<CronWorld, 'ctx'>): Promise<{ status: Status; page: string }> {
  const server = await startServer(world.ctx, { port: 0, host: '127.0.0.1', watchIntervalMs: 60_000, replicaId: 'test' });
  try {
    const res = await fetch(`${server.url}/api/v1/status`);
    expect(res.status).toBe(200);
    const status = Status.parse(await res.json());
    const page = await fetch(`${server.url}/status`);
    expect(page.status).toBe(200);
    return { status, page: await page.text() };
  } finally {
    await server.close();
  }
}

export const byJob = (s: Status, w: '24h' | '7d' | '30d'): Record<Job, JobStatus['windows']['24h']> =>
  Object.fromEntries(JOBS.map((k) => [k, s.jobs.find((j) => j.kind === k)!.windows[w]])) as Record<Job, JobStatus['windows']['24h']>;

/** The kinds and counts of the runs recorded so far. */
export async function runKinds(store: Store): Promise<Record<string, number>> {
  const rows = await store.all<{ kind: string; n: number }>(
    "SELECT kind, count(*)::INTEGER AS n FROM runs WHERE status IN ('ok', 'partial') GROUP BY kind ORDER BY kind",
  );
  return Object.fromEntries(rows.map((r) => [r.kind, r.n]));
}

/** The status page's row of a job: its cadence label and the 7-day cell. */
export function pageRow(page: string, job: Job): string {
  const m = new RegExp(`<tr><td>${job}</td>(.*?)</tr>`).exec(page);
  expect(m, job).not.toBeNull();
  return m![1]!;
}
