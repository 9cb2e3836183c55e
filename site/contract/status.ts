import { z } from 'zod';
import { ApiStatus, Count as count, DateTime, JobKind } from './common.ts';
import { RunRecord } from './runs.ts';

/** Scheduled / ran / missed slots of one job in one window. */
export const WindowFigures = z.strictObject({ scheduled: count, ran: count, missed: count });

/** One scheduled job of the service itself (probe, compute, publish, docs, report). */
export const JobStatus = z.strictObject({
  kind: JobKind,
  every_minutes: z.number().int().positive(),
  windows: z.strictObject({ '24h': WindowFigures, '7d': WindowFigures, '30d': WindowFigures }),
  latest: RunRecord.nullable(),
});
export type JobStatus = z.infer<typeof JobStatus>;

/**
 * A period of simulated history written by a back-fill (`atlas demo`; the run of kind `backfill`):
 * [from, until). The jobs in `uncounted_jobs` did not run at their cadence during it, so their slots
 * that lie inside it are neither scheduled nor ran (site/contract/run-windows.ts).
 */
export const Backfill = z.strictObject({
  from: DateTime,
  until: DateTime,
  uncounted_jobs: z.array(JobKind),
});
export type Backfill = z.infer<typeof Backfill>;
export type WindowFigures = z.infer<typeof WindowFigures>;

/**
 * GET /api/v1/status: the service's own scheduled runs, missed runs and evidence freshness, with
 * windows ending at `generated_at`. `computeStatus` (pipeline/compute/status.ts) returns
 * `StatusFigures` (everything but `api_status`); publish adds `api_status` and validates the whole.
 * The server answers with the same figures recomputed against its own clock (`generated_at` = the
 * answer's instant) from the published run log (run-log.ts, run-windows.ts).
 */
export const Status = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  data_as_of: DateTime.nullable(),
  cycle_every_minutes: z.number().int().positive(),
  operating_since: DateTime.nullable(),
  backfills: z.array(Backfill),
  jobs: z.array(JobStatus),
  latest_runs: z.array(RunRecord),
  evidence_freshness: z.strictObject({ fresh: count, stale: count, no_data: count, total: count }),
});
export type Status = z.infer<typeof Status>;

/** Status without `api_status`: what compute returns and publish wraps. */
export const StatusFigures = Status.omit({ api_status: true });
export type StatusFigures = z.infer<typeof StatusFigures>;
