import type { Context } from '../../core/context.ts';
import { AtlasError } from '../../core/errors.ts';
import { openCluster } from '../../cluster/postgres.ts';
import { withRun } from '../../store/runs.ts';
import type { Store } from '../../store/store.ts';
import { selectDue } from '../due.ts';
import { emptyCounts, type ProbeOptions, probeSettings } from '../run-probe.ts';
import { DEFAULT_LEASE_SECONDS, startBoss } from './boss.ts';
import { type EnqueueSummary, enqueueDue } from './enqueue.ts';
import { loadQueuedChecks, type QueueLoadSummary } from './load.ts';

/**
 * The writer's probe step when `cluster.postgres` is set (the cycle, and `atlas probe` on the
 * writer): first load what workers wrote back since the last load (load.ts), then select the calls
 * due now exactly as a local run does (selectDue) and enqueue them (enqueue.ts) under one `probe`
 * run; the checks carry that run's id, and the load gives the run a local run's stored-side counts.
 * Documentation pages are not queued (their bodies feed the writer's documentation store): the
 * `docs` job stays a local run. A PostgreSQL outage fails the step with storage_unavailable; the
 * next cycle loads and enqueues what this one could not.
 */
export interface QueuedProbeSummary {
  runId: string;
  kind: 'probe';
  startedAt: string;
  load: QueueLoadSummary & { ms: number };
  enqueue: EnqueueSummary;
  leaseSeconds: number;
  durationMs: number;
}

export interface QueuedProbeOptions extends Pick<ProbeOptions, 'all' | 'allowPrivate' | 'timeoutMs' | 'concurrency'> {
  leaseSeconds?: number;
  jobSize?: number;
}

export async function runQueuedProbe(ctx: Context, store: Store, opts: QueuedProbeOptions = {}): Promise<QueuedProbeSummary> {
  const url = ctx.config.cluster.postgres;
  if (url === undefined) throw new AtlasError('bad_usage', 'the probe queue needs cluster.postgres (or ATLAS_POSTGRES_URL)');
  const set = probeSettings(ctx, { ...opts, only: 'calls' });
  const leaseSeconds = opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const cluster = openCluster(url, { max: 2, applicationName: 'atlas writer' });
  const t0 = performance.now();
  try {
    const load = { ...(await loadQueuedChecks(store, cluster)), ms: performance.now() - t0 };
    const h = await startBoss(cluster);
    try {
      const startedAt = ctx.clock();
      const args = { ...set.args, queue: true, lease_seconds: leaseSeconds };
      return await withRun(store, set.kind, { clock: ctx.clock, startedAt, scheduledAt: startedAt, args }, async (run) => {
        const counts = emptyCounts();
        run.counts = counts;
        const due = await selectDue(store, startedAt, { all: opts.all, only: 'calls', spreadMinutes: ctx.config.probe.spreadMinutes });
        counts.due = due.length;
        const enqueue = await enqueueDue(cluster, h, run.id, due, { jobSize: opts.jobSize, leaseSeconds });
        run.counts = { ...counts, queue_enqueued: enqueue.enqueued, queue_jobs: enqueue.jobs, queue_held: enqueue.held };
        return {
          runId: run.id,
          kind: set.kind as 'probe',
          startedAt: startedAt.toISOString(),
          load,
          enqueue,
          leaseSeconds,
          durationMs: performance.now() - t0,
        };
      });
    } finally {
      await h.boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
    }
  } finally {
    await cluster.close();
  }
}
