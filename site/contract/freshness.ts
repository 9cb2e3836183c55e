/**
 * Freshness of a service's evidence at an instant: the one TypeScript copy of the rule, for the
 * server, which evaluates it against its own clock when it answers (so a stalled pipeline shows as
 * `stale` instead of a frozen `fresh`). The SQL copy is macro atlas_freshness in
 * pipeline/store/rules.sql; a generated-case test checks that both give the same answer.
 *
 *   no_data  never checked (or no interval known);
 *   fresh    the latest check is no older than two scheduled intervals: now − latest <= 2 intervals
 *            (a check later than `now`, i.e. clock skew, counts as fresh);
 *   stale    older.
 *
 * Pure and dependency-free, so the pipeline and the server can both import it.
 */
import type { Freshness } from './common.ts';

export type FreshnessState = Freshness;

/** A check stays fresh for this many scheduled intervals. */
export const FRESH_WITHIN_INTERVALS = 2;

const HOUR_MS = 3_600_000;

/** How long a check stays fresh under an interval of `intervalHours` hours, in milliseconds. */
export const freshWindowMs = (intervalHours: number): number => FRESH_WITHIN_INTERVALS * intervalHours * HOUR_MS;

/** The test itself, for hot loops over precomputed windows: NaN (never checked) is never fresh. */
export const isFreshAt = (lastCheckMs: number, windowMs: number, nowMs: number): boolean => nowMs - lastCheckMs <= windowMs;

export function freshnessAt(lastCheckMs: number | null, intervalHours: number | null, nowMs: number): FreshnessState {
  if (lastCheckMs === null || Number.isNaN(lastCheckMs) || intervalHours === null) return 'no_data';
  return isFreshAt(lastCheckMs, freshWindowMs(intervalHours), nowMs) ? 'fresh' : 'stale';
}
