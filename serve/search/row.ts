import type { IndexRecord } from '../../site/contract/index-record.ts';
import type { ServiceSummary } from '../../site/contract/summary.ts';
import { compileNetworks, type CompiledNetworks } from './networks.ts';

/**
 * One tracked service compiled for search: the published summary, serialized once (present.ts
 * splices the answer-time values into it), plus the few values filters and sorts read, normalized
 * once at load so a search is cheap comparisons. The summary is kept as one string rather than an
 * object tree: 100k trees are millions of heap objects every full GC has to mark.
 */
export interface SearchRow {
  /** Position in `SiteState.rows`. */
  pos: number;
  id: string;
  /** `JSON.stringify` of the published summary (present.ts `summaryOf` parses it back). */
  summaryJson: string;
  /** Where the answer-time values go in `summaryJson`; null when the summary has another shape (presented the slow way). */
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Links of exactly `page` then `api`, both strings. */
function isLinks(v: Record<string, unknown>): v is { page: string; api: string } {
  const k = Object.keys(v);
  return k.length === 2 && k[0] === 'page' && k[1] === 'api' && typeof v.page === 'string' && typeof v.api === 'string';
}

/**
 * A summary serialized (`JSON.stringify`: one flat string) and its layout, found by walking the
 * members in the order `JSON.stringify` writes them (own-key order) and adding up their lengths.
 * The layout is null unless the summary has the shape the splice assumes: `freshness` and a
 * `schedule_tier` equal to `check_interval` in `evidence` (what presentSummary serves), and links
 * of exactly `page` then `api` (presentSummary rebuilds them in that order under a base URL).
 */
export function serializeSummary(s: ServiceSummary): { json: string; layout: SummaryLayout | null } {
  const json = JSON.stringify(s);
  const l: SummaryLayout = { freshFrom: -1, freshTo: -1, tierFrom: -1, tierTo: -1, pageAt: -1, apiAt: -1 };
  let regular = true;
  let sawLinks = false;
  const len = (v: unknown): number => (JSON.stringify(v) as string | undefined)?.length ?? 0; // undefined members: the length check below catches them
  let pos = 1; // after '{'
  const keys = Object.keys(s);
  for (let j = 0; j < keys.length; j++) {
    const k = keys[j]!;
    const v = (s as unknown as Record<string, unknown>)[k];
    if (j > 0) pos++; // ','
    pos += len(k) + 1; // '"k":'
    if (k === 'evidence' && isObject(v)) {
      pos++; // '{'
      const ek = Object.keys(v);
      for (let m = 0; m < ek.length; m++) {
        const memberFrom = pos;
        if (m > 0) pos++;
        pos += len(ek[m]) + 1;
        const valueFrom = pos;
        pos += len(v[ek[m]!]);
        if (ek[m] === 'freshness') {
          l.freshFrom = valueFrom;
          l.freshTo = pos;
        } else if (ek[m] === 'schedule_tier') {
          // Removed with the comma before it, or after it when it is the first member.
          l.tierFrom = memberFrom;
          l.tierTo = m > 0 || ek.length === 1 ? pos : pos + 1;
        }
      }
      pos++; // '}'
      regular &&= v.check_interval !== undefined && JSON.stringify(v.schedule_tier) === JSON.stringify(v.check_interval);
    } else if (k === 'links' && isObject(v) && isLinks(v)) {
      sawLinks = true;
      pos += '{"page":'.length;
      if (v.page.startsWith('/')) l.pageAt = pos + 1;
      pos += len(v.page) + ',"api":'.length;
      if (v.api.startsWith('/')) l.apiAt = pos + 1;
      pos += len(v.api) + 1;
    } else {
      if (k === 'evidence') regular = false;
      pos += len(v);
    }
  }
  pos++; // '}'
  // The walk must end where the serialization does (it always does for parsed JSON; a guard, not a branch in use).
  regular &&= sawLinks && l.freshFrom >= 0 && l.tierFrom >= 0 && pos === json.length;
  return { json, layout: regular ? l : null };
}

export function compileRow(rec: IndexRecord, pos: number): SearchRow {
  const s = rec.summary;
  const e = s.evidence;
  const lastCheck = rec.search.last_check_at ? Date.parse(rec.search.last_check_at) : NaN;
  const { json, layout } = serializeSummary(s);
  return {
    pos,
    id: s.id,
    summaryJson: json,
    layout,
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
