import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../pipeline/core/context.ts';
import type { Logger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { loadSecret } from '../../pipeline/core/secret.ts';
import {
  backfill,
  backfillTimes,
  demoOutage,
  createSimClock,
  demoConfig,
  demoTimeline,
  formatSummary,
  historyStart,
  readSummaryCounts,
  startLiveCycles,
  writeDemoListings,
  type DemoSummary,
  type LiveCycler,
} from './index.ts';
import { startFleetProcess, type Fleet, type FleetProcess } from '../../pipeline/fleet/index.ts';
import { migrate, openStore, refreshSnapshot, withRun } from '../../pipeline/store/index.ts';
import { BACKFILL_KIND } from '../../site/contract/run-windows.ts';
import { publish } from '../../pipeline/publish/index.ts';
import { startServer, type RunningServer } from '../../serve/server.ts';

// The demo's start-up wires the batch side (the fleet, back-filled cycles, publish) to the server,
// so it lives in cli/, the only layer that may import both (docs/CONTRACTS.md, "Layers"). Its
// parts that need no server stay in cli/demo/.

export interface DemoOptions {
  /** The runtime data folder (--data); the demo lives in `<data>/demo/`, recreated on every start. */
  dataDir: string;
  days: number;
  port: number;
  host: string;
  /** Fleet endpoints (x402 + MCP). */
  size: number;
  seed: number;
  probeTimeoutMs: number;
  probeConcurrency: number;
  /** History older than `recentHours` is simulated every `coarseHours`; the last `recentHours` hour by hour. */
  coarseHours: number;
  recentHours: number;
  /** Hours of the one simulated Atlas outage (no cycle runs; see demoOutage); 0 for none. Default 3. */
  outageHours?: number;
  log: Logger;
  /** End of the simulated history (default: the wall clock at start; tests pass a time). */
  now?: Date;
  /** The real clock the demo follows once live (default Date.now; tests pass one that starts at `now`). */
  realNow?: () => number;
  /** Live cycle period (default one hour); `false` for no live cycles (tests). */
  liveEveryMs?: number | false;
  onProgress?: (line: string) => void;
  /** Abort the start-up (Ctrl-C while back-filling): everything started is stopped, then it rejects. */
  signal?: AbortSignal;
}

export interface DemoHandle {
  url: string;
  summary: DemoSummary;
  /** The lines to print (URLs and figures). */
  summaryText: string;
  fleet: Fleet;
  ctx: Context;
  stop(): Promise<void>;
}

export const DEMO_DEFAULTS = {
  days: 14,
  port: 8787,
  host: '127.0.0.1',
  size: 250,
  seed: 7,
  probeTimeoutMs: 1500,
  probeConcurrency: 128,
  coarseHours: 1,
  recentHours: 24,
  outageHours: 3,
} as const;

/**
 * `atlas demo`: the simulated ecosystem on loopback (the fleet), a fresh data folder under
 * `<data>/demo/`, history back-filled by real cycles at simulated times (real HTTP probes, simulated
 * timestamps; the fleet follows the same clock), one publish, then the API, /mcp and the pages on
 * `port`, with a cycle every hour in real time. Everything started here is stopped by `stop()`,
 * also when start-up fails half-way.
 */
export async function startDemo(opts: DemoOptions): Promise<DemoHandle> {
  const t0 = performance.now();
  const dir = join(opts.dataDir, 'demo');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const paths = { ...resolvePaths(dir), listings: join(dir, 'listings') };

  const end = opts.now ?? new Date((opts.realNow ?? Date.now)());
  const start = historyStart(end, opts.days);
  const clock = createSimClock(start, opts.realNow);
  const progress = opts.onProgress ?? (() => undefined);
  // Wall time of each start-up phase (printed with the summary).
  const phases: Record<string, number> = {};
  let mark = t0;
  const lap = () => {
    const now = performance.now();
    const ms = Math.round(now - mark);
    mark = now;
    return ms;
  };

  let fleet: FleetProcess | null = null;
  let server: RunningServer | null = null;
  let live: LiveCycler | null = null;
  const stopAll = async () => {
    await live?.stop().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await fleet?.close().catch(() => undefined);
  };

  try {
    // The fleet runs in a child process, so its half of every request (parsing, building payment
    // requests, answering) uses the machine's other core instead of the prober's event loop. Its
    // clock is fixed and moved to the simulated time before each cycle (syncClock), and to real time
    // before each live cycle.
    fleet = await startFleetProcess({
      childClock: 'fixed',
      clock,
      size: opts.size,
      seed: opts.seed,
      epoch: start,
      timeline: demoTimeline(start, opts.days),
      latency: { minMs: 2, maxMs: 60, hangShare: 0.01 },
      slowMs: Math.max(2000, opts.probeTimeoutMs * 2),
      // The evidence of rule declared-terms/1 and of signed offers (docs/notes/declared-terms.md,
      // docs/notes/signed-offers.md) shows in the demo too: the first catalog lists other terms for a
      // few sellers, and a few sellers sign their offers.
      registryQuirks: { declaredTerms: true },
      signedOffers: true,
    });
    writeDemoListings(fleet, paths.listings, start);
    const config = demoConfig(fleet, {
      port: opts.port,
      host: opts.host,
      probeTimeoutMs: opts.probeTimeoutMs,
      probeConcurrency: opts.probeConcurrency,
    });
    const ctx: Context = { clock, paths, config, log: opts.log, secret: loadSecret(paths.secret, {}) };
    const f = fleet;

    const outageHours = opts.outageHours ?? DEMO_DEFAULTS.outageHours;
    const outage = outageHours > 0 ? demoOutage(end, opts.days, outageHours) : undefined;
    const times = backfillTimes(end, {
      days: opts.days,
      coarseHours: opts.coarseHours,
      recentHours: opts.recentHours,
      ...(outage ? { outage } : {}),
    });
    progress(
      `demo: fleet of ${fleet.endpoints.length} endpoints on 127.0.0.1:${fleet.port}; back-filling ${opts.days} days in ${times.length} cycles…`,
    );
    phases.fleet = lap();
    // The back-fill runs on an in-memory database, written to `paths.db` once at the end (below):
    // the same rows, without a WAL write per commit and without a metrics textfile per run (an
    // in-memory store writes none; the live cycles, on the file, write them as `atlas cycle` does).
    const store = await openStore(':memory:');
    let counts: Awaited<ReturnType<typeof readSummaryCounts>>;
    let cycles = 0;
    let outageWindow: { start: Date; end: Date } | null = null;
    let backfillSteps: Record<string, number> = {};
    try {
      await migrate(store, clock());
      let lastDay = '';
      // The back-fill is recorded as a run of its own (BACKFILL_KIND) from the first simulated cycle
      // to the moment the demo goes live, so the status windows leave out the compute and publish
      // slots it did not run at their cadence and the status page says so (site/contract/run-windows.ts).
      const bf = await withRun(
        store,
        BACKFILL_KIND,
        { clock, startedAt: times[0] ?? start, args: { days: opts.days, outage: outage ?? null } },
        async (run) => {
          const r = await backfill(ctx, store, clock, times, {
            probeTimeoutMs: opts.probeTimeoutMs,
            probeConcurrency: opts.probeConcurrency,
            syncFleet: f.syncClock,
            ...(opts.signal ? { signal: opts.signal } : {}),
            computeHourlyFrom: new Date(end.getTime() - opts.recentHours * 3_600_000),
            onCycle: (_i, at, c) => {
              const day = at.toISOString().slice(0, 10);
              if (day !== lastDay) progress(`demo:   ${day}${c.failures.length ? `  (failed steps: ${c.failures.join('; ')})` : ''}`);
              lastDay = day;
            },
          });
          run.counts = { cycles: r.cycles, checks: r.checks };
          if (r.failures.length) {
            run.status = 'partial';
            run.error = r.failures.join('; ');
          }
          // From here on the demo runs in real time: the back-fill ends now, then publish "now" and serve.
          clock.followReal();
          return r;
        },
      );
      phases.backfill = lap();
      backfillSteps = bf.stepMs;
      if (bf.failures.length) opts.log.warn('demo: some back-fill steps failed', { failures: bf.failures });
      progress(
        `demo: back-fill took ${(bf.ms / 1000).toFixed(1)} s (${Object.entries(bf.stepMs)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
          .join(', ')})`,
      );
      await publish(ctx, store, {});
      counts = await readSummaryCounts(store, clock(), ctx.config.cycle.everyMinutes);
      phases.publish = lap();
      await refreshSnapshot(store, paths.db);
      phases.save = lap();
      outageWindow = outage ?? null;
      cycles = bf.cycles;
    } finally {
      store.close();
    }

    opts.signal?.throwIfAborted();
    server = await startServer(ctx, { port: opts.port, host: opts.host, siteDir: paths.publicDir, replicaId: 'demo' });
    if (opts.liveEveryMs !== false) {
      live = startLiveCycles(ctx, {
        probeTimeoutMs: opts.probeTimeoutMs,
        probeConcurrency: opts.probeConcurrency,
        beforeCycle: f.syncClock,
        ...(opts.liveEveryMs ? { everyMs: opts.liveEveryMs } : {}),
      });
    }
    phases.serve = lap();
    const summary: DemoSummary = {
      ...counts,
      behaviours: new Set(fleet.endpoints.map((e) => e.behaviour)).size,
      fleetEndpoints: fleet.endpoints.length,
      days: opts.days,
      cycles,
      readyMs: Math.round(performance.now() - t0),
      phases,
      backfillSteps,
      outage: outageWindow,
    };
    return {
      url: server.url,
      summary,
      summaryText: formatSummary(summary, server.url, { coarseHours: opts.coarseHours, recentHours: opts.recentHours }),
      fleet: f,
      ctx,
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
