import { dayRange } from '../../contract/daily-series.ts';
import type { CheckPoint, DayBucket } from '../model.ts';

export { dayRange };

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/**
 * Group checks into UTC days over the window [end - count days, end]. Every day of the window is
 * present (zero checks where none ran), so the chart's x axis is time, not "days with data".
 */
export function bucketByDay(checks: readonly CheckPoint[], end: Date, count = 30): DayBucket[] {
  const days = dayRange(end, count);
  const byDay = new Map<string, { checks: number; passed: number; lat: number[] }>();
  for (const d of days) byDay.set(d, { checks: 0, passed: 0, lat: [] });
  for (const c of checks) {
    const t = new Date(c.checked_at);
    if (Number.isNaN(t.getTime())) continue;
    const b = byDay.get(t.toISOString().slice(0, 10));
    if (!b) continue;
    b.checks += 1;
    if (c.passed) b.passed += 1;
    if (typeof c.latency_ms === 'number' && Number.isFinite(c.latency_ms)) b.lat.push(c.latency_ms);
  }
  return days.map((day) => {
    const b = byDay.get(day)!;
    return {
      day,
      checks: b.checks,
      passed: b.passed,
      median_latency_ms: median(b.lat),
    };
  });
}
