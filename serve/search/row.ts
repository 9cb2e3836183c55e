import type { IndexRecord } from '../../site/contract/index-record.ts';
import type { ServiceSummary } from '../../site/contract/summary.ts';
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from '../site/json-array.ts';
import { compileNetworks, type CompiledNetworks } from './networks.ts';

/**
 * One tracked service compiled for search: the published summary, serialized once (present.ts
 * splices the answer-time values into it), plus the few values filters and sorts read, normalized
 * once at load so a search is cheap comparisons. The summary is kept as UTF-8 bytes outside the JS
 * heap rather than as an object tree: 100k trees are millions of heap objects every full GC has to
 * mark, and V8 lets the heap grow to a multiple of what is live before it collects.
 */
export interface SearchRow {
  /** Position in `SiteState.rows`. */
  pos: number;
  id: string;
  /**
   * `JSON.stringify` of the published summary as UTF-8: bytes `[summaryAt, summaryEnd)` of
   * `summaryBytes`, a chunk shared with other rows (present.ts `summaryOf` parses it back).
   */
  summaryBytes: Buffer;
  summaryAt: number;
  summaryEnd: number;
  /** Where the answer-time values go, in bytes from `summaryAt`; null when the summary has another shape (presented the slow way). */
  layout: SummaryLayout | null;
  tier: string;
  type: string;
  /** Lower-cased host. */
  host: string;
  /** Offered networks as the `network` filter compares them (serve/search/networks.ts). */
  networks: CompiledNetworks;
  /**
   * The `mainnet` filter's side: the published `summary.mainnet` itself (MAINNET_FILTER_RULE,
   * site/contract/requests.ts), so `mainnet=false` returns exactly the services published false.
   */
  mainnet: boolean | null;
  latestPassed: boolean | null;
  templated: boolean;
  passRate: number | null;
  checks30d: number;
  monitoringDays: number;
  monitoringSinceMs: number;
  payers: number | null;
  tags: string[];
  price: number | null;
  termsChanges90d: number | null;
  listed: boolean | null;
  nameKey: string;
  /** Freshness inputs (recomputed per answer against the server's clock). */
  lastCheckMs: number | null;
  intervalHours: number;
  /** Every applicable listing criterion other than `fresh` passed at publish. */
  criteriaExceptFresh: boolean;
}

/**
 * Positions in a summary's JSON of the members presentSummary (present.ts) changes at answer time:
 * the `evidence.freshness` value (`[freshFrom, freshTo)`), the `evidence.schedule_tier` member with
 * one separating comma (`[tierFrom, tierTo)`, removed once the name is no longer served), and where
 * a base URL goes in front of the relative `links.page` / `links.api` (-1: the link is absolute).
 */
export interface SummaryLayout {
  freshFrom: number;
  freshTo: number;
  tierFrom: number;
  tierTo: number;
  pageAt: number;
  apiAt: number;
}

/** In `JSON.stringify` output (no whitespace): the index after the string opening at `i`. */
function endOfString(t: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = t.indexOf('"', from);
    let b = q - 1;
    while (t.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1; // not escaped: an even run of backslashes before it
    from = q + 1;
  }
}

/** The index after the value starting at `i`. */
function endOfValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return endOfString(t, i);
  let k = i;
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (;;) {
      const d = t.charCodeAt(k);
      if (d === QUOTE) {
        k = endOfString(t, k);
        continue;
      }
      if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
      else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return k + 1;
      k++;
    }
  }
  for (;;) {
    const d = t.charCodeAt(k); // a number or a literal: up to the next separator
    if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || Number.isNaN(d)) return k;
    k++;
  }
}

/** A member of a serialized object: its name, position among the members, where it starts (at its comma, if any) and its value's span. */
interface Member {
  name: string;
  index: number;
  from: number;
  valueFrom: number;
  valueTo: number;
}

/**
 * The members named in `wanted` of the object opening at `o`, and how many members it has
 * (`JSON.stringify` writes names without escapes unless they hold quotes, backslashes or control
 * characters, so a name is compared as written, without slicing every one).
 */
function membersOf(t: string, o: number, wanted: readonly string[]): { found: Member[]; count: number } {
  const found: Member[] = [];
  let k = o + 1;
  if (t.charCodeAt(k) === CLOSE_OBJECT) return { found, count: 0 };
  for (let index = 0; ; index++) {
    const nameTo = endOfString(t, k);
    const valueFrom = nameTo + 1; // after ':'
    const valueTo = endOfValue(t, valueFrom);
    const length = nameTo - k - 2;
    for (const name of wanted) {
      if (name.length === length && t.startsWith(name, k + 1))
        found.push({ name, index, from: index === 0 ? k : k - 1, valueFrom, valueTo });
    }
    if (t.charCodeAt(valueTo) !== COMMA) return { found, count: index + 1 };
    k = valueTo + 1;
  }
}

const TOP = ['evidence', 'links'] as const;
const EVIDENCE = ['freshness', 'schedule_tier', 'check_interval'] as const;
const LINKS = ['page', 'api'] as const;

/**
 * A summary serialized (`JSON.stringify`) and its layout, read off the serialization itself. The
 * layout is null unless the summary has the shape the splice assumes: `freshness` and a
 * `schedule_tier` equal to `check_interval` in `evidence` (what presentSummary serves), and links
 * of exactly `page` then `api`, both strings (presentSummary rebuilds them in that order under a
 * base URL).
 */
export function serializeSummary(s: ServiceSummary): { json: string; layout: SummaryLayout | null } {
  const json = JSON.stringify(s);
  const top = membersOf(json, 0, TOP).found;
  const evidence = top.find((m) => m.name === 'evidence');
  const links = top.find((m) => m.name === 'links');
  if (!evidence || !links || json.charCodeAt(evidence.valueFrom) !== OPEN_OBJECT || json.charCodeAt(links.valueFrom) !== OPEN_OBJECT) {
    return { json, layout: null };
  }
  const ev = membersOf(json, evidence.valueFrom, EVIDENCE);
  const fresh = ev.found.find((m) => m.name === 'freshness');
  const tier = ev.found.find((m) => m.name === 'schedule_tier');
  const interval = ev.found.find((m) => m.name === 'check_interval');
  const ln = membersOf(json, links.valueFrom, LINKS);
  const [page, api] = ln.found;
  const value = (m: Member): string => json.slice(m.valueFrom, m.valueTo);
  if (
    !fresh ||
    !tier ||
    !interval ||
    value(tier) !== value(interval) ||
    ln.count !== 2 ||
    page?.name !== 'page' ||
    api?.name !== 'api' ||
    json.charCodeAt(page.valueFrom) !== QUOTE ||
    json.charCodeAt(api.valueFrom) !== QUOTE
  ) {
    return { json, layout: null };
  }
  const slash = (m: Member): number => (json.charCodeAt(m.valueFrom + 1) === 0x2f ? m.valueFrom + 1 : -1);
  return {
    json,
    layout: {
      freshFrom: fresh.valueFrom,
      freshTo: fresh.valueTo,
      // Removed with the comma before it, or after it when it is the first member.
      tierFrom: tier.from,
      tierTo: tier.index > 0 || ev.count === 1 ? tier.valueTo : tier.valueTo + 1,
      pageAt: slash(page),
      apiAt: slash(api),
    },
  };
}

/**
 * Serialized summaries are appended to chunks allocated outside the JS heap; rows keep their chunk,
 * so a chunk is freed with the last generation that uses it.
 */
const CHUNK_BYTES = 4 << 20;
let chunk = Buffer.alloc(0);
let chunkUsed = 0;

function storeUtf8(json: string): { bytes: Buffer; at: number; end: number } {
  const size = Buffer.byteLength(json);
  if (chunkUsed + size > chunk.length) {
    chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, size));
    chunkUsed = 0;
  }
  const at = chunkUsed;
  chunk.write(json, at, 'utf8');
  chunkUsed += size;
  return { bytes: chunk, at, end: chunkUsed };
}

/** A layout in UTF-16 positions of `json` as UTF-8 byte offsets (the same numbers when the text is ASCII). */
function byteLayout(json: string, l: SummaryLayout, ascii: boolean): SummaryLayout {
  if (ascii) return l;
  const b = (p: number): number => (p < 0 ? p : Buffer.byteLength(json.slice(0, p)));
  return {
    freshFrom: b(l.freshFrom),
    freshTo: b(l.freshTo),
    tierFrom: b(l.tierFrom),
    tierTo: b(l.tierTo),
    pageAt: b(l.pageAt),
    apiAt: b(l.apiAt),
  };
}

export function compileRow(rec: IndexRecord, pos: number): SearchRow {
  const s = rec.summary;
  const e = s.evidence;
  const lastCheck = rec.search.last_check_at ? Date.parse(rec.search.last_check_at) : NaN;
  const { json, layout } = serializeSummary(s);
  const stored = storeUtf8(json);
  return {
    pos,
    id: s.id,
    summaryBytes: stored.bytes,
    summaryAt: stored.at,
    summaryEnd: stored.end,
    layout: layout && byteLayout(json, layout, stored.end - stored.at === json.length),
    tier: s.tier,
    type: s.type,
    host: s.host.toLowerCase(),
    networks: compileNetworks(s.networks),
    mainnet: s.mainnet,
    latestPassed: rec.search.latest_passed,
    templated: s.templated_url,
    passRate: e.pass_rate,
    checks30d: e.checks_30d,
    monitoringDays: e.monitoring_days,
    monitoringSinceMs: Date.parse(e.monitoring_since) || 0,
    payers: rec.search.payers_30d,
    tags: s.tags,
    price: s.price_usd,
    termsChanges90d: rec.search.terms_changes_90d,
    listed: rec.search.listed,
    nameKey: s.name.toLowerCase(),
    lastCheckMs: Number.isFinite(lastCheck) ? lastCheck : null,
    intervalHours: rec.search.check_interval_hours,
    criteriaExceptFresh: rec.search.criteria_except_fresh,
  };
}
