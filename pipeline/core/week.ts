import { REPORT_ID_PATTERN } from '../../site/contract/common.ts';
import { DAY_MS } from './clock.ts';

/**
 * Report weeks (docs/design.md, reports): a week is identified by the Monday (UTC) that starts it and runs from
 * Monday 00:00 UTC up to (not including) the next Monday 00:00 UTC.
 */
export const WEEK_MS = 7 * DAY_MS;

/**
 * A week id: the dated alternative of the contract's REPORT_ID_PATTERN (the other is `current`), so
 * the ids parsed here are exactly the dated ids the API accepts.
 */
const WEEK_ID_RE = (() => {
  const m = /^\^\(current\|(.+)\)\$$/.exec(REPORT_ID_PATTERN);
  if (!m) throw new Error(`REPORT_ID_PATTERN has no dated alternative: ${REPORT_ID_PATTERN}`);
  return new RegExp(`^${m[1]}$`);
})();

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
  if (!WEEK_ID_RE.test(id)) return null;
  const [y, mo, da] = id.split('-').map(Number) as [number, number, number];
  const d = new Date(Date.UTC(y, mo - 1, da));
  if (Number.isNaN(d.getTime()) || weekId(d) !== id) return null; // rejects 2026-02-30
  return d.getUTCDay() === 1 ? d : null;
}

/** Week starts from `first` up to and including `last` (both Mondays), oldest first. */
export function weeksBetween(first: Date, last: Date): Date[] {
  const out: Date[] = [];
  for (let t = first.getTime(); t <= last.getTime(); t += WEEK_MS) out.push(new Date(t));
  return out;
}
