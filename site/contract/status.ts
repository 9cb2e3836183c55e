import { z } from 'zod';
import { ApiStatus, DateTime } from './common.ts';
import { RunRecord } from './runs.ts';

const count = z.number().int().nonnegative();

/** Scheduled / ran / missed slots of one job in one window. */
export const WindowFigures = z.strictObject({ scheduled: count, ran: count, missed: count });

/** One scheduled job of the service itself (probe, compute, publish, docs, report). */
export const JobStatus = z.strictObject({
  kind: z.string(),
  every_hours: z.number().int().positive(),
  windows: z.strictObject({ '24h': WindowFigures, '7d': WindowFigures, '30d': WindowFigures }),
  latest: RunRecord.nullable(),
});
export type JobStatus = z.infer<typeof JobStatus>;

/**
 * GET /api/v1/status: the service's own scheduled runs, missed runs and evidence freshness, with
 * windows (spec 4). Mirrors `computeStatus` (pipeline/compute/status.ts) plus `api_status`.
 */
export const Status = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  operating_since: DateTime.nullable(),
  jobs: z.array(JobStatus),
  latest_runs: z.array(RunRecord),
  evidence_freshness: z.strictObject({ fresh: count, stale: count, no_data: count, total: count }),
});
export type Status = z.infer<typeof Status>;
