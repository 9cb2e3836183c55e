import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVICE_TIERS, SERVICE_TYPES, SORTS } from '../../../site/contract/common.ts';
import type { Columns } from '../../../serve/search/columns.ts';
import { compileGeneration } from '../../../serve/search/compile.ts';
import { matchList, scanList } from '../../../serve/search/filter.ts';
import { presort } from '../../../serve/search/order.ts';
import { parseServicesQuery, type Sort } from '../../../serve/search/query.ts';
import type { SearchRow } from '../../../serve/search/row.ts';
import { summaryOf } from '../../../serve/search/present.ts';
import { runSearch } from '../../../serve/search/run.ts';
import { buildService, generateSpecs, type ServiceSpec } from '../fixture.ts';

/**
 * The search property: for random generations and random queries over every filter, the indexed
 * search (matchList, the default of runSearch) returns exactly what the reference scan returns —
 * the same matching rows, the same total and the same page for every sort, offset, limit and group.
 */
const NOW = new Date('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;

interface Generation {
  rows: SearchRow[];
  columns: Columns;
  orders: Record<Sort, Int32Array>;
}

function generation(specs: ServiceSpec[]): Generation {
  const records = specs.map((s) => buildService(s, NOW).record);
  const { rows, columns } = compileGeneration(records);
  return { rows, columns, orders: presort(rows, columns) };
}

const NAMES = [
  'Weather Pro',
  'weather',
  'Search One',
  'ÜBER Wetter',
  'İstanbul API',
  'ΟΔΟΣ Σ',
  '日本語サービス',
  'emoji 😀 svc',
  'ǅungla',
  'a',
  'AAA aaa',
];
const HOSTS = ['api.weather.test', 'search.test', 'eu.search.test', 'x.test', 'ünï.test'];
const TAGS = ['weather', 'search', 'web', 'ai', 'a-b'];
const NETWORKS = [
  'eip155:8453',
  'eip155:84532',
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'base',
  'base-sepolia',
  'eip155:1',
  'cosmos:hub-4',
];
const maybeNull = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 4 });
/** Few distinct values, so bounds land on equal values and bucket edges. */
const smallNumber = fc.constantFrom(0, 0.001, 0.01, 0.05, 0.5, 1, 2, 3, 10);

const spec = (i: number): fc.Arbitrary<ServiceSpec> =>
  fc.record({
    id: fc.constant(i % 7 === 0 ? `svc_s${i}` : `cand_${i}`),
    tier: fc.constantFrom(...SERVICE_TIERS),
    type: fc.constantFrom(...SERVICE_TYPES),
    name: fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: 'grapheme', maxLength: 12 })),
    host: fc.constantFrom(...HOSTS),
    operator: maybeNull(fc.constantFrom('Sky Corp', 'ACME', 'ß-Werk')),
    tags: fc.subarray(TAGS, { maxLength: 3 }),
    price: maybeNull(smallNumber),
    networks: fc.subarray(NETWORKS, { maxLength: 3 }),
    mainnet: maybeNull(fc.boolean()),
    checks30d: fc.integer({ min: 0, max: 40 }),
    passed30d: fc.integer({ min: 0, max: 40 }),
    monitoringDays: fc.integer({ min: 0, max: 60 }),
    lastCheckAgoHours: maybeNull(fc.constantFrom(0, 0.5, 1, 2, 3, 47.9, 48, 48.1, 400, 2000)),
    intervalHours: fc.constantFrom(1 as const, 24 as const, 168 as const, 720 as const),
    payers: maybeNull(fc.integer({ min: 0, max: 30 })),
    listed: maybeNull(fc.boolean()),
    latestPassed: maybeNull(fc.boolean()),
    templated: fc.boolean(),
    termsChanges90d: maybeNull(fc.integer({ min: 0, max: 4 })),
    criteriaExceptFresh: fc.boolean(),
  });

const specsArb = fc.integer({ min: 0, max: 300 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => spec(i))));

/** A `q`: a piece of some row's haystack (any case), or free text (unicode, spaces, NUL, empty). */
const qArb = fc.oneof(
  fc
    .record({ row: fc.nat(), start: fc.nat(), len: fc.integer({ min: 1, max: 12 }), upper: fc.boolean(), second: fc.boolean() })
    .map((p) => ({ piece: p })),
  fc.oneof(
    fc.constantFrom('', ' ', 'a', 'ab', 'API', 'weather  pro', 'é', 'İ', 'σ', 'ς', 'ß', 'x\u0000y', '😀', '.test', 'zzz-none'),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
  ),
);

/** Every filter's values (a query keeps a few of them: with all at once nearly every result is empty). */
const FILTERS = {
  q: qArb,
  tier: fc.constantFrom(...SERVICE_TIERS),
  type: fc.constantFrom(...SERVICE_TYPES),
  host: fc.constantFrom(...HOSTS, 'SEARCH.TEST', 'none.test'),
  provider: fc.constantFrom(...HOSTS, 'none.test'),
  network: fc.constantFrom('base', 'eip155:8453', 'eip155', 'sepolia', '8453', 'solana', 'SOLANA', 'cosmos:hub-4', 'hub', 'none'),
  mainnet: fc.boolean(),
  passing: fc.boolean(),
  templated: fc.boolean(),
  min_pass_rate: fc.constantFrom(0, 0.25, 0.5, 0.8, 0.95, 1),
  min_checks: fc.integer({ min: 0, max: 45 }),
  min_days: fc.integer({ min: 0, max: 65 }),
  min_payers: fc.integer({ min: 0, max: 35 }),
  tag: fc.constantFrom(...TAGS, 'none'),
  max_price_usd: smallNumber,
  max_terms_changes_90d: fc.integer({ min: 0, max: 5 }),
  listed: fc.boolean(),
};
const FILTER_NAMES = Object.keys(FILTERS) as (keyof typeof FILTERS)[];

const queryArb = fc
  .record({
    values: fc.record(FILTERS),
    keep: fc.subarray(FILTER_NAMES, { maxLength: 4 }),
    rest: fc.record(
      {
        scope: fc.constantFrom('index', 'directory'),
        group: fc.constant('provider'),
        sort: fc.constantFrom(...SORTS),
        limit: fc.integer({ min: 1, max: 100 }),
        offset: fc.integer({ min: 0, max: 40 }),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ values, keep, rest }): RawQuery => ({ ...rest, ...Object.fromEntries(keep.map((k) => [k, values[k]])) }));

type RawQuery = Record<string, unknown>;

/** The raw query with its `q` piece cut from the generation's haystacks. */
function resolve(raw: RawQuery, g: Generation): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  const q = raw.q as { piece: { row: number; start: number; len: number; upper: boolean; second: boolean } } | string | undefined;
  if (typeof q === 'object') {
    if (g.rows.length === 0) delete out.q;
    else {
      const p = q.piece;
      const hay = g.columns.hay[p.row % g.rows.length]!;
      const start = hay.length ? p.start % hay.length : 0;
      let text = hay.slice(start, start + p.len);
      if (p.upper) text = text.toUpperCase();
      if (p.second) text = `${text} ${hay.slice(0, 3)}`;
      out.q = text;
    }
  }
  return out;
}

/** How many compared queries matched something (the property is only worth it if many do). */
const seen = { compared: 0, nonEmpty: 0 };

function compare(g: Generation, raw: Record<string, unknown>, nowMs: number): void {
  let q: ReturnType<typeof parseServicesQuery>;
  try {
    q = parseServicesQuery(raw);
  } catch {
    return; // not a valid query (the parameter tests cover rejections)
  }
  seen.compared++;
  const n = g.rows.length;
  const scanned = new Int32Array(n);
  const indexed = new Int32Array(n);
  const a = scanList(g.rows, g.columns, q, nowMs, scanned);
  const b = matchList(g.rows, g.columns, q, nowMs, indexed);
  expect([...indexed.subarray(0, b)]).toEqual([...scanned.subarray(0, a)]);
  if (a > 0) seen.nonEmpty++;
  const ref = runSearch(g.rows, g.columns, g.orders, q, nowMs, scanList);
  const got = runSearch(g.rows, g.columns, g.orders, q, nowMs);
  expect(got.total).toBe(ref.total);
  expect(got.page.map((r) => r.id)).toEqual(ref.page.map((r) => r.id));
}

/** The query instant moves around the generation's, so freshness changes under the index. */
const nowArb = fc.constantFrom(0, 1, -1, 0.5 * HOUR, 47 * HOUR, 48 * HOUR, 100 * HOUR, 2000 * HOUR);

describe('indexed search = reference scan', () => {
  it('random generations, random queries over every filter: same rows, total and page', () => {
    fc.assert(
      fc.property(specsArb, fc.array(fc.tuple(queryArb, nowArb), { minLength: 1, maxLength: 12 }), (specs, queries) => {
        const g = generation(specs);
        for (const [raw, dt] of queries) compare(g, resolve(raw, g), NOW.getTime() + dt);
      }),
      { numRuns: 120 },
    );
    expect(seen.nonEmpty).toBeGreaterThan(seen.compared * 0.4);
  }, 60_000);

  it('a larger generation (buckets of many rows per range index): same rows, total and page', () => {
    const g = generation(generateSpecs(3000));
    fc.assert(
      fc.property(queryArb, nowArb, (raw, dt) => compare(g, resolve(raw, g), NOW.getTime() + dt)),
      { numRuns: 400 },
    );
    // Most queries match something, so a narrowing that drops rows shows.
    expect(seen.nonEmpty).toBeGreaterThan(seen.compared * 0.4);
  });

  it('the index narrows: a selective query is answered without testing every row', () => {
    const g = generation(generateSpecs(3000));
    const q = parseServicesQuery({ scope: 'index', q: 'api 2995' });
    const list = new Int32Array(g.rows.length);
    const len = matchList(g.rows, g.columns, q, NOW.getTime(), list);
    expect(summaryOf(g.rows[list[0]!]!).name).toBe('Weather API 2995');
    expect(len).toBe(1);
    // Trigram postings of `2999` hold only rows whose haystack has it.
    const ix = g.columns.index.text;
    const id = ix.keys.get('299'.charCodeAt(0) * 4294967296 + '299'.charCodeAt(1) * 65536 + '299'.charCodeAt(2))!;
    expect(ix.postings.offsets[id + 1]! - ix.postings.offsets[id]!).toBeLessThan(g.rows.length / 10);
  });
});
