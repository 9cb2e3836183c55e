import { describe, expect, it } from 'vitest';
import { mondayOf, parseWeekId, weekEnd, weekId, weeksBetween } from '../../../pipeline/reports/index.ts';

describe('report weeks', () => {
  it('finds the Monday 00:00 UTC of any instant', () => {
    expect(weekId(mondayOf(new Date('2026-11-25T22:40:00Z')))).toBe('2026-11-23');
    expect(weekId(mondayOf(new Date('2026-11-23T00:00:00Z')))).toBe('2026-11-23');
    expect(weekId(mondayOf(new Date('2026-11-22T23:59:59.999Z')))).toBe('2026-11-16');
    expect(weekEnd(new Date('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });

  it('accepts only real Mondays in YYYY-MM-DD form', () => {
    expect(parseWeekId('2026-11-23')?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    for (const bad of [
      '2026-11-24',
      '2026-11-22',
      '2026-02-30',
      '2026-2-02',
      '2026-11-23T00:00:00Z',
      'current',
      '',
      '20261123',
      '2026-13-01',
    ]) {
      expect(parseWeekId(bad), bad).toBeNull();
    }
  });

  it('lists weeks oldest first', () => {
    expect(weeksBetween(new Date('2026-11-02T00:00:00Z'), new Date('2026-11-16T00:00:00Z')).map(weekId)).toEqual([
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
    ]);
  });
});
