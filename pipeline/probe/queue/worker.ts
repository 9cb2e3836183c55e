import type PgBoss from 'pg-boss';
import type { Context } from '../../core/context.ts';
import { isAtlasError } from '../../core/errors.ts';
import type { Cluster } from '../../cluster/postgres.ts';
import type { Terms } from '../../x402/terms.ts';
import { type CheckRecord, type CheckRow, checkRecord, type TermsRecord, termsRecord } from '../check-writer.ts';
import { type CheckSink, emptyCounts, type ProbeOptions, probeOperations, probeSettings } from '../run-probe.ts';
import { type BossHandle, DEFAULT_MAINTENANCE_SECONDS, executor, PROBE_QUEUE, startBoss } from './boss.ts';
import { dueOperationsOf } from './payload.ts';

/**
 * `atlas probe --worker`: claim a job (pg-boss fetch: the job is `active`, leased for its
 * expireInSeconds), probe its operations with the engine a local run uses (probeOperations: same
 * pass rules, address guard, timeouts and per-host limits), then in ONE transaction write its checks
 * back (atlas.probe_checks; a slot already there is skipped) and complete the job. One job at a time.
 *
 * - Killed mid-job: nothing was written; the lease expires (some worker's maintenance pass, every
 *   `maintenanceSeconds`), the job is retried by any worker, and the unique slot keeps one result.
 * - PostgreSQL unreachable: the worker logs it once, waits `pollMs` and tries again (a job whose
 *   write failed is left to its lease); it never exits for an outage.
 * - `stop` aborted (SIGTERM): the current job is finished and written, then the worker returns.
 * - `untilEmpty`: return once no job is queued, waiting for retry or held by another worker (a
 *   leased job may still come back after its lease).
 */
export interface WorkerOptions {
  untilEmpty?: boolean;
  maintenanceSeconds?: number;
  pollMs?: number;
  stop?: AbortSignal;
  probe?: ProbeOptions;
}

export interface WorkerSummary {
  jobs: number;
  checks: number;
  written: number;
  /** Jobs whose write-back failed (left to their lease) or that failed otherwise. */
  abandoned: number;
}

export async function runWorker(ctx: Context, cluster: Cluster, opts: WorkerOptions = {}): Promise<WorkerSummary> {
  const pollMs = opts.pollMs ?? 1000;
  const s: WorkerSummary = { jobs: 0, checks: 0, written: 0, abandoned: 0 };
  let outage = false;
  const unavailable = (e: unknown): boolean => {
    if (!isAtlasError(e) || e.code !== 'storage_unavailable') return false;
    if (!outage) ctx.log.warn(`worker: ${e.message}; trying again every ${pollMs} ms`);
    outage = true;
    return true;
  };
  let h: BossHandle | null = null;
  while (!h) {
    try {
      h = await startBoss(cluster, { maintenanceSeconds: opts.maintenanceSeconds ?? DEFAULT_MAINTENANCE_SECONDS });
    } catch (e) {
      if (!unavailable(e)) throw e;
      await pause(pollMs, opts.stop);
      if (opts.stop?.aborted) return s;
    }
  }
  try {
    while (!opts.stop?.aborted) {
      let job: PgBoss.Job<unknown> | null;
      try {
        job = await fetchOne(h);
        if (!job && opts.untilEmpty && !(await openJobs(cluster))) break;
      } catch (e) {
        if (!unavailable(e)) throw e;
        await pause(pollMs, opts.stop);
        continue;
      }
      if (outage) ctx.log.info(`worker: PostgreSQL at ${cluster.where} is reachable again`);
      outage = false;
      if (!job) {
        await pause(pollMs, opts.stop);
        continue;
      }
      try {
        const r = await runJob(ctx, cluster, h, job, opts.probe ?? {});
        s.jobs++;
        s.checks += r.checks;
        s.written += r.written;
      } catch (e) {
        s.abandoned++;
        if (unavailable(e)) ctx.log.warn(`worker: job ${job.id} not written back; it is retried after its lease`);
        else {
          ctx.log.warn(`worker: job ${job.id} failed: ${(e as Error)?.message ?? String(e)}`);
          await h.boss.fail(PROBE_QUEUE, job.id, { message: (e as Error)?.message ?? String(e) }).catch(() => undefined);
        }
      }
    }
  } finally {
    await h.boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
  }
  return s;
}

/** Claim one job; an outage is an error here (pg-boss's fetch alone would answer "no job"). */
async function fetchOne(h: BossHandle): Promise<PgBoss.Job<unknown> | null> {
  h.takeError();
  const jobs = await h.boss.fetch<unknown>(PROBE_QUEUE, { batchSize: 1 });
  const err = h.takeError();
  if (!jobs.length && err) throw err;
  return jobs[0] ?? null;
}

async function openJobs(cluster: Cluster): Promise<number> {
  const r = await cluster.query<{ n: number }>(
    "SELECT count(*)::integer AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')",
    [PROBE_QUEUE],
  );
  return r.rows[0]?.n ?? 0;
}

const INSERT = `INSERT INTO atlas.probe_checks (service_id, operation, slot, run_id, job_id, check_row, terms_row)
  SELECT e->'check'->>'service_id', e->'check'->>'operation', (e->'check'->>'slot')::timestamptz, e->'check'->>'run_id',
         $2::uuid, e->'check', CASE WHEN json_typeof(e->'terms') = 'null' THEN NULL ELSE e->'terms' END
  FROM json_array_elements($1::json) AS e
  ON CONFLICT (service_id, operation, slot) DO NOTHING`;

async function runJob(
  ctx: Context,
  cluster: Cluster,
  h: BossHandle,
  job: PgBoss.Job<unknown>,
  probe: ProbeOptions,
): Promise<{ checks: number; written: number }> {
  const { runId, ops } = dueOperationsOf(job.data);
  ctx.log.info(`worker: job ${job.id} claimed (${ops.length} checks)`, { job: job.id, checks: ops.length });
  const set = probeSettings(ctx, { ...probe, only: 'calls' });
  const sink = new MemorySink();
  const counts = emptyCounts();
  await probeOperations(ctx, probe, { runId, startedAt: ctx.clock(), counts, set, sink, stored: async () => ({}) }, async () => ops);
  const written = await cluster.transaction(async (c) => {
    const r = await c.query(INSERT, [JSON.stringify(sink.entries), job.id]);
    await h.boss.complete(PROBE_QUEUE, job.id, { checks: sink.entries.length, written: r.rowCount ?? 0 }, { db: executor(c) });
    return r.rowCount ?? 0;
  });
  ctx.log.info(`worker: job ${job.id} completed (${sink.entries.length} checks, ${written} new)`, {
    job: job.id,
    checks: sink.entries.length,
    written,
  });
  return { checks: sink.entries.length, written };
}

/** A job's checks, kept until its one write-back transaction (a job is at most JOB_SIZE checks). */
class MemorySink implements CheckSink {
  readonly entries: Array<{ check: CheckRecord; terms: TermsRecord | null }> = [];
  add(check: CheckRow, terms: Terms | null): Promise<void> {
    this.entries.push({ check: checkRecord(check), terms: terms ? termsRecord(check, terms) : null });
    return Promise.resolve();
  }
  async close(): Promise<void> {}
}

/** Wait `ms`, or less when `stop` is aborted. */
function pause(ms: number, stop?: AbortSignal): Promise<void> {
  if (stop?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    stop?.addEventListener('abort', done, { once: true });
  });
}
