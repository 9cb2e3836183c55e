import type { IndexRecord } from '../../site/contract/index-record.ts';
import type { ServiceSummary } from '../../site/contract/summary.ts';
import { compileNetworks, type CompiledNetworks } from './networks.ts';

/**
 * One tracked service compiled for search: the published summary (shared, never mutated) plus the
 * few values filters and sorts read, normalized once at load so a search is cheap comparisons.
 */
export interface SearchRow {
  /** Position in `SiteState.rows`. */
  pos: number;
  id: string;
  summary: ServiceSummary;
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

export function compileRow(rec: IndexRecord, pos: number): SearchRow {
  const s = rec.summary;
  const e = s.evidence;
  const lastCheck = rec.search.last_check_at ? Date.parse(rec.search.last_check_at) : NaN;
  return {
    pos,
    id: s.id,
    summary: s,
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
