/** Formatting of figures for people. Pure; no clock: times are shown as given (UTC). */
import type { ServiceType } from '../contract/common.ts';

import { CHECK_INTERVAL_HOURS, CHECK_INTERVAL_NAMES } from '../contract/common.ts';

export function fmtPercent(rate: number | null | undefined, digits = 1): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '—';
  return `${(rate * 100).toFixed(digits)}%`;
}

export function fmtPrice(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return '—';
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${Number(usd.toPrecision(2))}`;
  return `$${usd
    .toFixed(usd < 1 ? 3 : 2)
    .replace(/0+$/, '')
    .replace(/\.$/, '')}`;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The decimal value of `s[from, from + len)`, or -1 when one of them is not an ASCII digit. */
function digits(s: string, from: number, len: number): number {
  let v = 0;
  for (let i = from; i < from + len; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * True when `s` is `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS.sssZ` with every field in range
 * (the day within its month of the proleptic Gregorian calendar, hours 00-23): exactly the text
 * that `new Date(s).toISOString()` gives back unchanged (up to the milliseconds), so its minute can
 * be read off the text without a Date. Anything else (offsets, 24:00, Feb 30, which Date rolls
 * over) takes the Date path and keeps its output.
 */
function isCanonicalInstant(s: string): boolean {
  const n = s.length;
  if (n === 24) {
    if (s.charCodeAt(19) !== 46 /* . */ || digits(s, 20, 3) < 0) return false;
  } else if (n !== 20) return false;
  if (s.charCodeAt(n - 1) !== 90 /* Z */) return false;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58)
    return false;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return false;
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

/** '2026-11-25T12:00:00.000Z' → '2026-11-25 12:00 UTC'. */
export function fmtTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  // A canonical instant (nearly every published time) is its own ISO text: no Date to build.
  if (typeof value === 'string' && isCanonicalInstant(value)) return `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** One formatter for every call: `toLocaleString('en-US')` builds a new one each time (slow), with the same output. */
const EN_US = new Intl.NumberFormat('en-US');

export function fmtInt(n: number | string | null | undefined): string {
  if (n === null || n === undefined || n === '') return '—';
  const v = typeof n === 'string' ? Number(n) : n;
  if (!Number.isFinite(v)) return String(n);
  // Whole numbers 0-999 (most counts on a page) have no group separator: their digits as they are.
  if (Number.isInteger(v) && v >= 0 && v < 1000 && !Object.is(v, -0)) return String(v);
  return EN_US.format(v);
}

export function fmtDays(days: number | null | undefined): string {
  if (days === null || days === undefined || !Number.isFinite(days)) return '—';
  return days < 1 ? `${Math.round(days * 24)} h` : `${days.toFixed(1)} days`;
}

/** Label of each service type; also the order of the directory's type filter. */
export const TYPE_LABELS: Record<ServiceType, string> = {
  api_endpoint: 'API endpoint (x402)',
  mcp_server: 'MCP server',
  task_marketplace: 'Task marketplace',
};
export const typeLabel = (t: string): string => TYPE_LABELS[t as ServiceType] ?? t;

/** Interval hours → name, by the contract's CHECK_INTERVAL_HOURS; unknown values shown as hours. */
export function intervalLabel(hours: number | null | undefined): string {
  if (hours === null || hours === undefined) return '—';
  const name = CHECK_INTERVAL_NAMES.find((n) => CHECK_INTERVAL_HOURS[n] === hours);
  return name ?? `every ${hours} h`;
}
