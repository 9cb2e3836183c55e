import type { DailyChecks } from './service-detail.ts';

/**
 * The daily series of a service (`daily_checks`): the one home of its day list, for publish, the
 * pages and the server.
 *
 * The object's series is the DAILY_DAYS UTC days ending with the day of the generation's
 * `generated_at`, oldest first, days without checks as zeros. A published file's series ends with
 * the day the file was rendered instead: an unchanged service's file is shared by later generations
 * (docs/notes/incremental-publish.md), and after a UTC midnight its series is a day behind. The
 * server re-windows it when it answers (`dailySeriesAt`): the days the file has are kept, the days
 * before the window dropped, the days after the file's last one filled with zeros. The zeros are
 * exact, not a guess: publish shares a file across a midnight only when the service's checks over
 * the days both windows hold are the same and it has none on the new day (pipeline/publish/fingerprint.ts,
 * the next-day fingerprint); any later check makes publish render the file again.
 *
 * Pure and dependency-free (a type import only), so publish, the pages and the server share it.
 */

const DAY_MS = 86_400_000;

/** The `count` UTC days ending with the day of `end` (inclusive), oldest first, as YYYY-MM-DD. */
export function dayRange(end: Date | number, count: number): string[] {
  const ms = typeof end === 'number' ? end : end.getTime();
  const last = Math.floor(ms / DAY_MS) * DAY_MS;
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) out.push(new Date(last - i * DAY_MS).toISOString().slice(0, 10));
  return out;
}

/** A day without checks. */
export const emptyDay = (day: string): DailyChecks => ({ day, checks: 0, passed: 0, median_latency_ms: null });

/**
 * The series over `days` (a dayRange): each day's entry from `series` when it has one, else zeros.
 * Returns `series` itself when it already is exactly that list (the common case: nothing to copy).
 */
export function dailySeriesOver(series: readonly DailyChecks[], days: readonly string[]): DailyChecks[] {
  if (series.length === days.length && series.every((s, i) => s.day === days[i])) return series as DailyChecks[];
  const byDay = new Map(series.map((s) => [s.day, s]));
  return days.map((day) => byDay.get(day) ?? emptyDay(day));
}

/** The series as the object carries it at `atMs` (the generation's generated_at): `count` days ending with that day. */
export function dailySeriesAt(series: readonly DailyChecks[], atMs: number, count: number): DailyChecks[] {
  return dailySeriesOver(series, dayRange(atMs, count));
}
