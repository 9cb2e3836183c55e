import { HOUR_MS } from '../core/clock.ts';

export interface BackfillPlanOptions {
  /** Days of history to simulate. */
  days: number;
  /** Step (hours) for history older than `recentHours`. */
  coarseHours: number;
  /** The most recent hours are simulated hour by hour (hourly checks without gaps). */
  recentHours: number;
}

/**
 * Simulated cycle times for the back-fill, oldest first: hour-aligned (plus a minute, as cron
 * would run), every `coarseHours` from `end - days` until `end - recentHours`, then every hour up
 * to the last full hour before `end`. Pure.
 */
export function backfillTimes(end: Date, opts: BackfillPlanOptions): Date[] {
  const lastHour = Math.floor(end.getTime() / HOUR_MS) * HOUR_MS;
  const first = lastHour - opts.days * 24 * HOUR_MS;
  const recentFrom = lastHour - Math.max(0, opts.recentHours - 1) * HOUR_MS;
  const out: Date[] = [];
  const step = Math.max(1, Math.floor(opts.coarseHours)) * HOUR_MS;
  let t = first;
  for (; t < recentFrom; t += step) out.push(new Date(t + 60_000));
  for (t = Math.max(first, recentFrom); t <= lastHour; t += HOUR_MS) out.push(new Date(t + 60_000));
  return out.filter((d) => d.getTime() <= end.getTime());
}

/** Start of the simulated history (the fleet's epoch): `days` before the last full hour. */
export function historyStart(end: Date, days: number): Date {
  return new Date(Math.floor(end.getTime() / HOUR_MS) * HOUR_MS - days * 24 * HOUR_MS);
}
