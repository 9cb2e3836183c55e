import type { Columns } from './columns.ts';
import { addRows, wordsFor } from './bitset.ts';
import { type MatchBits, matchBits, type matchList } from './filter.ts';
import type { EffectiveQuery, Sort } from './query.ts';
import type { SearchRow } from './row.ts';

/** A list matcher (the reference scanList, for the property test) in place of the indexed matchBits. */
export type Matcher = typeof matchList;

export interface SearchHits {
  total: number;
  page: SearchRow[];
}

/** The reference matcher's list as a bitset (tests only: allocates). */
function bitsOfList(match: Matcher, rows: SearchRow[], c: Columns, q: EffectiveQuery, nowMs: number): MatchBits {
  const list = new Int32Array(c.n);
  const count = match(rows, c, q, nowMs, list);
  const bits = new Uint32Array(wordsFor(c.n));
  addRows(bits, list, 0, count);
  return { bits, count };
}

/**
 * Filter (the matching rows as a bitset, narrowed by the generation's indexes, filter.ts), then
 * walk the presorted order for the requested sort — no sort per request. Without grouping, `total`
 * is the match count and the walk stops as soon as the page is full. group=provider keeps the first
 * row per host in the chosen order (its best representative by that order) and walks the whole
 * order so `total` counts hosts.
 */
export function runSearch(
  rows: SearchRow[],
  columns: Columns,
  orders: Record<Sort, Int32Array>,
  q: EffectiveQuery,
  nowMs: number,
  match?: Matcher,
): SearchHits {
  const { bits, count } = match ? bitsOfList(match, rows, columns, q, nowMs) : matchBits(columns, q, nowMs);
  const order = orders[q.sort];
  const start = q.offset;
  const end = q.offset + q.limit;
  const page: SearchRow[] = [];
  if (q.group !== 'provider') {
    if (start >= count) return { total: count, page };
    let seen = 0;
    for (let k = 0; k < order.length && seen < end; k++) {
      const i = order[k]!;
      if (((bits[i >>> 5]! >>> (i & 31)) & 1) === 0) continue;
      if (seen >= start) page.push(rows[i]!);
      seen++;
    }
    return { total: count, page };
  }
  const hostSeen = new Uint8Array(columns.hosts.length);
  let total = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (((bits[i >>> 5]! >>> (i & 31)) & 1) === 0) continue;
    const h = columns.hostId[i]!;
    if (hostSeen[h] === 1) continue;
    hostSeen[h] = 1;
    if (total >= start && total < end) page.push(rows[i]!);
    total++;
  }
  return { total, page };
}
