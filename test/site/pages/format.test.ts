import { describe, expect, it } from 'vitest';
import { r1 } from '../../../site/pages/charts/svg.ts';
import { fmtInt, fmtTime } from '../../../site/pages/format.ts';
import { esc, html } from '../../../site/pages/html.ts';

/**
 * The page formatters take shortcuts (no Date for a canonical instant, one shared number format,
 * integer tenths for chart coordinates); each must print exactly what its plain definition prints,
 * or a published page changes. The plain definitions are written out here as the reference.
 */
const plainTime = (value: string | Date | null | undefined): string => {
  if (!value) return '—';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};
const plainInt = (n: number | string | null | undefined): string => {
  if (n === null || n === undefined || n === '') return '—';
  const v = typeof n === 'string' ? Number(n) : n;
  return Number.isFinite(v) ? v.toLocaleString('en-US') : String(n);
};
const plainR1 = (n: number): string => String(Math.round(n * 10) / 10);

/** A small deterministic generator (no Math.random: a failure must replay). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

describe('fmtTime', () => {
  it('prints the minute of a canonical instant, with or without milliseconds', () => {
    expect(fmtTime('2026-11-25T12:34:56.789Z')).toBe('2026-11-25 12:34 UTC');
    expect(fmtTime('2026-11-25T12:34:56Z')).toBe('2026-11-25 12:34 UTC');
    expect(fmtTime(new Date('2026-11-25T12:34:56.789Z'))).toBe('2026-11-25 12:34 UTC');
    expect(fmtTime(null)).toBe('—');
    expect(fmtTime('')).toBe('—');
    expect(fmtTime('not a time')).toBe('not a time');
  });

  it('gives what Date gives for out-of-range fields, offsets and other forms (Date rolls some over)', () => {
    const cases = [
      '2026-02-29T00:00:00.000Z', // not a leap year: Date rolls over to 1 March
      '2024-02-29T00:00:00.000Z',
      '2026-02-30T10:00:00Z',
      '2026-04-31T00:00:00.000Z',
      '2026-01-01T24:00:00.000Z', // end of day: the next day
      '2026-13-01T00:00:00.000Z',
      '2026-00-10T00:00:00.000Z',
      '2026-01-00T00:00:00.000Z',
      '2026-01-01T12:60:00.000Z',
      '2026-01-01T12:00:60.000Z',
      '2026-01-01T12:00:00.5Z',
      '2026-01-01T12:00:00+02:00',
      '2026-01-01T12:00:00.000+02:00',
      '2026-01-01T12:00:00.000',
      '2026-01-01T12:00:00.00aZ',
      '2026-01-01t12:00:00.000Z',
      '2026-01-01 12:00:00.000Z',
      '2026-01-01',
      '+002026-01-01T12:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2000-02-29T00:00:00.000Z',
      '0000-02-29T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ];
    for (const c of cases) expect(fmtTime(c), c).toBe(plainTime(c));
  });

  it('matches Date on every day of sampled years and on random instants', () => {
    for (const y of [0, 4, 100, 1900, 1970, 2000, 2023, 2024, 2026, 2100, 2400, 9999])
      for (let m = 0; m <= 13; m++)
        for (let d = 0; d <= 32; d++) {
          const base = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          for (const t of [`${base}T00:00:00.000Z`, `${base}T23:59:59Z`, `${base}T24:00:00.000Z`]) expect(fmtTime(t), t).toBe(plainTime(t));
        }
    const rnd = lcg(7);
    for (let i = 0; i < 20_000; i++) {
      const iso = new Date(Math.floor(rnd() * 4e14) - 1e14).toISOString();
      expect(fmtTime(iso), iso).toBe(plainTime(iso));
    }
  });
});

describe('fmtInt', () => {
  it('groups thousands as en-US does, whatever the value', () => {
    expect(fmtInt(0)).toBe('0');
    expect(fmtInt(999)).toBe('999');
    expect(fmtInt(1000)).toBe('1,000');
    expect(fmtInt(1_234_567)).toBe('1,234,567');
    expect(fmtInt(null)).toBe('—');
    const cases: (number | string)[] = [
      -0,
      -1,
      -999,
      -1000,
      0.5,
      999.5,
      999.9999,
      1234.5678,
      1e21,
      1e-7,
      2 ** 53,
      NaN,
      Infinity,
      '-0',
      '12',
      '1000',
      'abc',
      ' 7 ',
    ];
    const rnd = lcg(11);
    for (let i = 0; i < 5_000; i++) cases.push(Math.floor(rnd() * 2e6) - 1e6, rnd() * 2000 - 1000);
    for (const c of cases) expect(fmtInt(c), String(c)).toBe(plainInt(c));
  });
});

describe('r1', () => {
  it('writes one decimal exactly as String(Math.round(n * 10) / 10)', () => {
    const cases = [
      0,
      -0,
      0.04,
      -0.04,
      0.05,
      -0.05,
      -0.06,
      1.25,
      -1.25,
      2.35,
      599.95,
      12.3456,
      1e14 + 0.3,
      1e20,
      -1e20,
      NaN,
      Infinity,
      -Infinity,
    ];
    const rnd = lcg(3);
    for (let i = 0; i < 20_000; i++) cases.push(rnd() * 700 - 50);
    for (const c of cases) expect(r1(c), String(c)).toBe(plainR1(c));
  });
});

describe('esc and html', () => {
  it('return text without markup characters as it is and escape every one of the five', () => {
    const plain = (v: unknown) =>
      String(v).replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
    for (const v of ['', 'plain', 'a&b', '<<>>', `"'`, `${'x'.repeat(500)}&`, 12, -0.5, true, null, undefined, { toString: () => '<o>' }])
      expect(esc(v)).toBe(plain(v));
    expect(html`${1.5}|${NaN}|${true}|${[['<a>', 2], html`<b>`]}`.value).toBe('1.5|NaN|true|&lt;a&gt;2<b>');
  });
});
