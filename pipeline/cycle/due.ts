/**
 * What a cycle does when (pure). Cron runs `atlas cycle` at the configured cadence (config
 * `cycle.everyMinutes`, five minutes by default); the inbox, probe, docs, compute, reports and
 * publish steps run every cycle (probe, docs and reports find what is due themselves; the status
 * windows expect them at the cadences of JOB_CADENCE, site/contract/run-windows.ts). The others have
 * their own cadence, measured from the latest successful run of their kind in `runs`: ingest and
 * snapshot are not published jobs and stay hourly, and the check archive runs daily.
 */
export const CADENCE_MS = {
  ingest_listings: 60 * 60_000,
  ingest_registries: 60 * 60_000,
  snapshot: 60 * 60_000,
  /** the check archive (pipeline/store/history.ts): once a day */
  archive: 24 * 60 * 60_000,
} as const;

/** Due when never run, or when the last run is at least `cadenceMs` before now (5 s of slack for cron jitter). */
export function isDue(last: Date | null, now: Date, cadenceMs: number): boolean {
  if (!last) return true;
  return now.getTime() - last.getTime() >= cadenceMs - 5_000;
}
