import { describe, expect, it } from 'vitest';
import { dailySeriesAt, dailySeriesOver, dayRange, emptyDay } from '../../../site/contract/daily-series.ts';
import type { DailyChecks } from '../../../site/contract/service-detail.ts';

const day = (d: string, checks: number): DailyChecks => ({ day: d, checks, passed: checks, median_latency_ms: checks ? 120 : null });

describe('dayRange', () => {
  it.each([
    ['2026-11-25T12:00:00Z', 3, ['2026-11-23', '2026-11-24', '2026-11-25']],
    ['2026-11-26T00:00:00Z', 2, ['2026-11-25', '2026-11-26']],
    ['2026-11-25T23:59:59.999Z', 1, ['2026-11-25']],
    ['2026-03-01T06:00:00Z', 2, ['2026-02-28', '2026-03-01']],
    ['2028-03-01T06:00:00Z', 2, ['2028-02-29', '2028-03-01']],
  ])('%s, %i days', (end, n, want) => {
    expect(dayRange(new Date(end), n)).toEqual(want);
    expect(dayRange(Date.parse(end), n)).toEqual(want);
  });
});

describe('dailySeriesAt: the file re-windowed to the generation day', () => {
  const file = [day('2026-11-23', 2), day('2026-11-24', 0), day('2026-11-25', 5)];

  it('is the file itself on the day it was rendered', () => {
    const got = dailySeriesAt(file, Date.parse('2026-11-25T18:00:00Z'), 3);
    expect(got).toBe(file);
  });

  it('a day later: the oldest day dropped, the new day zeros', () => {
    expect(dailySeriesAt(file, Date.parse('2026-11-26T00:05:00Z'), 3)).toEqual([
      day('2026-11-24', 0),
      day('2026-11-25', 5),
      emptyDay('2026-11-26'),
    ]);
  });

  it('days beyond the file are zeros; a series from another window keeps only the days it shares', () => {
    expect(dailySeriesAt(file, Date.parse('2026-12-01T00:00:00Z'), 3)).toEqual(['2026-11-29', '2026-11-30', '2026-12-01'].map(emptyDay));
    expect(dailySeriesOver([day('2026-11-25', 5)], ['2026-11-24', '2026-11-25'])).toEqual([emptyDay('2026-11-24'), day('2026-11-25', 5)]);
    expect(dailySeriesOver([], ['2026-11-25'])).toEqual([emptyDay('2026-11-25')]);
  });
});
