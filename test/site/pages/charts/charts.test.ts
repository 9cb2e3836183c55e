import { describe, expect, it } from 'vitest';
import { bucketByDay, checkHistorySvg, dayRange, latencySvg } from '../../../../site/pages/index.ts';
import { niceCeil } from '../../../../site/pages/charts/latency.ts';
import type { DayBucket } from '../../../../site/pages/index.ts';

const end = new Date('2026-11-25T12:00:00Z');
const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;

function series(n: number, f: (i: number) => Partial<DayBucket>): DayBucket[] {
  return dayRange(end, n).map((day, i) => ({ day, checks: 0, passed: 0, median_latency_ms: null, ...f(i) }));
}

describe('dayRange / bucketByDay', () => {
  it('gives every day of the window, oldest first, ending with the day of `end`', () => {
    const r = dayRange(end, 3);
    expect(r).toEqual(['2026-11-23', '2026-11-24', '2026-11-25']);
  });
  it('buckets checks by UTC day, counts passes, medians latencies, ignores checks outside the window', () => {
    const b = bucketByDay(
      [
        { checked_at: '2026-11-25T01:00:00Z', passed: true, latency_ms: 100 },
        { checked_at: '2026-11-25T02:00:00Z', passed: false, latency_ms: null },
        { checked_at: '2026-11-25T03:00:00Z', passed: true, latency_ms: 300 },
        { checked_at: '2026-11-24T23:59:59Z', passed: true, latency_ms: 50 },
        { checked_at: '2026-10-01T00:00:00Z', passed: true, latency_ms: 1 },
        { checked_at: 'not a time', passed: true, latency_ms: 1 },
      ],
      end,
      2,
    );
    expect(b).toEqual([
      { day: '2026-11-24', checks: 1, passed: 1, median_latency_ms: 50 },
      { day: '2026-11-25', checks: 3, passed: 2, median_latency_ms: 200 },
    ]);
  });
});

describe('checkHistorySvg', () => {
  it('draws a pass bar per day with checks, a fail bar only where checks failed, a tick where none ran', () => {
    const days = series(30, (i) => (i < 10 ? {} : { checks: 24, passed: i === 20 ? 18 : 24 }));
    const svg = checkHistorySvg(days, { id: 'h' });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-labelledby="h-title h-desc"');
    expect(count(svg, /class="pass"/g)).toBe(20);
    expect(count(svg, /class="fail"/g)).toBe(1);
    expect(count(svg, /class="none"/g)).toBe(10);
    expect(svg).toContain('474 of 480 checks passed over 30 days');
    expect(svg).toContain(`${days[20]!.day}: 18 of 24 checks passed`);
  });
  it('is pure: the same input gives the same string', () => {
    const days = series(30, (i) => ({ checks: i % 3, passed: i % 2 ? i % 3 : 0 }));
    expect(checkHistorySvg(days)).toBe(checkHistorySvg(days.map((d) => ({ ...d }))));
  });
  it('says when nothing ran', () => {
    const svg = checkHistorySvg(series(30, () => ({})));
    expect(svg).toContain('No checks ran in the 30 days shown.');
    expect(count(svg, /class="pass"/g)).toBe(0);
  });
  it('scales bars to the busiest day', () => {
    const svg = checkHistorySvg(
      series(2, (i) => ({ checks: i ? 10 : 5, passed: i ? 10 : 5 })),
      { height: 140 },
    );
    const heights = [...svg.matchAll(/class="pass"[^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(heights).toHaveLength(2);
    expect(heights[1]! / heights[0]!).toBeCloseTo(2, 1);
  });
});

describe('latencySvg', () => {
  it('plots one dot per day with a median and breaks the line at gaps', () => {
    const days = series(6, (i) => ({ median_latency_ms: i === 2 ? null : 100 + i * 10 }));
    const svg = latencySvg(days, { id: 'l' });
    expect(count(svg, /<circle/g)).toBe(5);
    expect(count(svg, /<polyline/g)).toBe(2);
    expect(svg).toContain('Median latency on 5 of 6 days: lowest 100 ms, highest 150 ms.');
    expect(svg).toContain('>200 ms<'); // axis top: round number above 150
  });
  it('handles no data', () => {
    const svg = latencySvg(series(30, () => ({})));
    expect(svg).toContain('No latency measured');
    expect(count(svg, /<circle/g)).toBe(0);
  });
  it('niceCeil picks 1, 2, 2.5, 5 steps', () => {
    expect([niceCeil(0), niceCeil(7), niceCeil(150), niceCeil(210), niceCeil(1400), niceCeil(4800)]).toEqual([
      100, 10, 200, 250, 2000, 5000,
    ]);
  });
});
