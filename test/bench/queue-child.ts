import { fixedClock } from '../../pipeline/core/clock.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import type { Context } from '../../pipeline/core/context.ts';
import { limitHeapGrowth } from '../../pipeline/core/heap-growth.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { runProbe } from '../../pipeline/probe/index.ts';
import { loadQueuedChecks, runQueuedProbe } from '../../pipeline/probe/queue/index.ts';
import { openCluster } from '../../pipeline/cluster/index.ts';
import { openStore } from '../../pipeline/store/index.ts';

/**
 * One side of the queue bench (queue.ts), in a process of its own so its peak RSS is its own.
 * Args: role (local | writer) dataDir concurrency timeoutMs spreadMinutes [postgresUrl].
 * Per IPC message `{ at }` it runs one five-minute tick at that instant — `local`: the calls due,
 * probed here (runProbe); `writer`: the writer's queued probe step (load what workers wrote back,
 * enqueue what is due; `loadOnly`: the load alone) — and answers `{ ms, probed?, enqueued?, jobs?, loaded?, loadMs? }`. On
 * 'close' it answers `{ maxRssBytes, cpuMs }` and exits.
 */
const [role, dir, concurrency, timeoutMs, spread, url] = process.argv.slice(2) as [string, string, string, string, string, string?];
const cfg = defaultConfig();
cfg.probe.allowPrivate = true;
cfg.probe.resolve = { '*.fleet.test': '127.0.0.1' };
cfg.probe.spreadMinutes = Number(spread);
cfg.registries = [];
if (url) cfg.cluster = { ...cfg.cluster, postgres: url };
limitHeapGrowth();
const store = await openStore(resolvePaths(dir).db);
const probe = { allowPrivate: true, concurrency: Number(concurrency), timeoutMs: Number(timeoutMs) };

process.on('message', (m: { at?: string; loadOnly?: boolean } | 'close') => {
  if (m === 'close') {
    store.close();
    const u = process.resourceUsage();
    process.send!({ maxRssBytes: u.maxRSS * 1024, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }, () => process.exit(0));
    return;
  }
  const ctx: Context = {
    clock: fixedClock(new Date(m.at!)),
    paths: resolvePaths(dir),
    config: cfg,
    log: silentLogger,
    secret: 'bench-secret-0123456789',
  };
  const t0 = performance.now();
  const work = m.loadOnly
    ? loadOnly()
    : role === 'local'
      ? runProbe(ctx, store, { ...probe, only: 'calls' }).then((r) => ({ probed: r.counts.probed }))
      : runQueuedProbe(ctx, store, probe).then((r) => ({
          enqueued: r.enqueue.enqueued,
          jobs: r.enqueue.jobs,
          loaded: r.load.inserted,
          loadMs: r.load.ms,
        }));
  work.then(
    (r) => process.send!({ ms: performance.now() - t0, ...r }),
    (e) => process.send!({ error: (e as Error)?.message ?? String(e) }),
  );
});
/** The last load after the day: what workers wrote back since the last tick. */
async function loadOnly(): Promise<{ loaded: number; loadMs: number }> {
  const cluster = openCluster(url!);
  try {
    const t0 = performance.now();
    const r = await loadQueuedChecks(store, cluster);
    return { loaded: r.inserted, loadMs: performance.now() - t0 };
  } finally {
    await cluster.close();
  }
}

process.send!({ ready: true });
