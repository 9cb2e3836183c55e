import type { Columns } from './columns.ts';
import { TYPES } from './columns.ts';
import { networkMatches, parseNetworkFilter } from './networks.ts';
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

/*
 * Column filters run as one fused sequential scan (scanColumns); the text filters then compact the
 * surviving candidate list in place, each loop a small monomorphic function (a shared loop calling
 * per-filter closures was several times slower over 100k rows).
 */
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
 * The filters of GET /api/v1/services (pure; `nowMs` only for scope=directory): writes the positions
 * of the matching rows to the start of `list` (length >= rows) and returns how many. Semantics we
 * chose where the contract is terse (parameter texts: site/contract/requests.ts):
 * - q: every whitespace-separated word must occur (case-insensitive) in name, host, URL or operator.
 * - host and provider: the exact host, case-insensitive. A provider is a host: the same notion as
 *   group=provider (one row per host, run.ts) and the published provider_endpoints (tracked services
 *   on the same host, computed by the pipeline), so provider=h returns provider_endpoints rows.
 * - network: serve/search/networks.ts (exact for known names and CAIP-2 ids, else substring).
 * - mainnet: the published `mainnet` field (true / false); a null field matches neither value.
 * - min_pass_rate / min_payers / max_price_usd / max_terms_changes_90d: services whose value is
 *   unknown (null) do not match.
 * - listed: discovered services only (reviewed services have no registry listing).
 */
export function matchList(rows: SearchRow[], c: Columns, q: EffectiveQuery, nowMs: number, list: Int32Array = new Int32Array(c.n)): number {
  const len = scanColumns(c, q, nowMs, list);
  return narrowByText(rows, c, q, list, len);
}

/**
 * Every column filter in one sequential pass over the typed columns (flags say which are active;
 * a disabled test costs one predictable branch). Writes the survivors to `list`.
 */
function scanColumns(c: Columns, q: EffectiveQuery, nowMs: number, list: Int32Array): number {
  const dir = q.scope === 'directory';
  const tierV = q.tier === undefined ? -1 : q.tier === 'reviewed' ? 0 : 1;
  const typeV = q.type === undefined ? -1 : TYPES.indexOf(q.type);
  const mainnetV = q.mainnet === undefined ? -2 : q.mainnet ? 1 : 0;
  const passingV = q.passing === undefined ? -2 : q.passing ? 1 : 0;
  const templatedV = q.templated === undefined ? -1 : q.templated ? 1 : 0;
  const listedV = q.listed === undefined ? -2 : q.listed ? 1 : 0;
  const hasMinPass = q.min_pass_rate !== undefined;
  const minPass = q.min_pass_rate ?? 0;
  const hasMinChecks = q.min_checks !== undefined;
  const minChecks = q.min_checks ?? 0;
  const hasMinDays = q.min_days !== undefined;
  const minDays = q.min_days ?? 0;
  const hasMinPayers = q.min_payers !== undefined;
  const minPayers = q.min_payers ?? 0;
  const hasMaxPrice = q.max_price_usd !== undefined;
  const maxPrice = q.max_price_usd ?? 0;
  const hasMaxTerms = q.max_terms_changes_90d !== undefined;
  const maxTerms = q.max_terms_changes_90d ?? 0;
  const {
    criteriaExceptFresh,
    lastCheckMs,
    twoIntervalsMs,
    tier,
    type,
    mainnet,
    latestPassed,
    templated,
    listed,
    passRate,
    checks30d,
    monitoringDays,
    payers,
    price,
    termsChanges90d,
  } = c;
  let len = 0;
  for (let i = 0; i < c.n; i++) {
    // NaN (never checked / unknown) fails every comparison, so unknown values never match a bound.
    if (dir && !(criteriaExceptFresh[i] === 1 && isFreshAt(lastCheckMs[i]!, twoIntervalsMs[i]!, nowMs))) continue;
    if (tierV >= 0 && tier[i] !== tierV) continue;
    if (typeV >= 0 && type[i] !== typeV) continue;
    if (mainnetV >= 0 && mainnet[i] !== mainnetV) continue;
    if (passingV >= 0 && latestPassed[i] !== passingV) continue;
    if (templatedV >= 0 && templated[i] !== templatedV) continue;
    if (listedV >= 0 && (tier[i] !== 1 || listed[i] !== listedV)) continue;
    if (hasMinPass && !(passRate[i]! >= minPass)) continue;
    if (hasMinChecks && !(checks30d[i]! >= minChecks)) continue;
    if (hasMinDays && !(monitoringDays[i]! >= minDays)) continue;
    if (hasMinPayers && !(payers[i]! >= minPayers)) continue;
    if (hasMaxPrice && !(price[i]! <= maxPrice)) continue;
    if (hasMaxTerms && !(termsChanges90d[i]! <= maxTerms)) continue;
    list[len++] = i;
  }
  return len;
}

/** The string filters (host, provider, network, tag, q), on the survivors of the column scan. */
function narrowByText(rows: SearchRow[], c: Columns, q: EffectiveQuery, list: Int32Array, len: number): number {
  if (q.host !== undefined || q.provider !== undefined) {
    const h = q.host;
    const p = q.provider;
    const hostOk = Uint8Array.from(c.hosts, (x) => ((h === undefined || x === h) && (p === undefined || x === p) ? 1 : 0));
    len = keepHosts(list, len, c, hostOk);
  }
  if (q.network !== undefined) {
    const f = parseNetworkFilter(q.network);
    len = keepRows(list, len, rows, (r) => networkMatches(f, r.networks));
  }
  if (q.tag !== undefined) {
    const t = q.tag;
    len = keepRows(list, len, rows, (r) => r.tags.includes(t));
  }
  if (q.q !== undefined) {
    for (const w of q.q.toLowerCase().replaceAll('\u0000', ' ').split(' ')) {
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
