import { priceKindOf } from '../x402/prices.ts';
import { dailySeriesOver } from '../../site/contract/daily-series.ts';
import { API_STATUS, DIRECTORY_SCOPES, type DirectoryScope, MCP_STATUSES, type McpStatus } from '../../site/contract/common.ts';
import { emptyOutcomeReportCounts, type OutcomeReportCounts } from '../../site/contract/moderation.ts';
import { emptyOutcomeReportsByReceipt, type OutcomeReportsByReceipt } from '../../site/contract/outcome-receipt.ts';
import type { SignedOffers } from '../../site/contract/offer-receipt.ts';
import {
  LISTING_CRITERIA_RULE,
  REGISTRY_TEXT_NOTICE,
  SCHEDULE_RULE,
  scheduleTierServed,
  type CatalogInterval,
  type CatalogPresence,
  type CheckRecord,
  type Claim,
  type CriterionResult,
  type CurrentTerms,
  type DailyChecks,
  DECLARED_TERMS_RULE,
  type DeclaredDifference,
  type DeclaredSource,
  type DeclaredTermsState,
  type IndexRecordFile,
  type IntervalChange,
  type LastCheck,
  type OperationInfo,
  type ServiceDetailShape,
  type ServiceSummary,
  type ServiceSummaryFile,
  type TermsChange,
} from '../../site/contract/index.ts';

const isMcpStatus = (s: string | null): s is McpStatus => (MCP_STATUSES as readonly (string | null)[]).includes(s);

/**
 * Shape one staged row (pipeline/publish/sql.ts) into contract objects. Pure functions of the row and
 * the publish instant; validation happens where the bodies are written.
 */
export type Row = Record<string, unknown>;

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const bool = (v: unknown): boolean | null => (v === null || v === undefined ? null : Boolean(v));
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => x !== null).map(String) : []);
const json = <T>(v: unknown, fallback: T): T => {
  if (v === null || v === undefined) return fallback;
  try {
    return JSON.parse(String(v)) as T;
  } catch {
    return fallback;
  }
};

type SummaryEvidence = ServiceSummaryFile['evidence'];

function evidenceOf(r: Row, now: Date): SummaryEvidence {
  // The interval and its name as compute published them (evidence; before the first compute, the
  // primary operation's interval named by macro atlas_interval_name): never named a second time here.
  const hours = Number(r.check_interval_hours);
  const interval = String(r.check_interval) as ServiceSummary['evidence']['check_interval'];
  const lastCheck = json<LastCheck | null>(r.last_check, null);
  // Evidence computed before migration 021 has no protocols member until its next compute.
  if (lastCheck) lastCheck.protocols ??= null;
  // … and before migration 023 no auth_schemes.
  if (lastCheck) lastCheck.auth_schemes ??= null;
  return {
    operations: num(r.operations) ?? 0,
    check_interval_hours: hours,
    check_interval: interval,
    check_interval_rule: str(r.check_interval_rule) ?? SCHEDULE_RULE,
    ...(scheduleTierServed(now) ? { schedule_tier: interval } : {}),
    monitoring_since: String(r.monitoring_since),
    limited_evidence: Boolean(r.limited_evidence),
    checks_30d: num(r.checks_30d) ?? 0,
    passed_30d: num(r.passed_30d) ?? 0,
    missed_30d: num(r.missed_30d) ?? 0,
    pass_rate: num(r.pass_rate),
    freshness: String(r.freshness) as ServiceSummary['evidence']['freshness'],
    last_check: lastCheck,
  };
}

function registryListingOf(r: Row): NonNullable<ServiceSummaryFile['registry_listing']> {
  const mcpStatus = str(r.mcp_status);
  return {
    registry: str(r.registry),
    listed: Boolean(r.listed),
    status: isMcpStatus(mcpStatus) ? mcpStatus : null,
    first_seen_at: str(r.first_seen_at),
    last_seen_at: str(r.last_seen_at),
    unlisted_at: str(r.unlisted_at),
    updated_at: str(r.registry_updated_at),
    x402_version: num(r.x402_version),
    remote_type: str(r.remote_type),
    catalogs: json<CatalogPresence[]>(r.catalogs_j, []),
    // compute's (service_catalog_standing; the rule is view catalog_standing in rules.sql)
    listed_but_failing: bool(r.listed_but_failing),
    passing_but_unlisted: bool(r.passing_but_unlisted),
  };
}

function paymentTermsOf(r: Row): NonNullable<ServiceSummaryFile['payment_terms']> {
  return {
    current_since: String(r.terms_current_since),
    changes_30d: num(r.terms_changes_30d) ?? 0,
    changes_90d: num(r.terms_changes_90d) ?? 0,
    pay_to_changes_90d: num(r.terms_pay_to_changes_90d) ?? 0,
    last_change_at: str(r.terms_last_change_at),
    last_change_kinds: strs(r.terms_last_change_kinds) as NonNullable<ServiceSummary['payment_terms']>['last_change_kinds'],
    // Only while limited (site/contract/terms-window.ts; staged so in sql.ts).
    window_start: str(r.terms_window_start),
    limited: Boolean(r.terms_limited),
  };
}

/**
 * The summary as the generation's files carry it: no `evidence.monitoring_days` and
 * `payment_terms.window_start` only while `limited` (both move with time; the server completes them
 * when it answers, site/contract/monitoring.ts, site/contract/terms-window.ts).
 */
export function summaryOf(r: Row, now: Date): ServiceSummaryFile {
  const id = String(r.id);
  const tier = String(r.tier) as ServiceSummary['tier'];
  const discovered = tier === 'discovered';
  // Price and networks with their sources: compute's result (service_derived; the rule is macro
  // atlas_price_networks in pipeline/store/rules.sql), never a second copy of the rule here. Before
  // the first compute nothing is known: no price, no networks, the source that would hold them.
  const price = r.has_derived ? num(r.price_usd) : null;
  const maxPrice = r.has_derived ? num(r.max_price_usd) : null;
  const priceSource = price === null && maxPrice === null ? null : (str(r.price_source) as ServiceSummary['price_source']);
  const networks = r.has_derived ? strs(r.networks) : [];
  // networks_source: compute's, else (no networks known) macro atlas_unknown_networks_source in SQL.
  const networksSource = String(r.networks_source) as ServiceSummary['networks_source'];

  const usage = {
    registry: str(r.registry),
    calls_30d: num(r.registry_calls_30d),
    payers_30d: num(r.registry_payers_30d),
    last_called_at: str(r.registry_last_called_at),
  };
  const hasUsage = usage.calls_30d !== null || usage.payers_30d !== null || usage.last_called_at !== null;

  return {
    id,
    tier,
    type: String(r.type) as ServiceSummary['type'],
    name: String(r.name),
    name_source: String(r.name_source) as ServiceSummary['name_source'],
    host: String(r.host),
    url: String(r.url),
    method: String(r.method),
    templated_url: Boolean(r.templated_url),
    operator: str(r.operator),
    tags: strs(r.tags),
    category: str(r.category),
    price_usd: price,
    max_price_usd: maxPrice,
    price_source: priceSource,
    provider_endpoints: num(r.provider_endpoints) ?? 1,
    networks,
    networks_source: networksSource,
    mainnet: r.has_derived ? bool(r.mainnet) : null,
    evidence: evidenceOf(r, now),
    registry_usage: hasUsage ? usage : null,
    registry_listing: discovered ? registryListingOf(r) : null,
    payment_terms: r.has_terms ? paymentTermsOf(r) : null,
    declared_terms: declaredStateOf(r.declared_state_j),
    links: { page: `/services/${id}`, api: `/api/v1/services/${id}` },
  };
}

/** The published state of rule declared-terms/1 (compute's declared_state); null when nothing was compared. */
function declaredStateOf(v: unknown): DeclaredTermsState | null {
  const s = json<Omit<DeclaredTermsState, 'rule'> | null>(v, null);
  return s ? { rule: DECLARED_TERMS_RULE, ...s } : null;
}

/** What each source declares now beside the comparison (compute's declared_comparisons), by source. */
function declaredSourcesOf(v: unknown): DeclaredSource[] {
  return json<Array<DeclaredSource & { checked: unknown }>>(v, []).map((s) => ({
    ...s,
    checked: s.checked && typeof s.checked === 'object' ? (s.checked as DeclaredSource['checked']) : null,
  }));
}

const isScalar = (v: unknown): v is number | string | boolean | null =>
  v === null || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean';

/** Criterion values are free-form in compute; the contract keeps scalars and flat objects (anything else as JSON text). */
const scalar = (v: unknown): CriterionResult['value'] => {
  if (v === undefined) return null;
  if (isScalar(v)) return v;
  if (typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every(isScalar))
    return v as Record<string, number | string | boolean | null>;
  return JSON.stringify(v);
};

export function criteriaOf(r: Row): CriterionResult[] {
  return json<Record<string, unknown>[]>(r.criteria, []).map((c) => ({
    id: c.id as CriterionResult['id'],
    description: String(c.description ?? c.name ?? c.id),
    applies: Boolean(c.applies),
    passed: c.applies ? (c.passed === null || c.passed === undefined ? null : Boolean(c.passed)) : null,
    value: scalar(c.value),
    threshold: scalar(c.threshold),
  }));
}

export function indexRecordOf(r: Row, summary: ServiceSummaryFile, criteria: CriterionResult[]): IndexRecordFile {
  const discovered = summary.tier === 'discovered';
  return {
    summary,
    in_directory: Boolean(r.in_directory),
    search: {
      haystack: [summary.name, summary.host, summary.url, summary.operator ?? ''].join(' ').toLowerCase(),
      payers_30d: summary.registry_usage?.payers_30d ?? null,
      listed: discovered ? Boolean(r.listed) && str(r.mcp_status) !== 'deleted' : null,
      latest_passed: bool(r.latest_passed),
      last_check_at: str(r.last_check_at),
      check_interval_hours: summary.evidence.check_interval_hours,
      terms_changes_90d: summary.payment_terms?.changes_90d ?? null,
      // Never evaluated → not in the directory, whatever freshness says later.
      criteria_except_fresh: Boolean(r.has_directory) && criteria.every((c) => !c.applies || c.id === 'fresh' || c.passed === true),
    },
  };
}

function claimStatement(value: unknown, note: unknown, topic: string): string {
  const v = Array.isArray(value) ? value.join(', ') : value === null || value === undefined ? 'none stated' : String(value);
  const base = topic === 'price_usd' && typeof value === 'number' ? `${v} USD per request` : v;
  return note ? `${base} (${String(note)})` : base;
}

/**
 * Reviewed: the listing's sourced statements (services.claims, written by listings ingest), each with
 * the URL and the day it was checked. Discovered: what the registry states about price and networks
 * (no URL, no check day: Atlas copies it, it did not check it).
 */
export function claimsOf(r: Row, summary: ServiceSummaryFile): Claim[] {
  if (summary.tier === 'reviewed') {
    const claims = json<Record<string, { value?: unknown; source_url?: unknown; checked_at?: unknown; note?: unknown }>>(r.claims, {});
    return Object.entries(claims ?? {}).map(([topic, c]) => ({
      topic,
      statement: claimStatement(c?.value ?? null, c?.note, topic),
      source: 'operator' as const,
      source_url: str(c?.source_url),
      checked_at: /^\d{4}-\d{2}-\d{2}$/.test(String(c?.checked_at ?? '')) ? String(c?.checked_at) : null,
    }));
  }
  const out: Claim[] = [];
  const price = num(r.registry_price_usd);
  if (price !== null)
    out.push({
      topic: 'price_usd',
      statement: claimStatement(price, null, 'price_usd'),
      source: 'registry',
      source_url: null,
      checked_at: null,
    });
  const nets = strs(r.registry_networks);
  if (nets.length) out.push({ topic: 'networks', statement: nets.join(', '), source: 'registry', source_url: null, checked_at: null });
  return out;
}

function currentTermsOf(v: unknown): CurrentTerms | null {
  const t = json<
    (Omit<CurrentTerms, 'offers' | 'max_price_usd'> & { offers: unknown; max_price_usd?: number | null; currencies?: unknown }) | null
  >(v, null);
  if (!t) return null;
  const offers = (typeof t.offers === 'string' ? json<unknown[]>(t.offers, []) : Array.isArray(t.offers) ? t.offers : []) as Record<
    string,
    unknown
  >[];
  // The currency recorded with the observation ('network|asset=CUR', payment_terms.currencies).
  const currencyOf = new Map(
    strs(t.currencies).map((c) => {
      const at = c.lastIndexOf('=');
      return [c.slice(0, at), c.slice(at + 1)] as const;
    }),
  );
  return {
    observed_at: t.observed_at,
    x402_version: t.x402_version,
    networks: t.networks ?? [],
    // Receiving addresses are compared but never published, not even hashed: pay_to / pay_to_hash dropped.
    offers: offers.map((o) => ({
      scheme: String(o.scheme ?? ''),
      network: String(o.network ?? ''),
      asset: String(o.asset ?? ''),
      amount: String(o.amount ?? ''),
      max_timeout_seconds: num(o.max_timeout_seconds ?? o.maxTimeoutSeconds),
      // What the amount states follows from the scheme alone (pipeline/x402/prices.ts).
      price_kind: priceKindOf(String(o.scheme ?? '')),
      currency: currencyOf.get(`${String(o.network ?? '')}|${String(o.asset ?? '')}`) ?? null,
    })),
    min_price_usd: t.min_price_usd ?? null,
    max_price_usd: t.max_price_usd ?? null,
  };
}

type OutcomeCountRow = { outcome: string; state: string; receipt: string; n: number };

/**
 * Counts per outcome and moderation state from the staged rows (sql.ts `outcome_reports_j`, one row
 * per outcome, moderation state and receipt state): all reports whatever their receipt; every count
 * present, zero when none.
 */
export function outcomeReportsOf(v: unknown): OutcomeReportCounts {
  const out = emptyOutcomeReportCounts();
  for (const r of json<OutcomeCountRow[]>(v, [])) {
    const byState = out[r.outcome as keyof OutcomeReportCounts] as Record<string, number> | undefined;
    if (byState && r.state in byState) byState[r.state] = (byState[r.state] ?? 0) + Number(r.n);
  }
  return out;
}

/** The same rows kept apart per receipt state (verified, not_verified, no_receipt); every count present. */
export function outcomeReportsByReceiptOf(v: unknown): OutcomeReportsByReceipt {
  const out = emptyOutcomeReportsByReceipt();
  for (const r of json<OutcomeCountRow[]>(v, [])) {
    const byOutcome = out[r.receipt as keyof OutcomeReportsByReceipt] as Record<string, Record<string, number>> | undefined;
    const byState = byOutcome?.[r.outcome];
    if (byState && r.state in byState) byState[r.state] = Number(r.n);
  }
  return out;
}

/**
 * The single-service file without its render-instant members (site/contract/service-file.ts adds
 * them): a function of the row and the day list only, so a service whose inputs did not change
 * shapes to the same object in every generation.
 */
export function detailOf(r: Row, summary: ServiceSummaryFile, criteria: CriterionResult[], dayList: readonly string[]): ServiceDetailShape {
  const discovered = summary.tier === 'discovered';
  return {
    api_status: API_STATUS,
    ...summary,
    description: discovered ? null : str(r.description),
    in_directory: Boolean(r.in_directory),
    directory: {
      rule: str(r.directory_rule) ?? LISTING_CRITERIA_RULE,
      evaluated_at: str(r.directory_evaluated_at),
      in_directory: Boolean(r.in_directory),
      criteria,
      scope: DIRECTORY_SCOPES.includes(r.directory_scope as DirectoryScope) ? (r.directory_scope as DirectoryScope) : null,
    },
    claims: claimsOf(r, summary),
    operations: json<OperationInfo[]>(r.ops_j, []),
    recent_checks: json<CheckRecord[]>(r.recent_j, []),
    daily_checks: dailySeriesOver(json<DailyChecks[]>(r.daily_j, []), dayList),
    current_terms: currentTermsOf(r.terms_latest_j),
    terms_changes: json<TermsChange[]>(r.terms_changes_j, []),
    declared_sources: declaredSourcesOf(r.declared_sources_j),
    declared_differences: json<DeclaredDifference[]>(r.declared_diffs_j, []),
    interval_history: json<IntervalChange[]>(r.intervals_j, []),
    catalog_history: json<CatalogInterval[]>(r.catalog_history_j, []),
    registry_text: discovered
      ? {
          third_party_text: true,
          notice: REGISTRY_TEXT_NOTICE,
          registry: str(r.registry),
          name: summary.name_source === 'registry' ? summary.name : null,
          description: str(r.description),
        }
      : null,
    outcome_reports: outcomeReportsOf(r.outcome_reports_j),
    outcome_reports_by_receipt: outcomeReportsByReceiptOf(r.outcome_reports_j),
    signed_offers: json<SignedOffers | null>(r.signed_offers_j, null),
  };
}
