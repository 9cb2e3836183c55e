import type { Context } from '../core/context.ts';
import { AtlasError } from '../core/errors.ts';
import { withRun } from '../store/runs.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { computeWeekFigures } from './figures.ts';
import { mondayOf, WEEK_MS, weekEnd, weekId, weeksBetween } from '../core/week.ts';

/** Week starts already frozen, as `YYYY-MM-DD`. */
export async function frozenWeeks(store: Store): Promise<Set<string>> {
  const rows = await store.all<{ week: string }>(`SELECT strftime(week, '%Y-%m-%d') AS week FROM reports`);
  return new Set(rows.map((r) => r.week));
}

/**
 * The first week that has data: the week of the oldest tracked service or of the earliest check,
 * whichever is earlier. Null when the database holds neither (nothing to report yet).
 */
export async function firstDataWeek(store: Store): Promise<Date | null> {
  const [row] = await store.all<{ first: string | null }>(
    `SELECT least((SELECT min(created_at) FROM services), (SELECT min(slot) FROM checks)) AS first`,
  );
  const iso = dbTimeToIso(row?.first);
  return iso ? mondayOf(new Date(iso)) : null;
}

/**
 * Freeze one finished week: compute its figures up to the week end and store the body once.
 * Returns false (and changes nothing) when the week is already frozen: a frozen body never changes.
 */
export async function freezeWeek(store: Store, weekStart: Date, now: Date): Promise<boolean> {
  const end = weekEnd(weekStart);
  if (end.getTime() > now.getTime()) {
    throw new AtlasError(
      'invalid_input',
      `week ${weekId(weekStart)} has not ended yet (it ends ${end.toISOString()}); see the current report instead`,
    );
  }
  return store.transaction(async () => {
    const existing = await store.all(`SELECT 1 FROM reports WHERE week = $1::DATE`, [weekId(weekStart)]);
    if (existing.length) return false;
    const body = await computeWeekFigures(store, weekStart, end);
    await store.run(`INSERT INTO reports (week, frozen_at, body) VALUES ($1::DATE, $2::TIMESTAMP, $3::JSON)`, [
      weekId(weekStart),
      now.toISOString(),
      JSON.stringify(body),
    ]);
    return true;
  });
}

export interface FreezeSummary {
  frozen: string[];
}

/**
 * Freeze every finished week that is not frozen yet, oldest first, from the first week with data up
 * to the week that ended most recently. Weeks missed while the pipeline was down are therefore frozen
 * on the next run, in order; a week without data becomes a report of zeros. Records a `runs` row
 * (kind `report`) once a week and whenever there are weeks to freeze (`failed`, with the error, when
 * freezing throws). Safe to call every cycle.
 */
export async function freezeDueReports(ctx: Context, store: Store): Promise<FreezeSummary> {
  const now = ctx.clock();
  const first = await firstDataWeek(store);
  const lastFinished = new Date(mondayOf(now).getTime() - WEEK_MS);
  const due: Date[] = [];
  if (first && first.getTime() <= lastFinished.getTime()) {
    const done = await frozenWeeks(store);
    for (const w of weeksBetween(first, lastFinished)) if (!done.has(weekId(w))) due.push(w);
  }
  // One `runs` row per week (the job is weekly in the status page), plus one whenever a run has
  // weeks to freeze: the five-minute cycle calls this every time, and most calls have nothing to do.
  const monday = mondayOf(now).toISOString();
  const seen = await store.all(`SELECT 1 FROM runs WHERE kind = 'report' AND scheduled_at = $1::TIMESTAMP LIMIT 1`, [monday]);
  if (!due.length && seen.length) return { frozen: [] };
  const frozen = await withRun(store, 'report', { clock: ctx.clock, startedAt: now, scheduledAt: mondayOf(now) }, async (run) => {
    const out: string[] = [];
    for (const w of due) if (await freezeWeek(store, w, now)) out.push(weekId(w));
    run.counts = { frozen: out.length };
    return out;
  });
  if (frozen.length) ctx.log.info(`froze ${frozen.length} weekly report${frozen.length === 1 ? '' : 's'}`, { weeks: frozen });
  return { frozen };
}
