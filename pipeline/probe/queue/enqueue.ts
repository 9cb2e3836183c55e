import { randomUUID } from 'node:crypto';
import type { Cluster } from '../../cluster/postgres.ts';
import type { DueOperation } from '../due.ts';
import type PgBoss from 'pg-boss';
import { type BossHandle, executor, PROBE_QUEUE, RETRY_LIMIT } from './boss.ts';
import { JOB_SIZE, jobPayload } from './payload.ts';

/**
 * The writer's enqueue: the due operations (selectDue's list: the due rule keeps its one home) as
 * jobs of at most `jobSize` operations, in ONE transaction under an advisory lock. An operation's
 * slot is enqueued only when it is free: no check written back for it and no open job (created,
 * retry or active) holding it (atlas.probe_queued says which job holds it). So two cycles in one
 * slot, or a cycle re-run after a crash, add no duplicate work, and a job that failed for good
 * (RETRY_LIMIT attempts) frees its slots for the next cycle.
 */
export interface EnqueueSummary {
  due: number;
  enqueued: number;
  jobs: number;
  /** Due, but already written back or held by an open job. */
  held: number;
}

const ENQUEUE_LOCK = 4_702_610_020;
/** Candidates checked per statement (bounded parameters whatever the fleet's size). */
const CHECK_CHUNK = 10_000;
/** Jobs inserted per pg-boss insert. */
const INSERT_CHUNK = 100;

export async function enqueueDue(
  cluster: Cluster,
  h: BossHandle,
  runId: string,
  due: readonly DueOperation[],
  opts: { jobSize?: number; leaseSeconds: number },
): Promise<EnqueueSummary> {
  const jobSize = opts.jobSize ?? JOB_SIZE;
  return cluster.transaction(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [ENQUEUE_LOCK]);
    const free: DueOperation[] = [];
    for (let i = 0; i < due.length; i += CHECK_CHUNK) {
      const part = due.slice(i, i + CHECK_CHUNK);
      const r = await c.query<{ i: string }>(
        `SELECT c.i FROM unnest($1::text[], $2::text[], $3::timestamptz[]) WITH ORDINALITY AS c(service_id, operation, slot, i)
         WHERE NOT EXISTS (SELECT 1 FROM atlas.probe_checks p
                           WHERE p.service_id = c.service_id AND p.operation = c.operation AND p.slot = c.slot)
           AND NOT EXISTS (SELECT 1 FROM atlas.probe_queued q JOIN pgboss.job j ON j.name = $4 AND j.id = q.job_id
                           WHERE q.service_id = c.service_id AND q.operation = c.operation AND q.slot = c.slot
                             AND j.state IN ('created', 'retry', 'active'))
         ORDER BY c.i`,
        [part.map((o) => o.serviceId), part.map((o) => o.operation), part.map((o) => o.slot.toISOString()), PROBE_QUEUE],
      );
      for (const row of r.rows) free.push(part[Number(row.i) - 1]!);
    }
    const jobs: PgBoss.JobInsert[] = [];
    for (let i = 0; i < free.length; i += jobSize) {
      const ops = free.slice(i, i + jobSize);
      const id = randomUUID();
      await c.query(
        `INSERT INTO atlas.probe_queued (service_id, operation, slot, job_id)
         SELECT * , $4::uuid FROM unnest($1::text[], $2::text[], $3::timestamptz[])
         ON CONFLICT (service_id, operation, slot) DO UPDATE SET job_id = EXCLUDED.job_id, queued_at = now()`,
        [ops.map((o) => o.serviceId), ops.map((o) => o.operation), ops.map((o) => o.slot.toISOString()), id],
      );
      jobs.push({
        id,
        name: PROBE_QUEUE,
        data: jobPayload(runId, ops),
        expireInSeconds: opts.leaseSeconds,
        retryLimit: RETRY_LIMIT,
        retryDelay: 0,
      });
    }
    for (let i = 0; i < jobs.length; i += INSERT_CHUNK) await h.boss.insert(jobs.slice(i, i + INSERT_CHUNK), { db: executor(c) });
    return { due: due.length, enqueued: free.length, jobs: jobs.length, held: due.length - free.length };
  });
}
