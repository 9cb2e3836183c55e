/**
 * What a cycle does when (pure). `atlas cycle` may run every five minutes; each step has its own
 * cadence, measured from the latest successful run of its kind in `runs`.
 */
export const CADENCE_MS = {
  ingest_listings: 60 * 60_000,
  ingest_registries: 60 * 60_000,
  compute_full: 60 * 60_000,
  publish_max_age: 60 * 60_000,
  snapshot: 60 * 60_000,
} as const;

/** Due when never run, or when the last run is at least `cadenceMs` before now (5 s of slack for cron jitter). */
export function isDue(last: Date | null, now: Date, cadenceMs: number): boolean {
  if (!last) return true;
  return now.getTime() - last.getTime() >= cadenceMs - 5_000;
}
