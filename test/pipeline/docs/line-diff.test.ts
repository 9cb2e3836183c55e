import { describe, expect, it } from 'vitest';
import { endpointPathsOf, lineDiff, NEEDS_REVIEW_RULE, reviewChange, reviewTokens } from '../../../pipeline/docs/index.ts';

describe('line diff', () => {
  it('reports changed lines in document order, common lines skipped', () => {
    const d = lineDiff('a\nb\nc\nd', 'a\nB\nc\nd\ne');
    expect(d.entries).toEqual([
      { op: '-', line: 'b' },
      { op: '+', line: 'B' },
      { op: '+', line: 'e' },
    ]);
    expect(d.added).toEqual(['B', 'e']);
    expect(d.removed).toEqual(['b']);
    expect(d.truncated).toBe(false);
  });

  it('is bounded: at most 50 entries, long lines capped, counts complete', () => {
    const before = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 200 }, (_, i) => `LINE ${i} ${'x'.repeat(i === 0 ? 1000 : 0)}`).join('\n');
    const d = lineDiff(before, after);
    expect(d.entries).toHaveLength(50);
    expect(d.truncated).toBe(true);
    expect(d.added).toHaveLength(200);
    expect(d.removed).toHaveLength(200);
    expect(Math.max(...d.entries.map((e) => e.line.length))).toBeLessThanOrEqual(300);
  });

  it('falls back to a multiset diff on huge rewrites', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => (i % 2 ? `old ${i}` : `new ${i}`)).join('\n');
    const d = lineDiff(before, after, { maxLcsCells: 1000 });
    expect(d.added).toHaveLength(1500);
    expect(d.removed).toHaveLength(1500);
  });
});

describe('needs_review rule', () => {
  const paths = endpointPathsOf(['https://api.example.com/v1/forecast', 'https://api.example.com/']);

  it('has a published description', () => {
    expect(NEEDS_REVIEW_RULE.id).toBe('docs-review/1');
    expect(NEEDS_REVIEW_RULE.description).toMatch(/price/);
  });

  it('flags price, network, endpoint, auth and deprecation changes', () => {
    const cases: Array<[string, string, string]> = [
      ['Price: $0.01 per call.', 'Price: $0.02 per call.', 'price'],
      ['Costs 10000 atomic units per request', 'Costs 20000 atomic units per request', 'price'],
      ['Pay with USDC on Base.', 'Pay with USDC on Base or Solana.', 'network'],
      ['Networks: eip155:8453', 'Networks: eip155:137', 'network'],
      ['Call GET /v1/forecast?city=Paris', 'Call GET /v2/forecast?city=Paris', 'endpoint'],
      ['No key needed.', 'Send an API key in the X-API-Key header.', 'auth'],
      ['Use /v1/forecast for daily data.', 'Use /v1/forecast for daily data (deprecated, sunset 2027-01-01).', 'deprecation'],
    ];
    for (const [before, after, cat] of cases) {
      const d = lineDiff(before, after);
      const v = reviewChange(d.removed, d.added, paths);
      expect(v.needs_review, `${before} → ${after}`).toBe(true);
      expect(v.categories, `${before} → ${after}`).toContain(cat);
    }
  });

  it('does not flag typo fixes or rewording that keeps the listed terms', () => {
    const cases: Array<[string, string]> = [
      ['Teh service returns weather forcasts.', 'The service returns weather forecasts.'],
      ['Price: $0.01 per call, payed in USDC on Base.', 'Price: $0.01 per call, paid in USDC on Base.'],
      ['See the base URL below.', 'See the base url shown below.'],
      ['Our database is fast.', 'Our database is very fast.'],
    ];
    for (const [before, after] of cases) {
      const d = lineDiff(before, after);
      expect(reviewChange(d.removed, d.added, paths).needs_review, `${before} → ${after}`).toBe(false);
    }
  });

  // Pathological lines must finish (a backtracking pattern would hang until the test timeout) and
  // still be judged; speed itself is for benchmarks, tests never time anything.
  it('finishes on pathological lines and still flags the price change', () => {
    const r = reviewChange(
      [`price ${'1,'.repeat(200_000)}`, `$${'9'.repeat(100_000)}`],
      ['/a'.repeat(100_000), `usd ${'1'.repeat(100_000)}`],
      paths,
    );
    expect(r.needs_review).toBe(true);
  });

  it('names the terms that differ', () => {
    expect(reviewTokens('Price $0.01 on base', [])).toEqual(expect.arrayContaining(['price:$0.01', 'network:base', 'price:price']));
    const v = reviewChange(['Price: $0.01'], ['Price: $0.02'], []);
    expect(v.terms).toEqual(['price:$0.01', 'price:$0.02', 'price:0.01', 'price:0.02']);
  });
});
