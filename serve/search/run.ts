import type { Columns } from './columns.ts';
import { matchMask } from './filter.ts';
import type { EffectiveQuery, Sort } from './query.ts';
import type { SearchRow } from './row.ts';

export interface SearchHits {
  total: number;
  page: SearchRow[];
}

/**
 * Filter (a mask from sequential column scans), then one walk over the presorted order for the
 * requested sort: count matches and keep the page. No sort per request. group=provider keeps the
 * first row per host in the chosen order (its best representative by that order); `total` then
 * counts providers.
 */
export function runSearch(rows: SearchRow[], columns: Columns, orders: Record<Sort, Int32Array>, q: EffectiveQuery, nowMs: number): SearchHits {
  const mask = matchMask(rows, columns, q, nowMs);
  const order = orders[q.sort];
  const start = q.offset;
  const end = q.offset + q.limit;
  const page: SearchRow[] = [];
  let total = 0;
  const seen = q.group === 'provider' ? new Uint8Array(columns.hosts.length) : null;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (mask[i] !== 1) continue;
    if (seen) {
      const h = columns.hostId[i]!;
      if (seen[h] === 1) continue;
      seen[h] = 1;
    }
    if (total >= start && total < end) page.push(rows[i]!);
    total++;
  }
  return { total, page };
}
