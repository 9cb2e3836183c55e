import { API_STATUS } from '../../site/contract/common.ts';
import { DAY_MS } from '../core/clock.ts';
import { AtlasError } from '../core/errors.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { listCorrections } from './corrections.ts';
import { computeWeekFigures } from './figures.ts';
import type { Report, ReportList } from '../../site/contract/reports.ts';
import { mondayOf, parseWeekId, weekEnd, weekId } from '../core/week.ts';

export const reportApiPath = (id: string): string => `/api/v1/reports/${id}`;

/** The envelope's `week_end` is the last day of the week (the Sunday), as the contract documents it. */
const lastDay = (weekStart: Date): string => weekId(new Date(weekEnd(weekStart).getTime() - DAY_MS));

/**
 * A frozen report with its corrections (contract `Report`, status `final`), or null when the week is
 * not frozen. `report` is the stored body, parsed once from its JSON text, so serialising it again
 * gives the stored bytes; `generated_at` is the latest of the freeze and the corrections, so the
 * response is a function of the database alone.
 */
export async function readFrozenReport(store: Store, weekStart: Date): Promise<Report | null> {
  const id = weekId(weekStart);
  const [row] = await store.all<{ frozen_at: string; body: string }>(`SELECT frozen_at, body FROM reports WHERE week = $1::DATE`, [id]);
  if (!row) return null;
  const corrections = await listCorrections(store, id);
  const frozenAt = dbTimeToIso(row.frozen_at)!;
  const last = corrections.at(-1)?.corrected_at;
  return {
    api_status: API_STATUS,
    id,
    week_start: id,
    week_end: lastDay(weekStart),
    status: 'final',
    frozen_at: frozenAt,
    generated_at: last && last > frozenAt ? last : frozenAt,
    report: JSON.parse(row.body) as Record<string, unknown>,
    corrections,
  };
}

/** Provisional week-to-date figures for the week containing `now` (the id `current`). */
export async function currentReport(store: Store, now: Date): Promise<Report> {
  const ws = mondayOf(now);
  return {
    api_status: API_STATUS,
    id: 'current',
    week_start: weekId(ws),
    week_end: lastDay(ws),
    status: 'provisional',
    frozen_at: null,
    generated_at: now.toISOString(),
    report: (await computeWeekFigures(store, ws, now)) as unknown as Record<string, unknown>,
    corrections: [],
  };
}

/**
 * Resolve a report id (docs/api.md: `current` or the Monday starting the week). A malformed id, a date that
 * is not a Monday, or a week that is not frozen → not_found. The Monday of the running week answers
 * with the provisional figures, like `current`.
 */
export async function getReport(store: Store, id: string, now: Date): Promise<Report> {
  if (id === 'current') return currentReport(store, now);
  const ws = parseWeekId(id);
  if (!ws)
    throw new AtlasError(
      'not_found',
      `no such report: ${JSON.stringify(id.slice(0, 40))} (use current or the Monday starting a week, YYYY-MM-DD)`,
    );
  const frozen = await readFrozenReport(store, ws);
  if (frozen) return frozen;
  if (ws.getTime() === mondayOf(now).getTime()) return { ...(await currentReport(store, now)), id };
  throw new AtlasError(
    'not_found',
    `no report for the week of ${id}${weekEnd(ws).getTime() > now.getTime() ? ' (the week has not ended)' : ''}`,
  );
}

/** Frozen weeks, newest first (contract `ReportList`, body of `/api/v1/reports`). */
export async function listReports(store: Store, now: Date): Promise<ReportList> {
  const rows = await store.all<{ week: string; frozen_at: string; n: number }>(`
    SELECT strftime(r.week, '%Y-%m-%d') AS week, r.frozen_at, (SELECT count(*) FROM report_corrections c WHERE c.week = r.week)::INTEGER AS n
    FROM reports r ORDER BY r.week DESC`);
  return {
    api_status: API_STATUS,
    generated_at: now.toISOString(),
    items: rows.map((r) => ({
      id: r.week,
      week_start: r.week,
      week_end: lastDay(new Date(`${r.week}T00:00:00Z`)),
      frozen_at: dbTimeToIso(r.frozen_at)!,
      corrections: Number(r.n),
      links: { api: reportApiPath(r.week) },
    })),
    current: { api: reportApiPath('current') },
  };
}
