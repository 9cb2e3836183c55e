import { describe, expect, it } from 'vitest';
import { compileGeneration, GenerationCompiler } from '../../../serve/search/compile.ts';
import { buildService, generateSpecs } from '../fixture.ts';

const NOW = new Date('2026-11-25T12:00:00Z');

describe('a generation compiled record by record', () => {
  const records = generateSpecs(40).map((s) => buildService(s, NOW).record);
  const whole = compileGeneration(records);

  it('the filter columns hold each record at its row position, whatever count the generation announced', () => {
    for (const expected of [0, 1, 7, 40, 100]) {
      const g = new GenerationCompiler(expected);
      for (const rec of records) g.add(rec);
      const { rows, columns } = g.finish();
      expect(rows.map((r) => r.pos)).toEqual(records.map((_, i) => i));
      for (const [name, col] of Object.entries(columns.enums)) expect(col.length, name).toBe(records.length);
      for (const [name, col] of Object.entries(columns.ranges)) expect(col.length, name).toBe(records.length);
      expect(columns.enums).toEqual(whole.columns.enums);
      expect(columns.ranges).toEqual(whole.columns.ranges);
    }
  });

  it('the columns carry the records’ values (NaN where a value is unknown)', () => {
    const c = whole.columns;
    records.forEach((rec, i) => {
      expect(c.ranges.min_checks[i]).toBe(rec.summary.evidence.checks_30d);
      expect(c.ranges.max_price_usd[i]).toBe(rec.summary.price_usd ?? NaN);
      expect(c.ranges.min_payers[i]).toBe(rec.search.payers_30d ?? NaN);
      expect(c.enums.mainnet[i]).toBe(rec.summary.mainnet === null ? -1 : rec.summary.mainnet ? 1 : 0);
    });
    expect(records.some((r) => r.summary.price_usd === null) && records.some((r) => r.summary.price_usd !== null)).toBe(true);
  });
});
