import { addRows, type Bits, buildPostings, popcount, type Postings, wordsFor } from './bitset.ts';
import type { Columns } from './columns.ts';
import { ENUM_NAMES, type EnumName, RANGE_NAMES, type RangeName } from './filters.ts';

/**
 * Search indexes built once when a generation loads, so a search narrows its candidates without
 * scanning every row (filter.ts applies them, then the one row predicate decides). Each index
 * yields a superset of the rows its filter accepts — most yield exactly that set — so results are
 * those of a plain scan (the search property test compares the two):
 * - per-value bitsets for the column of every enum filter (filters.ts: tier, type, mainnet, …);
 * - sorted values with bucketed prefix bitsets for the column of every range filter (min_payers,
 *   max_price_usd, …) and for freshness: the rows whose
 *   value is >= x (or <= x) are found by binary search, as whole buckets plus one partial bucket;
 * - posting lists by host, by tag and by distinct network set;
 * - trigram posting lists over the lower-cased haystacks for `q` (a substring of a row's haystack
 *   contains every trigram of the word, so the lists only narrow; the substring test decides).
 */
export interface SearchIndex {
  /** Per-value bitsets of every enum filter's column, and the sorted values of every range filter's (filters.ts). */
  enums: Record<EnumName, EnumBits>;
  ranges: Record<RangeName, RangeIndex>;
  /**
   * Directory membership: `lastCheckMs + twoIntervalsMs` of the rows whose other criteria passed
   * (NaN otherwise). A row is fresh at `now` iff that instant is not before `now`.
   */
  freshUntil: RangeIndex;
  /** Rows by `Columns.hostId`. */
  hosts: Postings;
  tagIds: Map<string, number>;
  tags: Postings;
  /** Rows by `Columns.networkSet`. */
  networks: Postings;
  text: TextIndex;
}

/** Rows by the value of a small integer column. */
export interface EnumBits {
  bits: Map<number, Bits>;
  counts: Map<number, number>;
}

export function buildEnumBits(n: number, col: ArrayLike<number>): EnumBits {
  const bits = new Map<number, Bits>();
  for (let i = 0; i < n; i++) {
    const v = col[i]!;
    let b = bits.get(v);
    if (!b) {
      b = new Uint32Array(wordsFor(n));
      bits.set(v, b);
    }
    b[i >>> 5]! |= 1 << (i & 31);
  }
  const counts = new Map<number, number>();
  for (const [v, b] of bits) counts.set(v, popcount(b));
  return { bits, counts };
}

/** Buckets per numeric column: a bound costs one bitset copy plus at most n / RANGE_BUCKETS single rows. */
const RANGE_BUCKETS = 32;

/**
 * A numeric column sorted: `values` ascending (NaN, unknown, left out) and `rows` in that order;
 * `prefix` holds `buckets + 1` bitsets of `words` words each, bitset j = the rows of rank < j × bucket.
 */
export interface RangeIndex {
  n: number;
  values: Float64Array;
  rows: Int32Array;
  bucket: number;
  buckets: number;
  words: number;
  prefix: Uint32Array;
}

export function buildRange(n: number, col: Float64Array): RangeIndex {
  let m = 0;
  for (let i = 0; i < n; i++) if (!Number.isNaN(col[i]!)) m++;
  const rows = new Int32Array(m);
  for (let i = 0, k = 0; i < n; i++) if (!Number.isNaN(col[i]!)) rows[k++] = i;
  // A total order even for infinities (a subtraction would give NaN for two equal infinities).
  rows.sort((a, b) => (col[a]! < col[b]! ? -1 : col[a]! > col[b]! ? 1 : a - b));
  const values = Float64Array.from(rows, (i) => col[i]!);
  const bucket = Math.max(1, Math.ceil(m / RANGE_BUCKETS));
  const buckets = Math.ceil(m / bucket);
  const words = wordsFor(n);
  const prefix = new Uint32Array((buckets + 1) * words);
  for (let j = 1; j <= buckets; j++) {
    const b = prefix.subarray(j * words, (j + 1) * words);
    b.set(prefix.subarray((j - 1) * words, j * words));
    addRows(b, rows, (j - 1) * bucket, Math.min(m, j * bucket));
  }
  return { n, values, rows, bucket, buckets, words, prefix };
}

/** The first rank whose value passes `test` (which must be false, then true, along `values`). */
function firstRank(values: Float64Array, test: (v: number) => boolean): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(values[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Ranks [from, to) of a range index: how many, and written as a bitset into `out`. */
export interface RankSlice {
  size: number;
  fill(out: Bits): void;
}

/** The rows whose value is >= x (the comparison of the filter itself; NaN never passes). */
export function atLeast(r: RangeIndex, x: number): RankSlice {
  const from = firstRank(r.values, (v) => v >= x);
  return rankSlice(r, from, r.values.length);
}

/** The rows whose value is <= x. */
export function atMost(r: RangeIndex, x: number): RankSlice {
  return rankSlice(
    r,
    0,
    firstRank(r.values, (v) => !(v <= x)),
  );
}

function rankSlice(r: RangeIndex, from: number, to: number): RankSlice {
  return {
    size: to - from,
    fill(out) {
      const w = r.words;
      const p = r.prefix;
      if (from === 0) {
        // Whole buckets below `to`, then the rest of the partial bucket.
        const j = Math.floor(to / r.bucket);
        out.set(p.subarray(j * w, (j + 1) * w));
        addRows(out, r.rows, j * r.bucket, to);
        return;
      }
      // Whole buckets from the first boundary at or after `from` up to the end, plus the rows before it.
      const j = Math.ceil(from / r.bucket);
      if (j >= r.buckets || to < r.values.length) {
        out.fill(0);
        addRows(out, r.rows, from, to);
        return;
      }
      const all = r.buckets * w;
      const below = j * w;
      for (let k = 0; k < w; k++) out[k] = p[all + k]! & ~p[below + k]!;
      addRows(out, r.rows, from, j * r.bucket);
    },
  };
}

/**
 * Trigram posting lists over every row's lower-cased haystack (three UTF-16 code units as one
 * number key; each row listed once per distinct trigram).
 */
export interface TextIndex {
  keys: Map<number, number>;
  postings: Postings;
}

const trigramAt = (s: string, k: number): number => s.charCodeAt(k) * 4294967296 + s.charCodeAt(k + 1) * 65536 + s.charCodeAt(k + 2);

/** The distinct trigram keys of a word (empty when it is shorter than three code units). */
export function trigramsOf(word: string): number[] {
  const out = new Set<number>();
  for (let k = 0; k + 3 <= word.length; k++) out.add(trigramAt(word, k));
  return [...out];
}

/** `haystack` holds every row's part followed by a NUL; row i's part starts at `hayStart[i]`. */
export function buildTextIndex(n: number, haystack: string, hayStart: Int32Array): TextIndex {
  const keys = new Map<number, number>();
  let lastRow = new Int32Array(1024).fill(-1);
  let pairRows = new Int32Array(Math.max(1024, n * 16));
  let pairKeys = new Int32Array(pairRows.length);
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    const end = hayStart[i + 1]! - 1; // before the NUL
    for (let k = hayStart[i]!; k + 3 <= end; k++) {
      const key = trigramAt(haystack, k);
      let id = keys.get(key);
      if (id === undefined) {
        id = keys.size;
        keys.set(key, id);
        if (id >= lastRow.length) {
          const grown = new Int32Array(lastRow.length * 2).fill(-1);
          grown.set(lastRow);
          lastRow = grown;
        }
      }
      if (lastRow[id] === i) continue;
      lastRow[id] = i;
      if (pairs === pairRows.length) {
        const r = new Int32Array(pairs * 2);
        r.set(pairRows);
        pairRows = r;
        const kk = new Int32Array(pairs * 2);
        kk.set(pairKeys);
        pairKeys = kk;
      }
      pairRows[pairs] = i;
      pairKeys[pairs++] = id;
    }
  }
  return { keys, postings: buildPostings(keys.size, pairRows, pairKeys, pairs) };
}

/** Rows by tag (a row is listed under each distinct tag of its list). */
function tagPostings(n: number, tagList: Int32Array, tagLists: string[][]): { ids: Map<string, number>; postings: Postings } {
  const ids = new Map<string, number>();
  const keysOfList = tagLists.map((list) =>
    [...new Set(list)].map((t) => {
      let id = ids.get(t);
      if (id === undefined) {
        id = ids.size;
        ids.set(t, id);
      }
      return id;
    }),
  );
  const pairRows: number[] = [];
  const pairKeys: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const k of keysOfList[tagList[i]!]!) {
      pairRows.push(i);
      pairKeys.push(k);
    }
  }
  return { ids, postings: buildPostings(ids.size, pairRows, pairKeys, pairRows.length) };
}

/** Built from the columns (columns.ts) at the end of their construction. */
export function buildSearchIndex(c: Omit<Columns, 'index' | 'scratch'>): SearchIndex {
  const n = c.n;
  const enums = {} as Record<EnumName, EnumBits>;
  const ranges = {} as Record<RangeName, RangeIndex>;
  for (const name of ENUM_NAMES) enums[name] = buildEnumBits(n, c.enums[name]);
  for (const name of RANGE_NAMES) ranges[name] = buildRange(n, c.ranges[name]);
  const freshUntil = Float64Array.from(c.lastCheckMs, (v, i) => (c.criteriaExceptFresh[i] === 1 ? v + c.twoIntervalsMs[i]! : NaN));
  const allRows = Int32Array.from({ length: n }, (_, i) => i);
  const tags = tagPostings(n, c.tagList, c.tagLists);
  return {
    enums,
    ranges,
    freshUntil: buildRange(n, freshUntil),
    hosts: buildPostings(c.hosts.length, allRows, c.hostId, n),
    tagIds: tags.ids,
    tags: tags.postings,
    networks: buildPostings(c.networkSets.length, allRows, c.networkSet, n),
    text: buildTextIndex(n, c.haystack, c.hayStart),
  };
}
