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

/** '2026-11-25T12:00:00.000Z' → '2026-11-25 12:00 UTC'. */
export function fmtTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function fmtDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toISOString().slice(0, 10);
}

export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

export function fmtInt(n: number | string | null | undefined): string {
  if (n === null || n === undefined || n === '') return '—';
  const v = typeof n === 'string' ? Number(n) : n;
  return Number.isFinite(v) ? v.toLocaleString('en-US') : String(n);
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
