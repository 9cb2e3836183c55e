/**
 * Row sets as bitsets over row positions (bit i of word i >>> 5): 100k rows are 12.5 KB, and the
 * intersection of two sets is one pass over 3,125 words. Used by the per-generation search indexes
 * (indexes.ts) and the candidate narrowing of a search (filter.ts).
 */
export type Bits = Uint32Array;

export const wordsFor = (n: number): number => (n + 31) >>> 5;

/** Add rows `list[from..to)` to `b`. */
export function addRows(b: Bits, list: ArrayLike<number>, from = 0, to = list.length): void {
  for (let k = from; k < to; k++) {
    const i = list[k]!;
    b[i >>> 5]! |= 1 << (i & 31);
  }
}

/** `acc &= b`. */
export function andInto(acc: Bits, b: Bits): void {
  for (let w = 0; w < acc.length; w++) acc[w]! &= b[w]!;
}

export function popcount(b: Bits): number {
  let c = 0;
  for (let w = 0; w < b.length; w++) {
    let x = b[w]!;
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    c += (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
  }
  return c;
}

/**
 * Compressed posting lists: the rows holding key `k` are `rows[offsets[k]..offsets[k + 1])`, in
 * ascending row order. Built from one key per (row, key) pair.
 */
export interface Postings {
  offsets: Int32Array;
  rows: Int32Array;
}

/**
 * Postings of `keyCount` keys from parallel arrays of (row, key) pairs listed in ascending row
 * order (so every list comes out ascending).
 */
export function buildPostings(keyCount: number, pairRows: ArrayLike<number>, pairKeys: ArrayLike<number>, pairs: number): Postings {
  const offsets = new Int32Array(keyCount + 1);
  for (let p = 0; p < pairs; p++) offsets[pairKeys[p]! + 1]!++;
  for (let k = 0; k < keyCount; k++) offsets[k + 1]! += offsets[k]!;
  const fill = offsets.slice(0, keyCount);
  const rows = new Int32Array(pairs);
  for (let p = 0; p < pairs; p++) rows[fill[pairKeys[p]!]!++] = pairRows[p]!;
  return { offsets, rows };
}

export const postingSize = (p: Postings, k: number): number => p.offsets[k + 1]! - p.offsets[k]!;

/** Add the rows of key `k` to `b`. */
export function addPosting(b: Bits, p: Postings, k: number): void {
  addRows(b, p.rows, p.offsets[k]!, p.offsets[k + 1]!);
}
