import type { Columns } from './columns.ts';
import { TYPES } from './columns.ts';
import type { EffectiveQuery } from './query.ts';
import type { SearchRow } from './row.ts';

/**
 * Directory membership now (DESIGN.md: freshness is a function of time): every other listing
 * criterion passed at publish, and the latest check is no older than two intervals at `nowMs`.
 */
export function inDirectoryAt(c: Columns, i: number, nowMs: number): boolean {
  return c.criteriaExceptFresh[i] === 1 && nowMs - c.lastCheckMs[i]! <= c.twoIntervalsMs[i]!; // NaN (never checked) → false
}

/*
 * Each filter compacts a candidate list of row positions in place and returns the new length, so
 * later filters only look at survivors. Each loop is its own small function over one typed column
 * (monomorphic, so V8 inlines the comparison; a shared loop calling per-filter closures was several
 * times slower over 100k rows).
 */
function keepU8(list: Int32Array, len: number, col: Uint8Array, v: number): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (col[i] === v) list[k++] = i;
  }
  return k;
}
function keepI8(list: Int32Array, len: number, col: Int8Array, v: number): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (col[i] === v) list[k++] = i;
  }
  return k;
}
/** Comparisons with NaN are false, so unknown (null) values never satisfy a bound. */
function keepGte(list: Int32Array, len: number, col: Float64Array, v: number): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (col[i]! >= v) list[k++] = i;
  }
  return k;
}
function keepLte(list: Int32Array, len: number, col: Float64Array, v: number): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (col[i]! <= v) list[k++] = i;
  }
  return k;
}
function keepDirectory(list: Int32Array, len: number, c: Columns, nowMs: number): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (c.criteriaExceptFresh[i] === 1 && nowMs - c.lastCheckMs[i]! <= c.twoIntervalsMs[i]!) list[k++] = i;
  }
  return k;
}
function keepListed(list: Int32Array, len: number, c: Columns, v: number): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (c.tier[i] === 1 && c.listed[i] === v) list[k++] = i;
  }
  return k;
}
function keepHosts(list: Int32Array, len: number, c: Columns, hostOk: Uint8Array): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (hostOk[c.hostId[i]!] === 1) list[k++] = i;
  }
  return k;
}
function keepRows(list: Int32Array, len: number, rows: SearchRow[], test: (r: SearchRow) => boolean): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (test(rows[i]!)) list[k++] = i;
  }
  return k;
}
function keepMarked(list: Int32Array, len: number, marks: Uint8Array): number {
  let k = 0;
  for (let j = 0; j < len; j++) {
    const i = list[j]!;
    if (marks[i] === 1) list[k++] = i;
  }
  return k;
}

/** Rows whose haystack contains `word` (no NUL in it, so a match never spans two rows). */
function rowsContaining(c: Columns, word: string): Uint8Array {
  const hit = new Uint8Array(c.n);
  const hay = c.haystack;
  let row = 0;
  let from = 0;
  for (;;) {
    const p = hay.indexOf(word, from);
    if (p < 0) break;
    while (c.hayStart[row + 1]! <= p) row++; // positions only grow: one forward walk
    hit[row] = 1;
    from = c.hayStart[row + 1]!; // one hit per row is enough
  }
  return hit;
}

/**
 * The filters of spec 4.1 (pure; `nowMs` only for scope=directory): writes the positions of the
 * matching rows to the start of `list` (length >= rows) and returns how many. Semantics we chose where the spec is terse:
 * - q: every whitespace-separated word must occur (case-insensitive) in name, host, URL or operator.
 * - host: exact, case-insensitive. provider: the host or any subdomain of it.
 * - network: substring of any offered network (case-insensitive).
 * - mainnet=true: at least one offered network is a mainnet; false: networks offered, all test.
 *   Services with no known networks (mainnet null) match neither.
 * - min_pass_rate / min_payers / max_price_usd / max_terms_changes_90d: services whose value is
 *   unknown (null) do not match.
 * - listed: discovered services only (reviewed services have no registry listing).
 */
export function matchList(rows: SearchRow[], c: Columns, q: EffectiveQuery, nowMs: number, list: Int32Array = new Int32Array(c.n)): number {
  const n = c.n;
  for (let i = 0; i < n; i++) list[i] = i;
  let len = n;
  if (q.scope === 'directory') len = keepDirectory(list, len, c, nowMs);
  if (q.tier !== undefined) len = keepU8(list, len, c.tier, q.tier === 'reviewed' ? 0 : 1);
  if (q.type !== undefined) len = keepU8(list, len, c.type, TYPES.indexOf(q.type));
  if (q.mainnet !== undefined) len = keepI8(list, len, c.mainnet, q.mainnet ? 1 : 0);
  if (q.passing !== undefined) len = keepI8(list, len, c.latestPassed, q.passing ? 1 : 0);
  if (q.templated !== undefined) len = keepU8(list, len, c.templated, q.templated ? 1 : 0);
  if (q.listed !== undefined) len = keepListed(list, len, c, q.listed ? 1 : 0);
  if (q.min_pass_rate !== undefined) len = keepGte(list, len, c.passRate, q.min_pass_rate);
  if (q.min_checks !== undefined) len = keepGte(list, len, c.checks30d, q.min_checks);
  if (q.min_days !== undefined) len = keepGte(list, len, c.monitoringDays, q.min_days);
  if (q.min_payers !== undefined) len = keepGte(list, len, c.payers, q.min_payers);
  if (q.max_price_usd !== undefined) len = keepLte(list, len, c.price, q.max_price_usd);
  if (q.max_terms_changes_90d !== undefined) len = keepLte(list, len, c.termsChanges90d, q.max_terms_changes_90d);
  if (q.host !== undefined || q.provider !== undefined) {
    const h = q.host;
    const p = q.provider;
    const suffix = `.${p}`;
    const hostOk = Uint8Array.from(c.hosts, (x) => ((h === undefined || x === h) && (p === undefined || x === p || x.endsWith(suffix)) ? 1 : 0));
    len = keepHosts(list, len, c, hostOk);
  }
  if (q.network !== undefined) {
    const v = q.network;
    len = keepRows(list, len, rows, (r) => r.networks.some((x) => x.includes(v)));
  }
  if (q.tag !== undefined) {
    const t = q.tag;
    len = keepRows(list, len, rows, (r) => r.tags.includes(t));
  }
  if (q.q !== undefined) {
    for (const w of q.q.toLowerCase().replace(/\u0000/g, ' ').split(' ')) {
      if (w && len > 0) len = keepMarked(list, len, rowsContaining(c, w));
    }
  }
  return len;
}

/** The same as a mask over row positions (1 = matches); for tests and callers that want a set. */
export function matchMask(rows: SearchRow[], c: Columns, q: EffectiveQuery, nowMs: number): Uint8Array {
  const list = new Int32Array(c.n);
  const len = matchList(rows, c, q, nowMs, list);
  const mask = new Uint8Array(c.n);
  for (let j = 0; j < len; j++) mask[list[j]!] = 1;
  return mask;
}
