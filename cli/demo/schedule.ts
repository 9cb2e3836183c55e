import { HOUR_MS } from '../../pipeline/core/clock.ts';

export interface BackfillPlanOptions {
  /** Days of history to simulate. */
  days: number;
  /** Step (hours) for history older than `recentHours`. */
  coarseHours: number;
  /** The most recent hours are simulated hour by hour (hourly checks without gaps). */
  recentHours: number;
  /** Atlas is down: no cycle starts in [start, end) (the demo's one outage, see demoOutage). */
  outage?: { start: Date; end: Date };
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
  const o = opts.outage;
  return out.filter((d) => d.getTime() <= end.getTime() && !(o && d.getTime() >= o.start.getTime() && d.getTime() < o.end.getTime()));
}

/**
 * The demo's one Atlas outage: `hours` hours starting 65% of the way through the history (day 10 of
 * 14), hour-aligned, during which no cycle runs: the demo's only missed checks and missed runs are
 * this window's. Pure.
 */
export function demoOutage(end: Date, days: number, hours = 3): { start: Date; end: Date } {
  const start = historyStart(end, days).getTime() + Math.floor(days * 24 * 0.65) * HOUR_MS;
  return { start: new Date(start), end: new Date(start + hours * HOUR_MS) };
}

/** Start of the simulated history (the fleet's epoch): `days` before the last full hour. */
export function historyStart(end: Date, days: number): Date {
  return new Date(Math.floor(end.getTime() / HOUR_MS) * HOUR_MS - days * 24 * HOUR_MS);
}
