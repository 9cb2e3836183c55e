import type { ServicesFilterName } from '../../site/contract/requests.ts';
import type { IndexRecord } from '../../site/contract/index-record.ts';
import { SERVICE_TIERS, SERVICE_TYPES } from '../../site/contract/common.ts';
import type { Columns } from './columns.ts';
import { isFreshAt } from './freshness.ts';
import { atLeast, atMost, trigramsOf } from './indexes.ts';
import { containingNarrower, enumNarrower, type Narrower, NONE, postingsNarrower, sliceNarrower } from './narrow.ts';
import { networkMatches, parseNetworkFilter } from './networks.ts';
import type { EffectiveQuery } from './query.ts';

/*
 * The filters of GET /api/v1/services, one descriptor each (FILTERS). The query's shape and
 * validation stay ServicesQuerySchema's (site/contract/requests.ts); a descriptor reads the parsed
 * value. From the descriptors come the columns (columns.ts), the indexes (indexes.ts), the row
 * predicate and the candidate sets (filter.ts). Semantics we chose where the contract is terse
 * (parameter texts and unknown-value rules: site/contract/requests.ts, SERVICES_FILTER_UNKNOWN):
 * - scope=directory: inDirectoryAt (`nowMs` is only read for it).
 * - q: every whitespace-separated word must occur (case-insensitive) in name, host, URL or operator.
 * - host and provider: the exact host, case-insensitive. A provider is a host: the same notion as
 *   group=provider (one row per host, run.ts) and the published provider_endpoints (tracked services
 *   on the same host, computed by the pipeline), so provider=h returns provider_endpoints rows.
 * - network: serve/search/networks.ts (exact for known names and CAIP-2 ids, else substring).
 * - mainnet: the published `mainnet` field itself (MAINNET_FILTER_RULE), so `mainnet=false` returns
 *   exactly the services published false; a null field matches neither value.
 * - min_pass_rate / min_payers / max_price_usd / max_terms_changes_90d: services whose value is
 *   unknown (null, NaN in the columns: it fails every comparison) do not match.
 * - listed: discovered services only (reviewed services have no registry listing).
 * - terms_mismatch: the published declared_terms.differs; null declared_terms matches neither value.
 * - listed_but_failing / passing_but_unlisted: the published registry_listing fields; null (never
 *   checked, reviewed services) matches neither value.
 */

/** A filter a query turned on: its row predicate, and its candidate sets from the generation's indexes. */
export interface ActiveFilter {
  test(i: number): boolean;
  narrowers(): Narrower[];
}

/**
 * A filter over a small integer code per record (tri-state booleans: -1 unknown, 0, 1): one Int8Array
 * column, per-value bitsets (EnumBits), predicate `code === value`.
 */
interface EnumFilter {
  kind: 'enum';
  code(rec: IndexRecord): number;
  /** The code the query asks for; undefined: filter off. */
  value(q: EffectiveQuery): number | undefined;
}

/**
 * A bound on a number per record (null: unknown, never matches): one Float64Array column (NaN for
 * null), a sorted RangeIndex, predicate `value >= bound` (min) or `value <= bound` (max).
 */
interface RangeFilter {
  kind: 'range';
  read(rec: IndexRecord): number | null;
  bound: 'min' | 'max';
  value(q: EffectiveQuery): number | undefined;
}

/** A filter of its own kind, over the shared columns and indexes (hosts, networks, tags, text, freshness). */
interface CustomFilter {
  kind: 'custom';
  /** The text value as the filter compares it (the query echo and the cache key carry it so); undefined: drop it. */
  normalize?: (value: string) => string | undefined;
  activate(q: EffectiveQuery, c: Columns, nowMs: number): ActiveFilter | null;
}

export type FilterDescriptor = EnumFilter | RangeFilter | CustomFilter;

const tri = (v: boolean | null): number => (v === null ? -1 : v ? 1 : 0);
const flag = (v: boolean | undefined): number | undefined => (v === undefined ? undefined : v ? 1 : 0);

/**
 * Directory membership now (freshness is a function of time, site/contract/freshness.ts): every other
 * listing criterion passed at publish, and the latest check is fresh at `nowMs`.
 */
function inDirectoryAt(c: Columns, i: number, nowMs: number): boolean {
  return c.criteriaExceptFresh[i] === 1 && isFreshAt(c.lastCheckMs[i]!, c.twoIntervalsMs[i]!, nowMs); // NaN (never checked) → false
}

const scope: CustomFilter = {
  kind: 'custom',
  activate: (q, c, nowMs) =>
    q.scope !== 'directory'
      ? null
      : {
          test: (i) => inDirectoryAt(c, i, nowMs),
          // Fresh iff now - lastCheck <= two intervals; the index holds lastCheck + two intervals, and
          // the 1 ms of slack keeps every fresh row in despite rounding (the predicate decides).
          narrowers: () => [sliceNarrower(atLeast(c.index.freshUntil, nowMs - 1), c.index.freshUntil.bucket, false)],
        },
};

/** host= and provider= both name one exact host, case-insensitive. */
function hostFilter(param: 'host' | 'provider'): CustomFilter {
  return {
    kind: 'custom',
    normalize: (v) => v.toLowerCase(),
    activate(q, c) {
      const host = q[param];
      if (host === undefined) return null;
      const id = c.hostIds.get(host) ?? -1;
      return { test: (i) => c.hostId[i] === id, narrowers: () => [id === -1 ? NONE : postingsNarrower(c.index.hosts, [id])] };
    },
  };
}

/** Decided once per distinct offered-network set (networks.ts), then read per row as one byte. */
const network: CustomFilter = {
  kind: 'custom',
  normalize: (v) => v.toLowerCase(),
  activate(q, c) {
    if (q.network === undefined) return null;
    const f = parseNetworkFilter(q.network);
    const ok = Uint8Array.from(c.networkSets, (set) => (networkMatches(f, set) ? 1 : 0));
    const sets: number[] = [];
    for (let s = 0; s < ok.length; s++) if (ok[s] === 1) sets.push(s);
    return { test: (i) => ok[c.networkSet[i]!] === 1, narrowers: () => [postingsNarrower(c.index.networks, sets)] };
  },
};

const tag: CustomFilter = {
  kind: 'custom',
  activate(q, c) {
    const t = q.tag;
    if (t === undefined) return null;
    const ok = Uint8Array.from(c.tagLists, (list) => (list.includes(t) ? 1 : 0));
    const id = c.index.tagIds.get(t);
    return { test: (i) => ok[c.tagList[i]!] === 1, narrowers: () => [id === undefined ? NONE : postingsNarrower(c.index.tags, [id])] };
  },
};

/** The candidates of one `q` word: its trigrams' postings, or an `indexOf` walk when it is too short for a trigram. */
function wordNarrowers(c: Columns, w: string): Narrower[] {
  const grams = trigramsOf(w);
  if (grams.length === 0) return [containingNarrower(c.n, c.haystack, c.hayStart, w)];
  // Every trigram of the word occurs in a row that contains it; a three-unit word is its one trigram (exact).
  return grams.map((g) => {
    const id = c.index.text.keys.get(g);
    return id === undefined ? NONE : postingsNarrower(c.index.text.postings, [id], w.length === 3);
  });
}

const text: CustomFilter = {
  kind: 'custom',
  normalize: (v) => v.trim().replace(/\s+/g, ' ') || undefined,
  activate(q, c) {
    if (q.q === undefined) return null;
    const words = q.q
      .toLowerCase()
      .replaceAll('\u0000', ' ')
      .split(' ')
      .filter((w) => w !== '');
    if (words.length === 0) return null;
    return {
      test(i) {
        const hay = c.hay[i]!;
        for (const w of words) if (!hay.includes(w)) return false;
        return true;
      },
      narrowers: () => words.flatMap((w) => wordNarrowers(c, w)),
    };
  },
};

/**
 * Every filter of the contract (tsc holds the keys to ServicesFilterName). A new enum or range filter is
 * one entry here and nothing else; a new kind of filter is a CustomFilter over the shared columns.
 */
export const FILTERS = {
  scope,
  tier: {
    kind: 'enum',
    code: (r) => Math.max(0, SERVICE_TIERS.indexOf(r.summary.tier)),
    value: (q) => (q.tier === undefined ? undefined : SERVICE_TIERS.indexOf(q.tier)),
  },
  type: {
    kind: 'enum',
    code: (r) => Math.max(0, SERVICE_TYPES.indexOf(r.summary.type)),
    value: (q) => (q.type === undefined ? undefined : SERVICE_TYPES.indexOf(q.type)),
  },
  mainnet: { kind: 'enum', code: (r) => tri(r.summary.mainnet), value: (q) => flag(q.mainnet) },
  passing: { kind: 'enum', code: (r) => tri(r.search.latest_passed), value: (q) => flag(q.passing) },
  templated: { kind: 'enum', code: (r) => (r.summary.templated_url ? 1 : 0), value: (q) => flag(q.templated) },
  listed: {
    kind: 'enum',
    code: (r) => (r.summary.tier === 'discovered' ? tri(r.search.listed) : -1),
    value: (q) => flag(q.listed),
  },
  terms_mismatch: { kind: 'enum', code: (r) => tri(r.summary.declared_terms?.differs ?? null), value: (q) => flag(q.terms_mismatch) },
  // The published fields themselves (view catalog_standing of the rules file), so filter and field agree.
  listed_but_failing: {
    kind: 'enum',
    code: (r) => tri(r.summary.registry_listing?.listed_but_failing ?? null),
    value: (q) => flag(q.listed_but_failing),
  },
  passing_but_unlisted: {
    kind: 'enum',
    code: (r) => tri(r.summary.registry_listing?.passing_but_unlisted ?? null),
    value: (q) => flag(q.passing_but_unlisted),
  },
  min_pass_rate: { kind: 'range', read: (r) => r.summary.evidence.pass_rate, bound: 'min', value: (q) => q.min_pass_rate },
  min_checks: { kind: 'range', read: (r) => r.summary.evidence.checks_30d, bound: 'min', value: (q) => q.min_checks },
  min_days: { kind: 'range', read: (r) => r.summary.evidence.monitoring_days, bound: 'min', value: (q) => q.min_days },
  min_payers: { kind: 'range', read: (r) => r.search.payers_30d, bound: 'min', value: (q) => q.min_payers },
  max_price_usd: { kind: 'range', read: (r) => r.summary.price_usd, bound: 'max', value: (q) => q.max_price_usd },
  max_terms_changes_90d: { kind: 'range', read: (r) => r.search.terms_changes_90d, bound: 'max', value: (q) => q.max_terms_changes_90d },
  host: hostFilter('host'),
  provider: hostFilter('provider'),
  network,
  tag,
  q: text,
} satisfies Record<ServicesFilterName, FilterDescriptor>;

type Filters = typeof FILTERS;
export type EnumName = { [K in keyof Filters]: Filters[K] extends EnumFilter ? K : never }[keyof Filters];
export type RangeName = { [K in keyof Filters]: Filters[K] extends RangeFilter ? K : never }[keyof Filters];

const names = Object.keys(FILTERS) as (keyof Filters)[];
export const ENUM_NAMES = names.filter((k): k is EnumName => FILTERS[k].kind === 'enum');
export const RANGE_NAMES = names.filter((k): k is RangeName => FILTERS[k].kind === 'range');

/**
 * The enum and range filters' columns (one typed array per filter for the whole generation, row
 * position as index), written record by record while a generation loads: a record's filter values
 * go straight into them, never into an allocation of their own.
 */
export class FilterColumnWriter {
  enums = {} as Record<EnumName, Int8Array>;
  ranges = {} as Record<RangeName, Float64Array>;
  private capacity: number;

  /** `capacity`: the expected row count (the columns grow past it when a load brings more). */
  constructor(capacity: number) {
    this.capacity = Math.max(1, capacity);
    for (const name of ENUM_NAMES) this.enums[name] = new Int8Array(this.capacity);
    for (const name of RANGE_NAMES) this.ranges[name] = new Float64Array(this.capacity);
  }

  /** Row `i`'s values, from its record (NaN: unknown). */
  write(i: number, rec: IndexRecord): void {
    if (i >= this.capacity) this.grow(Math.max(i + 1, this.capacity * 2));
    for (const name of ENUM_NAMES) this.enums[name][i] = (FILTERS[name] as EnumFilter).code(rec);
    for (const name of RANGE_NAMES) this.ranges[name][i] = (FILTERS[name] as RangeFilter).read(rec) ?? NaN;
  }

  /** The columns of rows `[0, n)` (copied only when the capacity was not `n`). */
  columns(n: number): { enums: Record<EnumName, Int8Array>; ranges: Record<RangeName, Float64Array> } {
    if (n !== this.capacity) this.grow(n);
    return { enums: this.enums, ranges: this.ranges };
  }

  private grow(capacity: number): void {
    for (const name of ENUM_NAMES) this.enums[name] = resized(this.enums[name], new Int8Array(capacity));
    for (const name of RANGE_NAMES) this.ranges[name] = resized(this.ranges[name], new Float64Array(capacity));
    this.capacity = capacity;
  }
}

function resized<T extends Int8Array | Float64Array>(from: T, to: T): T {
  to.set(from.length > to.length ? from.subarray(0, to.length) : from);
  return to;
}

/**
 * A query's filters over one generation, as the row predicate reads them (filter.ts rowMatches): the
 * enum and range filters as parallel arrays of columns and values (a few predictable comparisons
 * per row, no call), the custom ones as their ActiveFilter; and every filter's candidate sets.
 */
export interface QueryFilters {
  enumCols: Int8Array[];
  enumValues: number[];
  /** A range filter passes when `lows[k] <= value <= highs[k]` (a min bound has high +Infinity, a max bound low -Infinity; NaN fails). */
  rangeCols: Float64Array[];
  lows: number[];
  highs: number[];
  custom: ActiveFilter[];
  narrowers(): Narrower[];
}

/** The filters `q` turns on over one generation's columns (`nowMs`: only scope=directory reads it). */
export function queryFilters(c: Columns, q: EffectiveQuery, nowMs: number): QueryFilters {
  const f: QueryFilters = { enumCols: [], enumValues: [], rangeCols: [], lows: [], highs: [], custom: [], narrowers: () => [] };
  const sets: (() => Narrower)[] = [];
  for (const name of names) {
    const d: FilterDescriptor = FILTERS[name];
    if (d.kind === 'custom') {
      const a = d.activate(q, c, nowMs);
      if (a) f.custom.push(a);
      continue;
    }
    const v = d.value(q);
    if (v === undefined) continue;
    if (d.kind === 'enum') {
      const ix = c.index.enums[name as EnumName];
      f.enumCols.push(c.enums[name as EnumName]);
      f.enumValues.push(v);
      sets.push(() => enumNarrower(ix, v));
    } else {
      const ix = c.index.ranges[name as RangeName];
      f.rangeCols.push(c.ranges[name as RangeName]);
      f.lows.push(d.bound === 'min' ? v : -Infinity);
      f.highs.push(d.bound === 'min' ? Infinity : v);
      sets.push(() => sliceNarrower(d.bound === 'min' ? atLeast(ix, v) : atMost(ix, v), ix.bucket));
    }
  }
  f.narrowers = () => [...sets.map((make) => make()), ...f.custom.flatMap((a) => a.narrowers())];
  return f;
}

/** The query's text filters as they compare them (FILTERS' `normalize`), in place. */
export function normalizeFilters(q: EffectiveQuery): void {
  const rec = q as Record<string, unknown>;
  for (const name of names) {
    const d: FilterDescriptor = FILTERS[name];
    const v = rec[name];
    if (d.kind !== 'custom' || !d.normalize || typeof v !== 'string') continue;
    const out = d.normalize(v);
    if (out === undefined) delete rec[name];
    else rec[name] = out;
  }
}
