import { z } from 'zod';
import { DateTime } from './common.ts';
import { RunRecord } from './runs.ts';

/**
 * `run-log.json` at the root of a generation: the service's own runs the server needs to compute the
 * run windows of GET /api/v1/status against its own clock (site/contract/run-windows.ts). Not an API
 * body. Bounded: every run of a scheduled job kind (JOB_CADENCE) or a back-fill (BACKFILL_KIND) whose slot time (scheduled_at, else
 * started_at) lies in the longest status window before `generated_at`, plus the latest run of every
 * kind, so the log is bounded however long the service has run: about 35,000 rows at a
 * five-minute cycle (probe, docs, compute and publish every cycle for 30 days), 2,900 at an hourly one.
 *
 * The generation's own publish run is in the log with status `ok` (and no finished_at): the tree that
 * carries the log exists, so that publish ran; a publish that fails leaves no tree and no log.
 */
export const RunLog = z.strictObject({
  /** The publish instant: the log holds the runs started at or before it. */
  generated_at: DateTime,
  /** The last compute's instant (the start of the latest compute run that finished ok or partial). */
  data_as_of: DateTime.nullable(),
  /**
   * The cycle cadence configured when the log was published (config `cycle.everyMinutes`): the
   * cadence the run windows expect of the jobs every cycle runs (run-windows.ts, jobSchedule).
   */
  cycle_every_minutes: z.number().int().positive(),
  /** The first recorded run of any kind (it may be older than every run in the log). */
  operating_since: DateTime.nullable(),
  runs: z.array(RunRecord),
});
export type RunLog = z.infer<typeof RunLog>;
