import type { Columns } from './columns.ts';
import { matchList } from './filter.ts';
import type { EffectiveQuery, Sort } from './query.ts';
import type { SearchRow } from './row.ts';

/** How the matching rows are found: the indexed matchList, or the reference scanList (for the property test). */
export type Matcher = typeof matchList;

export interface SearchHits {
  total: number;
  page: SearchRow[];
}

/**
 * Scratch buffers reused across searches (a search is synchronous, so one set per process is
 * enough): a candidate list and a match mask, grown to the largest generation seen. The mask is
 * all zeros between searches.
 */
let scratchList = new Int32Array(0);
let scratchMask = new Uint8Array(0);

/**
 * Filter (candidates narrowed by the generation's indexes, filter.ts), then walk the presorted order for the
 * requested sort — no sort per request. Without grouping, `total` is the match count and the walk
 * stops as soon as the page is full. group=provider keeps the first row per host in the chosen
 * order (its best representative by that order) and walks the whole order so `total` counts hosts.
 */
export function runSearch(
  rows: SearchRow[],
  columns: Columns,
  orders: Record<Sort, Int32Array>,
  q: EffectiveQuery,
  nowMs: number,
  match: Matcher = matchList,
): SearchHits {
  const n = columns.n;
  if (scratchList.length < n) {
    scratchList = new Int32Array(n);
    scratchMask = new Uint8Array(n);
  }
  const list = scratchList;
  const mask = scratchMask;
  const len = match(rows, columns, q, nowMs, list);
  for (let j = 0; j < len; j++) mask[list[j]!] = 1;
  try {
    const order = orders[q.sort];
    const start = q.offset;
    const end = q.offset + q.limit;
    const page: SearchRow[] = [];
    if (q.group !== 'provider') {
      if (start >= len) return { total: len, page };
      let seen = 0;
      for (let k = 0; k < order.length && seen < end; k++) {
        const i = order[k]!;
        if (mask[i] !== 1) continue;
        if (seen >= start) page.push(rows[i]!);
        seen++;
      }
      return { total: len, page };
    }
    const hostSeen = new Uint8Array(columns.hosts.length);
    let total = 0;
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (mask[i] !== 1) continue;
      const h = columns.hostId[i]!;
      if (hostSeen[h] === 1) continue;
      hostSeen[h] = 1;
      if (total >= start && total < end) page.push(rows[i]!);
      total++;
    }
    return { total, page };
  } finally {
    for (let j = 0; j < len; j++) mask[list[j]!] = 0;
  }
}
