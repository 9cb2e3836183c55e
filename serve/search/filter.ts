import type { Columns } from './columns.ts';
import { TYPES } from './columns.ts';
import { addPosting, andInto, type Bits, type Postings, popcount, postingSize, wordsFor } from './bitset.ts';
import { atLeast, atMost, type EnumBits, type RankSlice, trigramsOf } from './indexes.ts';
import { type NetworkFilter, networkMatches, parseNetworkFilter } from './networks.ts';
import { isFreshAt } from './freshness.ts';
import type { EffectiveQuery } from './query.ts';
import type { SearchRow } from './row.ts';

/**
 * Directory membership now (freshness is a function of time, site/contract/freshness.ts): every other
 * listing criterion passed at publish, and the latest check is fresh at `nowMs`.
 */
export function inDirectoryAt(c: Columns, i: number, nowMs: number): boolean {
  return c.criteriaExceptFresh[i] === 1 && isFreshAt(c.lastCheckMs[i]!, c.twoIntervalsMs[i]!, nowMs); // NaN (never checked) → false
}

/**
 * A query's filters as the row predicate reads them, computed once per search: flags and values as
 * plain numbers (-1 / -2: filter off), so the predicate stays a few predictable branches per row.
 */
export interface RowFilter {
  dir: boolean;
  tierV: number;
  typeV: number;
  mainnetV: number;
  passingV: number;
  templatedV: number;
  listedV: number;
  hasMinPass: boolean;
  minPass: number;
  hasMinChecks: boolean;
  minChecks: number;
  hasMinDays: boolean;
  minDays: number;
  hasMinPayers: boolean;
  minPayers: number;
  hasMaxPrice: boolean;
  maxPrice: number;
  hasMaxTerms: boolean;
  maxTerms: number;
  /** The one host id the host and provider filters accept (-1: none, -2: neither filter is set). */
  hostV: number;
  /** By `Columns.networkSets` / `tagLists` id: 1 = that set passes the network / tag filter; null: filter off. */
  networkOk: Uint8Array | null;
  tag: string | undefined;
  tagOk: Uint8Array | null;
  /** The `q` words, lower-cased; every one must occur in the row's haystack. */
  words: string[];
}

export function rowFilter(c: Columns, q: EffectiveQuery): RowFilter {
  const h = q.host;
  const p = q.provider;
  // Both are the exact host: they accept one host, or none when both are set and differ.
  const host = h ?? p;
  const tag = q.tag;
  const hostV = host === undefined ? -2 : h !== undefined && p !== undefined && h !== p ? -1 : (c.hostIds.get(host) ?? -1);
  return {
    dir: q.scope === 'directory',
    tierV: q.tier === undefined ? -1 : q.tier === 'reviewed' ? 0 : 1,
    typeV: q.type === undefined ? -1 : TYPES.indexOf(q.type),
    mainnetV: q.mainnet === undefined ? -2 : q.mainnet ? 1 : 0,
    passingV: q.passing === undefined ? -2 : q.passing ? 1 : 0,
    templatedV: q.templated === undefined ? -1 : q.templated ? 1 : 0,
    listedV: q.listed === undefined ? -2 : q.listed ? 1 : 0,
    hasMinPass: q.min_pass_rate !== undefined,
    minPass: q.min_pass_rate ?? 0,
    hasMinChecks: q.min_checks !== undefined,
    minChecks: q.min_checks ?? 0,
    hasMinDays: q.min_days !== undefined,
    minDays: q.min_days ?? 0,
    hasMinPayers: q.min_payers !== undefined,
    minPayers: q.min_payers ?? 0,
    hasMaxPrice: q.max_price_usd !== undefined,
    maxPrice: q.max_price_usd ?? 0,
    hasMaxTerms: q.max_terms_changes_90d !== undefined,
    maxTerms: q.max_terms_changes_90d ?? 0,
    hostV,
    networkOk: q.network === undefined ? null : networkOk(c, parseNetworkFilter(q.network)),
    tag,
    tagOk: tag === undefined ? null : Uint8Array.from(c.tagLists, (list) => (list.includes(tag) ? 1 : 0)),
    words:
      q.q === undefined
        ? []
        : q.q
            .toLowerCase()
            .replaceAll('\u0000', ' ')
            .split(' ')
            .filter((w) => w !== ''),
  };
}

/** The network filter on each distinct offered-network set (networks.ts decides). */
function networkOk(c: Columns, f: NetworkFilter): Uint8Array {
  const ok = new Uint8Array(c.networkSets.length);
  for (let s = 0; s < ok.length; s++) ok[s] = networkMatches(f, c.networkSets[s]!) ? 1 : 0;
  return ok;
}

/**
 * THE filter predicate of GET /api/v1/services: does row i match? Both the reference scan and the
 * indexed search decide with it (the indexes only choose which rows it is asked about). Semantics
 * we chose where the contract is terse (parameter texts: site/contract/requests.ts):
 * - scope=directory: inDirectoryAt (`nowMs` is only read for it).
 * - q: every whitespace-separated word must occur (case-insensitive) in name, host, URL or operator.
 * - host and provider: the exact host, case-insensitive. A provider is a host: the same notion as
 *   group=provider (one row per host, run.ts) and the published provider_endpoints (tracked services
 *   on the same host, computed by the pipeline), so provider=h returns provider_endpoints rows.
 * - network: serve/search/networks.ts (exact for known names and CAIP-2 ids, else substring).
 * - mainnet: the published `mainnet` field (true / false); a null field matches neither value.
 * - min_pass_rate / min_payers / max_price_usd / max_terms_changes_90d: services whose value is
 *   unknown (null, NaN in the columns: it fails every comparison) do not match.
 * - listed: discovered services only (reviewed services have no registry listing).
 */
export function rowMatches(c: Columns, f: RowFilter, nowMs: number, i: number): boolean {
  if (f.dir && !inDirectoryAt(c, i, nowMs)) return false;
  if (f.tierV >= 0 && c.tier[i] !== f.tierV) return false;
  if (f.typeV >= 0 && c.type[i] !== f.typeV) return false;
  if (f.mainnetV >= 0 && c.mainnet[i] !== f.mainnetV) return false;
  if (f.passingV >= 0 && c.latestPassed[i] !== f.passingV) return false;
  if (f.templatedV >= 0 && c.templated[i] !== f.templatedV) return false;
  if (f.listedV >= 0 && (c.tier[i] !== 1 || c.listed[i] !== f.listedV)) return false;
  if (f.hasMinPass && !(c.passRate[i]! >= f.minPass)) return false;
  if (f.hasMinChecks && !(c.checks30d[i]! >= f.minChecks)) return false;
  if (f.hasMinDays && !(c.monitoringDays[i]! >= f.minDays)) return false;
  if (f.hasMinPayers && !(c.payers[i]! >= f.minPayers)) return false;
  if (f.hasMaxPrice && !(c.price[i]! <= f.maxPrice)) return false;
  if (f.hasMaxTerms && !(c.termsChanges90d[i]! <= f.maxTerms)) return false;
  if (f.hostV !== -2 && c.hostId[i] !== f.hostV) return false;
  if (f.networkOk !== null && f.networkOk[c.networkSet[i]!] !== 1) return false;
  if (f.tagOk !== null && f.tagOk[c.tagList[i]!] !== 1) return false;
  if (f.words.length > 0) {
    const hay = c.hay[i]!;
    for (const w of f.words) if (!hay.includes(w)) return false;
  }
  return true;
}

/**
 * The reference search: the predicate on every row, in row order. Writes the matching positions to
 * the start of `list` (length >= rows) and returns how many. The indexed matchList must return
 * exactly the same (the search property test); it is also what matchList does when no filter can
 * narrow the candidates. (`_rows`: every filter reads the columns; the parameter keeps the
 * signature runSearch calls both with.)
 */
export function scanList(_rows: SearchRow[], c: Columns, q: EffectiveQuery, nowMs: number, list: Int32Array = new Int32Array(c.n)): number {
  return scanRows(c, rowFilter(c, q), nowMs, list);
}

function scanRows(c: Columns, f: RowFilter, nowMs: number, list: Int32Array): number {
  let len = 0;
  for (let i = 0; i < c.n; i++) if (rowMatches(c, f, nowMs, i)) list[len++] = i;
  return len;
}

/**
 * One filter's candidate rows from an index: `size` is how many (exact, or an upper bound), `cost`
 * the single rows written to build the set (0 for a precomputed bitset, `shared`), `fill` writes
 * the set to a bitset. Every set contains every row the filter accepts.
 */
interface Narrower {
  size: number;
  cost: number;
  /**
   * The set is exactly the rows the filter accepts (not only a superset): when every active
   * filter's set is exact and applied, the intersection is the answer and no row is tested.
   */
  exact: boolean;
  shared?: Bits;
  fill?: (out: Bits) => void;
}

/** A filter no row passes (an unknown host, tag or trigram). */
const NONE: Narrower = { size: 0, cost: 0, exact: true };

function enumNarrower(e: EnumBits, v: number): Narrower {
  const shared = e.bits.get(v);
  return shared ? { size: e.counts.get(v)!, cost: 0, exact: true, shared } : NONE;
}

/** The range indexes hold the column values themselves and compare as the predicate does: exact, except where `exact` says. */
function sliceNarrower(s: RankSlice, bucket: number, exact = true): Narrower {
  return { size: s.size, cost: Math.min(s.size, bucket), exact, fill: (out) => s.fill(out) };
}

function postingsNarrower(p: Postings, keys: number[], exact = true): Narrower {
  let size = 0;
  for (const k of keys) size += postingSize(p, k);
  return {
    size,
    cost: size,
    exact,
    fill(out) {
      out.fill(0);
      for (const k of keys) addPosting(out, p, k);
    },
  };
}

/** Rows whose haystack contains `word`: native `indexOf` over the one joined haystack (no NUL in the word, so a hit never spans two rows). */
function containingNarrower(c: Columns, word: string): Narrower {
  return {
    size: c.n,
    cost: c.n,
    exact: true,
    fill(out) {
      out.fill(0);
      const hay = c.haystack;
      let row = 0;
      let from = 0;
      for (;;) {
        const p = hay.indexOf(word, from);
        if (p < 0) break;
        while (c.hayStart[row + 1]! <= p) row++; // positions only grow: one forward walk
        out[row >>> 5]! |= 1 << (row & 31);
        from = c.hayStart[row + 1]!; // one hit per row is enough
      }
    },
  };
}

/** The candidate sets of every active filter, from the generation's indexes (indexes.ts). */
function narrowers(c: Columns, f: RowFilter, nowMs: number): Narrower[] {
  const ix = c.index;
  const out: Narrower[] = [];
  // Fresh iff now - lastCheck <= two intervals; the index holds lastCheck + two intervals, and the
  // 1 ms of slack keeps every fresh row in despite rounding (the predicate decides).
  if (f.dir) out.push(sliceNarrower(atLeast(ix.freshUntil, nowMs - 1), ix.freshUntil.bucket, false));
  if (f.tierV >= 0) out.push(enumNarrower(ix.tier, f.tierV));
  if (f.typeV >= 0) out.push(enumNarrower(ix.type, f.typeV));
  if (f.mainnetV >= 0) out.push(enumNarrower(ix.mainnet, f.mainnetV));
  if (f.passingV >= 0) out.push(enumNarrower(ix.latestPassed, f.passingV));
  if (f.templatedV >= 0) out.push(enumNarrower(ix.templated, f.templatedV));
  if (f.listedV >= 0) out.push(enumNarrower(ix.listedDiscovered, f.listedV));
  if (f.hasMinPass) out.push(sliceNarrower(atLeast(ix.passRate, f.minPass), ix.passRate.bucket));
  if (f.hasMinChecks) out.push(sliceNarrower(atLeast(ix.checks30d, f.minChecks), ix.checks30d.bucket));
  if (f.hasMinDays) out.push(sliceNarrower(atLeast(ix.monitoringDays, f.minDays), ix.monitoringDays.bucket));
  if (f.hasMinPayers) out.push(sliceNarrower(atLeast(ix.payers, f.minPayers), ix.payers.bucket));
  if (f.hasMaxPrice) out.push(sliceNarrower(atMost(ix.price, f.maxPrice), ix.price.bucket));
  if (f.hasMaxTerms) out.push(sliceNarrower(atMost(ix.termsChanges90d, f.maxTerms), ix.termsChanges90d.bucket));
  if (f.hostV !== -2) out.push(f.hostV === -1 ? NONE : postingsNarrower(ix.hosts, [f.hostV]));
  if (f.networkOk !== null) {
    const ok: number[] = [];
    for (let s = 0; s < f.networkOk.length; s++) if (f.networkOk[s] === 1) ok.push(s);
    out.push(postingsNarrower(ix.networks, ok));
  }
  if (f.tag !== undefined) {
    const id = ix.tagIds.get(f.tag);
    out.push(id === undefined ? NONE : postingsNarrower(ix.tags, [id]));
  }
  for (const w of f.words) {
    const grams = trigramsOf(w);
    if (grams.length === 0) {
      out.push(containingNarrower(c, w));
      continue;
    }
    // Every trigram of the word occurs in a row that contains it; a three-unit word is its one trigram (exact).
    for (const g of grams) {
      const id = ix.text.keys.get(g);
      out.push(id === undefined ? NONE : postingsNarrower(ix.text.postings, [id], w.length === 3));
    }
  }
  return out;
}

/** Scratch bitsets reused across searches (a search is synchronous), grown to the largest generation. */
let scratchAcc = new Uint32Array(0);
let scratchTmp = new Uint32Array(0);

/** A search's matching rows as a bitset over row positions, and how many. */
export interface MatchBits {
  /** Scratch storage: valid until the next search. */
  bits: Bits;
  count: number;
}

/**
 * The filters of GET /api/v1/services (pure; `nowMs` only for scope=directory), answered from the
 * generation's indexes: the candidate sets of the active filters are intersected smallest first (a
 * set is skipped once building it would cost more than testing the candidates left). When every
 * active filter's set is exact and was applied, the intersection is the answer; otherwise
 * rowMatches decides on every remaining candidate. The rows are exactly those scanList returns.
 */
export function matchBits(c: Columns, q: EffectiveQuery, nowMs: number): MatchBits {
  const f = rowFilter(c, q);
  const sets = narrowers(c, f, nowMs).sort((a, b) => a.size - b.size);
  const words = wordsFor(c.n);
  if (scratchAcc.length < words) {
    scratchAcc = new Uint32Array(words);
    scratchTmp = new Uint32Array(words);
  }
  const acc = scratchAcc.subarray(0, words);
  const tmp = scratchTmp.subarray(0, words);
  if (sets.length === 0) {
    // No active filter: every row matches.
    acc.fill(0xffffffff);
    if (c.n & 31) acc[words - 1] = (1 << (c.n & 31)) - 1;
    return { bits: acc, count: c.n };
  }
  const first = sets[0]!;
  if (first.size === 0) {
    acc.fill(0);
    return { bits: acc, count: 0 };
  }
  if (first.shared) acc.set(first.shared);
  else first.fill!(acc);
  let exact = first.exact;
  let bound = first.size;
  for (let s = 1; s < sets.length; s++) {
    const set = sets[s]!;
    if (set.cost > bound) {
      exact = false; // the predicate tests the candidates left for less
      continue;
    }
    if (set.shared) andInto(acc, set.shared);
    else {
      set.fill!(tmp);
      andInto(acc, tmp);
    }
    exact &&= set.exact;
    bound = Math.min(bound, set.size);
  }
  if (exact) return { bits: acc, count: popcount(acc) };
  let count = 0;
  for (let w = 0; w < words; w++) {
    let x = acc[w]!;
    let keep = x;
    while (x !== 0) {
      const low = x & -x;
      if (rowMatches(c, f, nowMs, (w << 5) | (31 - Math.clz32(low)))) count++;
      else keep ^= low;
      x ^= low;
    }
    acc[w] = keep;
  }
  return { bits: acc, count };
}

/**
 * matchBits as a list: writes the matching positions, ascending, to the start of `list` (length >=
 * rows) and returns how many: exactly what scanList returns (the search property test).
 */
export function matchList(
  _rows: SearchRow[],
  c: Columns,
  q: EffectiveQuery,
  nowMs: number,
  list: Int32Array = new Int32Array(c.n),
): number {
  const { bits } = matchBits(c, q, nowMs);
  let len = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w]!;
    while (x !== 0) {
      const low = x & -x;
      list[len++] = (w << 5) | (31 - Math.clz32(low));
      x ^= low;
    }
  }
  return len;
}
