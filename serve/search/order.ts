import type { Columns } from './columns.ts';
import type { Sort } from './query.ts';
import type { SearchRow } from './row.ts';

/**
 * Sort orders (docs/api.md, `sort`; the API names them, these are our published definitions). Every
 * order ends with the id, so results are total and stable across replicas. Unknown values (null)
 * always sort last. None of the orders is a rating.
 * - evidence (default): most evidence first — checks in 30 days, then days of monitoring history.
 * - pass_rate: highest 30-day pass rate first, then more checks.
 * - payers: most registry-reported unique payers in 30 days first.
 * - price: lowest known price per call first.
 * - recent: most recently placed under monitoring first (monitoring_since, newest first).
 * - name: by name, case-insensitive.
 * Computed once per generation over the typed columns, so a search never sorts.
 */
type Cmp = (a: number, b: number) => number;

/** Descending with NaN (unknown) last. */
const descNaNLast = (x: number, y: number): number => (Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : Number.isNaN(y) ? -1 : y - x);
const ascNaNLast = (x: number, y: number): number => (Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : Number.isNaN(y) ? -1 : x - y);

export function presort(rows: SearchRow[], c: Columns): Record<Sort, Int32Array> {
  const idRank = rankBy(rows, (r) => r.id);
  const nameRank = rankBy(rows, (r) => r.nameKey);
  const since = Float64Array.from(rows, (r) => r.monitoringSinceMs);
  const byId: Cmp = (a, b) => idRank[a]! - idRank[b]!;
  // The columns of the filters on the same published values (filters.ts).
  const checks30d = c.ranges.min_checks;
  const monitoringDays = c.ranges.min_days;
  const passRate = c.ranges.min_pass_rate;
  const payers = c.ranges.min_payers;
  const price = c.ranges.max_price_usd;
  const comparators: Record<Sort, Cmp> = {
    evidence: (a, b) => checks30d[b]! - checks30d[a]! || monitoringDays[b]! - monitoringDays[a]! || byId(a, b),
    pass_rate: (a, b) => descNaNLast(passRate[a]!, passRate[b]!) || checks30d[b]! - checks30d[a]! || byId(a, b),
    payers: (a, b) => descNaNLast(payers[a]!, payers[b]!) || byId(a, b),
    price: (a, b) => ascNaNLast(price[a]!, price[b]!) || byId(a, b),
    recent: (a, b) => since[b]! - since[a]! || byId(a, b),
    name: (a, b) => nameRank[a]! - nameRank[b]! || byId(a, b),
  };
  const out = {} as Record<Sort, Int32Array>;
  for (const [sort, cmp] of Object.entries(comparators) as [Sort, Cmp][]) {
    const idx = new Int32Array(c.n);
    for (let i = 0; i < c.n; i++) idx[i] = i;
    out[sort] = idx.sort(cmp);
  }
  return out;
}

/** Rank of each row by a string key (ties share a rank), so comparisons are integer subtractions. */
function rankBy(rows: SearchRow[], key: (r: SearchRow) => string): Int32Array {
  const idx = rows.map((_, i) => i);
  const keys = rows.map(key);
  idx.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
  const rank = new Int32Array(rows.length);
  let r = 0;
  for (let k = 0; k < idx.length; k++) {
    if (k > 0 && keys[idx[k]!] !== keys[idx[k - 1]!]) r = k;
    rank[idx[k]!] = r;
  }
  return rank;
}
