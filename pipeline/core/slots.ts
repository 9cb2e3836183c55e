import { HOUR_MS } from './clock.ts';

/**
 * Scheduled slots. A check fills the slot that starts at floor(t / interval) * interval (UTC epoch
 * aligned), so hourly slots start on the hour, daily at 00:00 UTC, weekly on Thursdays (epoch
 * alignment), monthly every 30 days. One check per (service, operation, slot). Interval names and
 * hours are the contract's (CHECK_INTERVAL_HOURS).
 */

export function slotStart(at: Date, intervalHours: number): Date {
  const ms = intervalHours * HOUR_MS;
  return new Date(Math.floor(at.getTime() / ms) * ms);
}

/**
 * Spread of due work within a slot (docs/notes/compute.md, "When a check is due"). With a spread
 * step of `spreadMinutes` (the cadence the probe runs at: five minutes for `atlas cycle` from cron),
 * every operation gets a fixed offset inside each of its slots:
 *
 *   positions = interval / step            (12 for hourly at 5 min, 288 daily, 2016 weekly, 8640 monthly)
 *   offset    = (h mod positions) × step   h = the first 32 bits of md5("<service_id>/<operation>"), big-endian
 *
 * and it is due once slot start + offset has passed (and its slot has no check yet). One h for every
 * interval, so an operation's hourly, daily and weekly check times nest (the daily time is one of its
 * hourly times): a change of interval keeps the operation's phase. A step of 0 means no spread: every
 * operation is due at its slot start (epoch-aligned, the behaviour before spreading). The step must
 * divide 60 minutes, so it divides every interval. Slots themselves never move: a check anywhere in
 * its slot fills that slot, and expected and missed checks are counted as before. The rule's one
 * home is the SQL macro atlas_due_offset_ms (pipeline/store/rules.sql), which the probe's due list
 * uses; the steps a configuration may name are listed here. Tests hold the macro to an independent
 * reference (test/helpers/due-offset.ts).
 */
export const SPREAD_STEPS_MINUTES = [0, 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60] as const;
