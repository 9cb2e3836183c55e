import { DAY_MS } from '../core/clock.ts';

/**
 * Report weeks (docs/design.md, reports): a week is identified by the Monday (UTC) that starts it and runs from
 * Monday 00:00 UTC up to (not including) the next Monday 00:00 UTC.
 */
export const WEEK_MS = 7 * DAY_MS;

const WEEK_ID_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The Monday 00:00 UTC that starts the week containing `at`. */
export function mondayOf(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const back = (day.getUTCDay() + 6) % 7; // Monday → 0, Sunday → 6
  return new Date(day.getTime() - back * DAY_MS);
}

export const weekEnd = (weekStart: Date): Date => new Date(weekStart.getTime() + WEEK_MS);

/** `YYYY-MM-DD` of a week start. */
export const weekId = (weekStart: Date): string => weekStart.toISOString().slice(0, 10);

/**
 * Parse a report id into its week start. Returns null for anything that is not a real calendar date
 * in `YYYY-MM-DD` form falling on a Monday (callers turn null into not_found).
 */
export function parseWeekId(id: string): Date | null {
  const m = WEEK_ID_RE.exec(id);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(d.getTime()) || weekId(d) !== id) return null; // rejects 2026-02-30
  return d.getUTCDay() === 1 ? d : null;
}

/** Week starts from `first` up to and including `last` (both Mondays), oldest first. */
export function weeksBetween(first: Date, last: Date): Date[] {
  const out: Date[] = [];
  for (let t = first.getTime(); t <= last.getTime(); t += WEEK_MS) out.push(new Date(t));
  return out;
}
