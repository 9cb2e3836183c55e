import { jobEveryMs } from '../../site/contract/run-windows.ts';

/**
 * What a cycle does when (pure). `atlas cycle` may run every five minutes; each step has its own
 * cadence, measured from the latest successful run of its kind in `runs`. Compute and publish
 * take theirs from the contract's job schedule (RUN_SCHEDULE, site/contract/run-windows.ts), the
 * one the status windows count; ingest and snapshot are not published jobs and stay hourly here, and
 * the check archive runs daily.
 */
export const CADENCE_MS = {
  ingest_listings: 60 * 60_000,
  ingest_registries: 60 * 60_000,
  compute_full: jobEveryMs('compute'),
  publish_max_age: jobEveryMs('publish'),
  snapshot: 60 * 60_000,
  /** the check archive (pipeline/store/history.ts): once a day */
  archive: 24 * 60 * 60_000,
} as const;

/** Due when never run, or when the last run is at least `cadenceMs` before now (5 s of slack for cron jitter). */
export function isDue(last: Date | null, now: Date, cadenceMs: number): boolean {
  if (!last) return true;
  return now.getTime() - last.getTime() >= cadenceMs - 5_000;
}
