import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { parseShard } from '../../pipeline/probe/shard.ts';
import { runProbeToBatch } from '../../pipeline/probe/batches/run.ts';
import { limitHeapGrowth } from '../../pipeline/core/heap-growth.ts';
import { tuneStoreForSweep } from '../../pipeline/probe/process-memory.ts';
import { runProbeJobs } from '../../pipeline/probe/run-jobs.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action, parseIntOption } from './util.ts';
import type { Context } from '../../pipeline/core/context.ts';
import { openCluster } from '../../pipeline/cluster/index.ts';
import {
  DEFAULT_LEASE_SECONDS,
  DEFAULT_MAINTENANCE_SECONDS,
  JOB_SIZE,
  type QueuedProbeSummary,
  runQueuedProbe,
  runWorker,
} from '../../pipeline/probe/queue/index.ts';

interface ProbeCliOptions {
  all?: boolean;
  concurrency?: number;
  timeoutMs?: number;
  allowPrivate?: boolean;
  shard?: string;
  only?: string;
  out?: string;
  worker?: boolean;
  untilEmpty?: boolean;
  maintenanceSeconds?: number;
  pollMs?: number;
  leaseSeconds?: number;
  jobSize?: number;
}

const ONLY = ['calls', 'documentation', 'all'] as const;

/**
 * `atlas probe`: run every check that is due, as one run per probe job (calls: kind `probe`,
 * documentation pages: kind `docs`; `--only` picks one). Migrates the database first. With `--out DIR` it is a
 * worker (docs/notes/sharding.md): the database is only read (never migrated or written) and the
 * checks go to one batch file in DIR for `atlas ingest checks DIR`. With cluster.postgres set
 * (docs/notes/cluster.md), the calls go through the probe queue: on the writer `atlas probe` loads
 * what workers wrote back and enqueues what is due (documentation pages stay local), and
 * `atlas probe --worker` on any machine claims jobs and writes their checks back.
 */
export function register(program: Command): void {
  program
    .command('probe')
    .description('run every scheduled check that is due and record each result (one row per slot)')
    .option('--all', 'probe every enabled operation now (still one row per slot)')
    .option(
      '--concurrency <n>',
      'requests in flight overall (default config probe.concurrency, 64)',
      parseIntOption('--concurrency', 1, 1024),
    )
    .option(
      '--timeout-ms <n>',
      'deadline per check for connect, headers and body (default 10000)',
      parseIntOption('--timeout-ms', 100, 120_000),
    )
    .option('--allow-private', 'lift the private-address guard (tests, demo)')
    .option('--shard <i/n>', 'probe only services whose id hashes to shard i of n (0 <= i < n)')
    .option('--only <kind>', 'calls | documentation | all (default all)')
    .option('--out <dir>', 'worker mode: read the database read-only, write the checks as one batch file into <dir>')
    .option('--worker', 'probe queue worker (needs cluster.postgres): claim jobs, probe them, write the checks back')
    .option('--until-empty', 'with --worker: exit once no job is queued or held by another worker')
    .option(
      '--maintenance-seconds <n>',
      `with --worker: how often to look for expired leases (default ${DEFAULT_MAINTENANCE_SECONDS})`,
      parseIntOption('--maintenance-seconds', 1, 3600),
    )
    .option('--poll-ms <n>', 'with --worker: wait between looks at an empty queue (default 1000)', parseIntOption('--poll-ms', 50, 60_000))
    .option(
      '--lease-seconds <n>',
      `on the writer with cluster.postgres: the lease of each job it enqueues (default ${DEFAULT_LEASE_SECONDS})`,
      parseIntOption('--lease-seconds', 1, 86_400),
    )
    .option(
      '--job-size <n>',
      `on the writer with cluster.postgres: checks per job (default ${JOB_SIZE})`,
      parseIntOption('--job-size', 1, JOB_SIZE),
    )
    .action(
      action(async (ctx, o: ProbeCliOptions) => {
        if (o.worker) return probeWorker(ctx, o);
        const shard = o.shard !== undefined ? parseShard(o.shard) : undefined;
        if (o.only !== undefined && !(ONLY as readonly string[]).includes(o.only)) {
          throw new AtlasError('bad_usage', `--only must be one of ${ONLY.join(', ')} (got ${JSON.stringify(o.only)})`);
        }
        const probeOpts = {
          all: !!o.all,
          concurrency: o.concurrency,
          timeoutMs: o.timeoutMs,
          allowPrivate: o.allowPrivate ? true : undefined,
          shard,
          only: o.only as (typeof ONLY)[number] | undefined,
          tty: !!process.stderr.isTTY && !ctx.log.json,
        };
        const out = o.out;
        // This process does one sweep: keep its heap and DuckDB's allocator lean (process-memory.ts).
        limitHeapGrowth();
        // A run over calls and documentation is one run per probe job (PROBE_JOBS), each under its own
        // kind; a worker writes one batch file of one run.
        const queued = out === undefined && ctx.config.cluster.postgres !== undefined && probeOpts.only !== 'documentation';
        if (queued && shard !== undefined)
          throw new AtlasError('bad_usage', '--shard needs --out when cluster.postgres is set (the queue spreads the work itself)');
        if (queued) {
          const q = await withStore(ctx.paths.db, async (store) => {
            await migrate(store, ctx.clock());
            return runQueuedProbe(ctx, store, { ...probeOpts, leaseSeconds: o.leaseSeconds, jobSize: o.jobSize });
          });
          logQueued(ctx, q);
          if (probeOpts.only !== undefined && probeOpts.only !== 'all') return;
        }
        const local = queued ? { ...probeOpts, only: 'documentation' as const } : probeOpts;
        const summaries =
          out !== undefined
            ? [
                await withStore(
                  ctx.paths.db,
                  async (store) => {
                    await tuneStoreForSweep(store);
                    return runProbeToBatch(ctx, store, { ...probeOpts, out });
                  },
                  { readOnly: true },
                ),
              ]
            : await withStore(ctx.paths.db, async (store) => {
                await migrate(store, ctx.clock());
                await tuneStoreForSweep(store);
                return runProbeJobs(ctx, store, local);
              });
        for (const summary of summaries) {
          const c = summary.counts;
          const reasons = Object.entries(c.by_reason)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ');
          ctx.log.info(
            ctx.log.json
              ? `${summary.kind} finished`
              : `${summary.kind}: ${c.probed}/${c.due} due checked, ${c.stored} stored (${c.passed} passed, ${c.failed} failed${reasons ? `: ${reasons}` : ''}), ${c.payment_terms} payment terms, ${(summary.durationMs / 1000).toFixed(1)} s, ${summary.checksPerSecond.toFixed(1)}/s, run ${summary.runId}${'file' in summary ? `, batch ${summary.file}` : ''}`,
            ctx.log.json
              ? {
                  run: summary.runId,
                  kind: summary.kind,
                  status: summary.status,
                  ...c,
                  duration_ms: Math.round(summary.durationMs),
                  ...('file' in summary ? { batch: summary.file } : {}),
                }
              : undefined,
          );
        }
      }),
    );
}

/** `atlas probe --worker`: SIGTERM (or SIGINT) finishes the current job, then exits 0. */
async function probeWorker(ctx: Context, o: ProbeCliOptions): Promise<void> {
  const url = ctx.config.cluster.postgres;
  if (url === undefined) throw new AtlasError('bad_usage', '--worker needs cluster.postgres in atlas.config.json (or ATLAS_POSTGRES_URL)');
  if (o.out !== undefined || o.shard !== undefined)
    throw new AtlasError('bad_usage', '--worker takes its work from the queue: no --out or --shard');
  const stop = new AbortController();
  const onSignal = () => {
    ctx.log.info('worker: stopping after the current job');
    stop.abort();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const cluster = openCluster(url, { max: 3, applicationName: 'atlas worker' });
  try {
    ctx.log.info(`worker: taking probe jobs from PostgreSQL at ${cluster.where}`);
    const s = await runWorker(ctx, cluster, {
      untilEmpty: !!o.untilEmpty,
      maintenanceSeconds: o.maintenanceSeconds,
      pollMs: o.pollMs,
      stop: stop.signal,
      probe: { concurrency: o.concurrency, timeoutMs: o.timeoutMs, allowPrivate: o.allowPrivate ? true : undefined },
    });
    const usage = process.resourceUsage();
    ctx.log.info(`worker: done, ${s.jobs} jobs, ${s.checks} checks (${s.written} new), ${s.abandoned} left to their lease`, {
      ...s,
      max_rss_bytes: usage.maxRSS * 1024,
      cpu_ms: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000),
    });
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    await cluster.close();
  }
}

function logQueued(ctx: Context, q: QueuedProbeSummary): void {
  const e = q.enqueue;
  ctx.log.info(
    `probe: loaded ${q.load.rows} checks from the queue (${q.load.inserted} new), ${e.due} due, ${e.enqueued} enqueued in ${e.jobs} jobs (lease ${q.leaseSeconds} s), ${e.held} already queued or done, run ${q.runId}`,
    { run: q.runId, kind: q.kind, load: q.load, enqueue: q.enqueue },
  );
}
