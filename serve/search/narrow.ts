import { addPosting, type Bits, type Postings, postingSize } from './bitset.ts';
import type { EnumBits, RankSlice } from './indexes.ts';

/**
 * One filter's candidate rows from an index: `size` is how many (exact, or an upper bound), `cost`
 * the single rows written to build the set (0 for a precomputed bitset, `shared`), `fill` writes
 * the set to a bitset. Every set contains every row the filter accepts.
 */
export interface Narrower {
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
export const NONE: Narrower = { size: 0, cost: 0, exact: true };

export function enumNarrower(e: EnumBits, v: number): Narrower {
  const shared = e.bits.get(v);
  return shared ? { size: e.counts.get(v)!, cost: 0, exact: true, shared } : NONE;
}

/** The range indexes hold the column values themselves and compare as the predicate does: exact, except where `exact` says. */
export function sliceNarrower(s: RankSlice, bucket: number, exact = true): Narrower {
  return { size: s.size, cost: Math.min(s.size, bucket), exact, fill: (out) => s.fill(out) };
}

export function postingsNarrower(p: Postings, keys: number[], exact = true): Narrower {
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

/**
 * Rows whose haystack contains `word`: native `indexOf` over the one joined haystack (no NUL in the
 * word, so a hit never spans two rows). `hayStart[i]` is where row i's part starts (n + 1 entries).
 */
export function containingNarrower(n: number, haystack: string, hayStart: Int32Array, word: string): Narrower {
  return {
    size: n,
    cost: n,
    exact: true,
    fill(out) {
      out.fill(0);
      let row = 0;
      let from = 0;
      for (;;) {
        const p = haystack.indexOf(word, from);
        if (p < 0) break;
        while (hayStart[row + 1]! <= p) row++; // positions only grow: one forward walk
        out[row >>> 5]! |= 1 << (row & 31);
        from = hayStart[row + 1]!; // one hit per row is enough
      }
    },
  };
}
