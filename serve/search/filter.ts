import type { Columns } from './columns.ts';
import { andInto, type Bits, popcount, wordsFor } from './bitset.ts';
import { type QueryFilters, queryFilters } from './filters.ts';
import type { Narrower } from './narrow.ts';
import type { EffectiveQuery } from './query.ts';
import type { SearchRow } from './row.ts';

/**
 * THE filter predicate of GET /api/v1/services: does row i pass every filter the query turned on
 * (filters.ts, where each filter's semantics are stated)? Both the reference scan and the indexed
 * search decide with it (the indexes only choose which rows it is asked about).
 */
export function rowMatches(f: QueryFilters, i: number): boolean {
  const enums = f.enumCols;
  for (let k = 0; k < enums.length; k++) if (enums[k]![i] !== f.enumValues[k]) return false;
  const ranges = f.rangeCols;
  for (let k = 0; k < ranges.length; k++) {
    const x = ranges[k]![i]!;
    if (!(x >= f.lows[k]! && x <= f.highs[k]!)) return false;
  }
  const custom = f.custom;
  for (let k = 0; k < custom.length; k++) if (!custom[k]!.test(i)) return false;
  return true;
}

/**
 * The reference search: the predicate on every row, in row order. Writes the matching positions to
 * the start of `list` (length >= rows) and returns how many. The indexed matchList must return
 * exactly the same (the search property test). (`_rows`: every filter reads the columns; the
 * parameter keeps the signature runSearch calls both with.)
 */
export function scanList(_rows: SearchRow[], c: Columns, q: EffectiveQuery, nowMs: number, list: Int32Array = new Int32Array(c.n)): number {
  const f = queryFilters(c, q, nowMs);
  let len = 0;
  for (let i = 0; i < c.n; i++) if (rowMatches(f, i)) list[len++] = i;
  return len;
}

/** A search's matching rows as a bitset over row positions, and how many. */
export interface MatchBits {
  /** The generation's scratch (Columns.scratch): valid until its next search. */
  bits: Bits;
  count: number;
}

/**
 * Intersect the candidate sets smallest first into `acc` (a set is skipped once building it would
 * cost more than testing the candidates left). Returns whether the result is exact: every set was
 * exact and applied.
 */
function intersect(sets: Narrower[], acc: Bits, tmp: Bits): boolean {
  const first = sets[0]!;
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
  return exact;
}

/** Keep only the candidates in `acc` the predicate accepts; returns how many. */
function keepMatching(acc: Bits, f: QueryFilters): number {
  let count = 0;
  for (let w = 0; w < acc.length; w++) {
    let x = acc[w]!;
    let keep = x;
    while (x !== 0) {
      const low = x & -x;
      if (rowMatches(f, (w << 5) | (31 - Math.clz32(low)))) count++;
      else keep ^= low;
      x ^= low;
    }
    acc[w] = keep;
  }
  return count;
}

/**
 * The filters of GET /api/v1/services (pure; `nowMs` only for scope=directory), answered from the
 * generation's indexes: the candidate sets of the active filters are intersected smallest first.
 * When every active filter's set is exact and was applied, the intersection is the answer;
 * otherwise rowMatches decides on every remaining candidate. The rows are exactly those scanList returns.
 */
export function matchBits(c: Columns, q: EffectiveQuery, nowMs: number): MatchBits {
  const f = queryFilters(c, q, nowMs);
  const sets = f.narrowers().sort((a, b) => a.size - b.size);
  const words = wordsFor(c.n);
  const acc = c.scratch.acc;
  if (sets.length === 0) {
    // No active filter: every row matches.
    acc.fill(0xffffffff);
    if (c.n & 31) acc[words - 1] = (1 << (c.n & 31)) - 1;
    return { bits: acc, count: c.n };
  }
  if (sets[0]!.size === 0) {
    acc.fill(0);
    return { bits: acc, count: 0 };
  }
  if (intersect(sets, acc, c.scratch.tmp)) return { bits: acc, count: popcount(acc) };
  return { bits: acc, count: keepMatching(acc, f) };
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
