import { CHECK_INTERVAL_HOURS } from '../../site/contract/common.ts';
import { HOUR_MS } from './clock.ts';

/**
 * Scheduled slots. A check fills the slot that starts at floor(t / interval) * interval (UTC epoch
 * aligned), so hourly slots start on the hour, daily at 00:00 UTC, weekly on Thursdays (epoch
 * alignment), monthly every 30 days. One check per (service, operation, slot). Interval names and
 * hours are the contract's (CHECK_INTERVAL_HOURS).
 */
export const INTERVALS = CHECK_INTERVAL_HOURS;
export type IntervalName = keyof typeof INTERVALS;
export const INTERVAL_NAMES = Object.keys(INTERVALS) as IntervalName[];

export function intervalName(hours: number): IntervalName {
  const found = INTERVAL_NAMES.find((n) => INTERVALS[n] === hours);
  if (!found) throw new Error(`no interval of ${hours} hours`);
  return found;
}

export function slotStart(at: Date, intervalHours: number): Date {
  const ms = intervalHours * HOUR_MS;
  return new Date(Math.floor(at.getTime() / ms) * ms);
}
