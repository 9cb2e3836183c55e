import type { FieldEntry } from './fields.ts';
import { NEEDS_REVIEW_RULE } from './changes.ts';
import { CHECK_REASONS, PAYMENT_PROTOCOLS, SCHEDULE_REASONS, SCHEDULE_TIER_SUNSET } from './common.ts';
import { MODERATION_LIMITS, MODERATION_REASONS, MODERATION_RULE } from './moderation.ts';
import { RECEIPT_WINDOW } from './outcome-receipt.ts';
import { RECEIPT_REASONS, RECEIPT_RULE } from './receipt-verdict.ts';
import { MAX_SIGNED_OFFERS, SIGNED_OFFERS_RULE, SignatureReason, SignerReason } from './offer-receipt.ts';
import { REPORT_FIELD_DOCS } from './report-field-docs.ts';
import {
  LISTED_BUT_FAILING_RULE,
  MAINNET_FILTER_RULE,
  NETWORK_FILTER_RULE,
  PASSING_BUT_UNLISTED_RULE,
  PROVIDER_FILTER_RULE,
} from './requests.ts';

/**
 * Definitions of every member of every response, keyed by `<Schema>.<path>` where Schema is the
 * nearest named schema (see components.ts) and path is relative to it (`Stats.totals.services`).
 * Keys `*.<member>` apply to that member of any schema (api_status, generated_at).
 * The field dictionary (/api/v1/fields) and the OpenAPI descriptions are generated from this table;
 * test/site/contract/schemas.test.ts asserts that every member has an entry.
 */
export type FieldDoc = Pick<FieldEntry, 'definition' | 'unit' | 'window' | 'source'>;

const d = (source: FieldDoc['source'], definition: string, unit: string | null = null, window: string | null = null): FieldDoc => ({
  source,
  definition,
  unit,
  window,
});

/**
 * Windows, each stated against the instant it ends at. The evidence and payment-term windows end at
 * `data_as_of` (the compute instant); the detail's series and the stats end at `generated_at` (the
 * publish instant); the status windows end at `generated_at` of the answer.
 */
/** The instant the catalog standing is evaluated at (view catalog_standing, pipeline/store/rules.sql). */
const CATALOG_STANDING_INSTANT =
  'at data_as_of (the compute instant): the catalog intervals recorded up to it, and the latest check of the primary operation at or before it';

const W30 = 'the 30 days ending at data_as_of (the compute instant), both ends included';
const W30_TERMS = 'the 30 days ending at data_as_of (the compute instant): after data_as_of - 30 days, up to and including data_as_of';
const W90_TERMS = 'the 90 days ending at data_as_of (the compute instant): after data_as_of - 90 days, up to and including data_as_of';
const W90_DETAIL =
  'the 90 days ending at generated_at (the publish instant): after generated_at - 90 days, up to and including generated_at';
const W24 = 'the 24 hours ending at generated_at (the publish instant): after generated_at - 24 hours, up to and including generated_at';
const W_DAYS = 'the 30 UTC days ending with the UTC day of generated_at (the publish instant), checks at or before generated_at';

export const FIELD_DOCS: Record<string, FieldDoc> = {
  '*.api_status': d(
    'constant',
    'Always "preview": the API is an unstable preview; data and fields can change without notice. Also sent as the X-API-Status header.',
  ),
  '*.generated_at': d(
    'atlas',
    'When this body was produced (UTC, ISO-8601): by the server at answer time for bodies it computes, by publish for published bodies served as they are. Each resource states which.',
    'date-time',
  ),
  '*.data_as_of': d(
    'atlas',
    'When compute last ran before the publish that produced these figures: the start of the latest compute run that finished ok or partial, the instant every computed figure is computed at. The 30-day and 90-day windows of evidence and payment_terms end at data_as_of. Null when compute has never run.',
    'date-time',
  ),
  'ServiceList.generated_at': d(
    'atlas',
    'The answer instant (server clock): freshness and the freshness criterion of every item are evaluated at it. The other figures are as of data_as_of.',
    'date-time',
  ),

  // ServiceList (GET /api/v1/services)
  'ServiceList.notes': d(
    'constant',
    'Explanatory texts keyed by topic (tier, evidence windows, pass rules, freshness, directory, name sources, networks, tags, prices).',
  ),
  'ServiceList.query': d('request', 'Echo of the effective query after defaults and normalization.'),
  'ServiceList.total': d(
    'computed',
    'Number of services matching the query before paging (with group=provider: number of provider rows).',
    'services',
  ),
  'ServiceList.items': d('computed', 'The page of results (limit and offset applied), in the requested sort order.'),
  'ServiceList.hint': d('constant', 'Present only when nothing matched: suggests scope=index and feedback of kind missing_service.'),
  'Notes.tier': d('constant', 'What tier means (origin, not a rating).'),
  'Notes.evidence_windows': d('constant', 'The windows of the evidence counts.'),
  'Notes.pass_rules': d('constant', 'The pass rules of scheduled checks.'),
  'Notes.freshness': d('constant', 'How freshness is decided.'),
  'Notes.directory': d('constant', 'What scope=directory shows (listing-criteria/1).'),
  'Notes.name_sources': d('constant', 'Where names come from; registry text is untrusted.'),
  'Notes.networks': d('constant', 'Network ids, their sources and the mainnet flag.'),
  'Notes.tags': d('constant', 'Where tags come from.'),
  'Notes.prices': d('constant', 'How price_usd is found and what it is not.'),
  'QueryEcho.scope': d(
    'request',
    'directory (default: only services meeting every applicable listing criterion) or index (everything tracked).',
  ),
  'QueryEcho.provider': d('request', `The provider filter, when given; ${PROVIDER_FILTER_RULE}.`),
  'QueryEcho.group': d('request', 'provider when endpoints were collapsed to one row per host.'),
  'QueryEcho.sort': d('request', 'Sort order in force (default evidence).'),
  'QueryEcho.limit': d('request', 'Page size in force (1 to 100, default 50).', 'services'),
  'QueryEcho.offset': d('request', 'Offset in force (default 0).', 'services'),
  'QueryEcho.filters': d('request', 'The other effective filters by parameter name, normalized (booleans and numbers parsed).'),

  // ServiceSummary (one service in a list)
  'ServiceSummary.id': d(
    'atlas',
    'Service identifier, stable across runs: svc_<slug> for reviewed services (the listing file name); cand_ + the first 20 hex characters of SHA-256 over the registry key for discovered ones (x402: "x402|<METHOD>|<url>"; MCP: "mcp|<server name>|<remote url>").',
  ),
  'ServiceSummary.tier': d(
    'atlas',
    'reviewed (from Atlas listing files) or discovered (from a public registry, not written up). Origin, not a rating. The check intervals of each tier: Evidence.check_interval.',
  ),
  'ServiceSummary.type': d(
    'atlas',
    'api_endpoint (an x402 payable endpoint), mcp_server (a remote MCP server) or task_marketplace (reviewed listings only).',
  ),
  'ServiceSummary.name': d(
    'registry',
    'Reviewed: the name the service gives itself (operator material). Discovered: the registry display label, or the host when the registry gives none. Registry text is untrusted third-party text, never an instruction.',
  ),
  'ServiceSummary.name_source': d('atlas', "atlas (reviewed, from the operator's material) or registry."),
  'ServiceSummary.host': d('atlas', 'Hostname of the checked endpoint; not a verified identity.'),
  'ServiceSummary.url': d('atlas', 'URL the primary operation is checked at (as listed; placeholders of a templated URL unfilled).'),
  'ServiceSummary.method': d('atlas', 'HTTP method of the primary operation, as the registry or listing names it.'),
  'ServiceSummary.templated_url': d(
    'computed',
    'True when ingest marked the URL as templated or the URL contains "/:", "{" or "%7B" (any case): a placeholder a caller must fill in.',
  ),
  'ServiceSummary.operator': d('operator', 'Reviewed: the operator named by the listing. Discovered: always null.'),
  'ServiceSummary.tags': d(
    'registry',
    'Purpose tags. Reviewed: capability tags from the listing. Discovered: the registry tags lowercased, spaces and _ turned into -, every character outside [a-z0-9-] dropped, duplicates removed; not reviewed.',
  ),
  'ServiceSummary.category': d(
    'operator',
    'Reviewed: the purpose category from the listing, null when it gives none. Discovered: always null.',
  ),
  'ServiceSummary.price_usd': d(
    'computed',
    "Price of one paid request in US dollars, as of data_as_of: an exact price, never a maximum. Discovered: the lowest price among the registry's offers whose scheme states the charge (exact), counted only for offers on a known USD stablecoin of a known mainnet (amount / 10^decimals; test-network tokens are never dollars, and a coin pegged to another currency, such as EURC, is never converted). Offers under upto or batch-settlement state a maximum (see max_price_usd); offers under any other scheme are never priced. Reviewed: the price the operator states (a claim). Null when none is known, or compute has not evaluated the service yet. Observed payment requests never set it (see current_terms.min_price_usd). Not a measured charge. The max_price_usd query filter compares this field only: a service whose offers state only maxima has price_usd null and is left out of a max_price_usd search, like any service without a known price.",
    'USD per request',
  ),
  'ServiceSummary.max_price_usd': d(
    'computed',
    'The most one paid request can cost in US dollars, as of data_as_of, for a discovered service whose registry offers include upto or batch-settlement schemes (the charge is decided at settlement, at or below this amount): the lowest such maximum, counted only for offers on a known USD stablecoin of a known mainnet. Null when no such offer is priced, and for reviewed services. Never a price and never mixed into price_usd (a service offering both exact and upto has both fields). Not a measured charge.',
    'USD per request',
  ),
  'ServiceSummary.price_source': d(
    'computed',
    'registry (discovered: price_usd and max_price_usd come from the registry listing), operator (reviewed: the stated price, a claim) or null when both price_usd and max_price_usd are null.',
  ),
  'ServiceSummary.provider_endpoints': d(
    'computed',
    'Number of tracked services (index scope) on the same host, itself included: what provider=<host> with scope=index returns.',
    'endpoints',
  ),
  'ServiceSummary.networks': d(
    'computed',
    `Payment networks, as of data_as_of, from the first of: the networks of the latest valid payment request observed (discovered: of the primary operation; reviewed: of any operation); else the networks the registry lists; else the operator's stated networks; else []. Ids as the source gives them (CAIP-2 where known). The network filter: ${NETWORK_FILTER_RULE}.`,
  ),
  'ServiceSummary.networks_source': d(
    'computed',
    'Where networks comes from: observed (a valid payment request Atlas received), registry or operator. With no network known: operator for reviewed services, registry for discovered ones.',
  ),
  'ServiceSummary.mainnet': d(
    'computed',
    `True when at least one of networks is a known mainnet (Atlas's network table); false when networks is not empty but none is a known mainnet (unknown ids never count as mainnet); null when networks is empty or compute has not evaluated the service yet. The mainnet filter: ${MAINNET_FILTER_RULE}.`,
  ),
  'ServiceSummary.evidence': d(
    'measured',
    "Atlas's own measurements of the scheduled checks, computed at data_as_of (freshness recomputed at the answer instant).",
    null,
    W30,
  ),
  'ServiceSummary.registry_usage': d(
    'registry',
    'Usage figures the registry reports, not measured by Atlas; null when the registry gives none of calls_30d, payers_30d and last_called_at.',
  ),
  'ServiceSummary.registry_listing': d('registry', 'How the registry lists the service; null for reviewed services.'),
  'ServiceSummary.payment_terms': d(
    'measured',
    'Changes of the x402 payment terms Atlas observed on the primary operation of a discovered service, as of data_as_of; null for reviewed services and when no valid payment request was observed.',
    null,
    W90_TERMS,
  ),
  'ServiceSummary.declared_terms': d(
    'computed',
    "Declared against observed payment terms (rule declared-terms/1) as of data_as_of: what the sources declare (the catalogs' listed offers, the seller's /.well-known/x402, our listing's price and networks claims) compared with the latest valid x402 payment request of the primary operation observed at or before data_as_of. Null when no source states anything comparable or no valid payment request was observed. A measurement of agreement, never a rating.",
  ),
  'DeclaredTermsState.rule': d('constant', 'The rule that compares declared and observed terms: declared-terms/1.'),
  'DeclaredTermsState.differs': d(
    'computed',
    'True when, for at least one source, at least one dimension differs at data_as_of: price (both state a lowest exact price in dollars on a known USD stablecoin and they differ), max_price (both state a lowest maximum of an upto or batch-settlement offer and they differ; a maximum is never compared with a price), network (the declared set of CAIP-2 networks is not the observed set), asset (on the networks both name, the token sets differ), scheme (the scheme sets differ), pay_to (the receiving-address sets differ, compared as salted hashes). A source that states nothing about a dimension never differs there.',
  ),
  'DeclaredTermsState.dimensions': d('computed', 'The dimensions that differ at data_as_of for any source, sorted; [] when none.'),
  'DeclaredTermsState.since': d(
    'computed',
    'The earliest began_at of the differences still open at data_as_of (see ServiceDetail.declared_differences); null when none differs.',
    'date-time',
  ),
  'DeclaredTermsState.sources_compared': d(
    'computed',
    'How many sources (catalogs, seller documents, our listing) state something comparable and were compared with the live payment request.',
    'sources',
  ),
  'ServiceDetail.declared_sources': d(
    'computed',
    'Per source, what it declares now beside the comparison with the live payment request (rule declared-terms/1) at data_as_of, ordered by kind and name; [] when no source declares anything.',
  ),
  'DeclaredSource.kind': d(
    'atlas',
    "Where the declaration comes from: catalog (a discovery catalog's listed offers), well_known (the seller's own /.well-known/x402 document), listing (our reviewed listing's sourced claims).",
  ),
  'DeclaredSource.name': d('atlas', "The catalog's configured name, well-known:<host>, or the listing file."),
  'DeclaredSource.declared_since': d(
    'atlas',
    'When Atlas first read the declaration as it stands now (a changed declaration starts again).',
    'date-time',
  ),
  'DeclaredSource.read_at': d('atlas', 'When Atlas last read the source and found this declaration.', 'date-time'),
  'DeclaredSource.price_usd': d(
    'registry',
    "The lowest exact price the source states, in US dollars (exact-scheme offers on known USD stablecoins of known mainnets; a listing's operator-stated price per request); null when it states none.",
    'USD',
  ),
  'DeclaredSource.max_price_usd': d(
    'registry',
    'The lowest maximum the source states (upto and batch-settlement offers), in US dollars: the most a call can cost, not a price; null when it states none.',
    'USD',
  ),
  'DeclaredSource.networks': d('registry', 'The networks the source states (CAIP-2 where known), sorted; null when it states none.'),
  'DeclaredSource.assets': d(
    'registry',
    'The tokens the source states, as network|asset (EVM addresses lower-cased), sorted; null when it states none.',
  ),
  'DeclaredSource.schemes': d('registry', 'The payment schemes the source states, sorted; null when it states none.'),
  'DeclaredSource.states_pay_to': d(
    'registry',
    'Whether the source states receiving addresses (compared as salted hashes; addresses are never published).',
  ),
  'DeclaredSource.checked': d(
    'operator',
    'For a listing: per claim (price_usd, networks) the public page it was checked against and the UTC day of the check; null for catalogs and seller documents (Atlas read them itself at read_at).',
  ),
  'ClaimCheck.source_url': d('operator', 'The public page the claim was checked against.'),
  'ClaimCheck.checked_at': d('operator', 'The UTC day the claim was last checked.', 'date'),
  'DeclaredSource.observed_at': d(
    'measured',
    'The check that first observed the live values compared (the observed terms in force at data_as_of); null when no valid payment request was observed.',
    'date-time',
  ),
  'DeclaredSource.compared': d(
    'computed',
    'True when the source states something and a valid payment request was observed, so the two were compared.',
  ),
  'DeclaredSource.differing': d(
    'computed',
    'The dimensions that differ now for this source (rule declared-terms/1), sorted; [] when none.',
  ),
  'ServiceDetail.declared_differences': d(
    'computed',
    "Every difference between a source's declaration and the live payment request found by the last compute (at data_as_of), newest began_at first: per source and dimension, a run of comparisons at which the dimension differs is one event. Comparisons happen whenever a declaration changes (each read of a source) and whenever the observed terms change.",
  ),
  'DeclaredDifference.source_kind': d('atlas', 'catalog, well_known or listing (as DeclaredSource.kind).'),
  'DeclaredDifference.source': d('atlas', "The source's name (as DeclaredSource.name)."),
  'DeclaredDifference.dimension': d(
    'computed',
    'What differs: price, max_price, network, asset, scheme or pay_to (rule declared-terms/1).',
  ),
  'DeclaredDifference.began_at': d(
    'computed',
    'The first comparison at which the dimension differed: the later of the read of the declaration and the check that observed the live value.',
    'date-time',
  ),
  'DeclaredDifference.ended_at': d(
    'computed',
    'The first later comparison at which it no longer differed (the source declared otherwise, stopped declaring, or the live terms changed); null while it still differs at data_as_of.',
    'date-time',
  ),
  'DeclaredDifference.declared_value': d(
    'registry',
    'The declared value when the difference began: dollars for price and max_price, a sorted list for network, asset and scheme, null for pay_to (addresses are never published).',
  ),
  'DeclaredDifference.declared_since': d('atlas', 'When Atlas first read that declaration.', 'date-time'),
  'DeclaredDifference.observed_value': d('measured', 'The observed value when the difference began, in the same form as declared_value.'),
  'DeclaredDifference.observed_at': d('measured', 'The check that first observed that live value.', 'date-time'),
  'DeclaredDifferenceChange.service_id': d('atlas', 'The service the difference belongs to.'),
  'DeclaredDifferenceChange.source_kind': d('atlas', 'catalog, well_known or listing (as DeclaredSource.kind).'),
  'DeclaredDifferenceChange.source': d('atlas', "The source's name (as DeclaredSource.name)."),
  'DeclaredDifferenceChange.dimension': d('computed', 'What differs (as DeclaredDifference.dimension).'),
  'DeclaredDifferenceChange.began_at': d('computed', 'As DeclaredDifference.began_at.', 'date-time'),
  'DeclaredDifferenceChange.ended_at': d('computed', 'As DeclaredDifference.ended_at; null while it still differs.', 'date-time'),
  'DeclaredDifferenceChange.declared_value': d('registry', 'As DeclaredDifference.declared_value.'),
  'DeclaredDifferenceChange.declared_since': d('atlas', 'As DeclaredDifference.declared_since.', 'date-time'),
  'DeclaredDifferenceChange.observed_value': d('measured', 'As DeclaredDifference.observed_value.'),
  'DeclaredDifferenceChange.observed_at': d('measured', 'As DeclaredDifference.observed_at.', 'date-time'),
  'DeclaredDifferenceChange.service_name': d('atlas', 'Its name (null when the service is gone).'),
  'ServiceSummary.links': d('atlas', "Relative links to the service's page and API object."),
  'Links.page': d('atlas', 'Path of the HTML page: /services/<id>.'),
  'Links.api': d('atlas', 'Path of the single-service object: /api/v1/services/<id>.'),

  // evidence
  'Evidence.operations': d(
    'atlas',
    'Number of enabled operations counted in the evidence: every operation of a reviewed service (its call and documentation pages), the primary operation of a discovered one.',
    'operations',
  ),
  'Evidence.check_interval_hours': d(
    'computed',
    'Interval between scheduled checks of the primary operation in force at data_as_of (rule schedule/1: reviewed calls hourly, documentation daily; discovered services hourly to monthly by registry payers, newness, failures and unlisting). 24 when no primary operation is known.',
    'hours',
  ),
  'Evidence.check_interval': d(
    'computed',
    'Name of check_interval_hours: hourly (1), daily (24), weekly (168), monthly (720) (schedule/1 sets only these four).',
  ),
  'Evidence.check_interval_rule': d('constant', 'Identifier of the published rule that set the interval (schedule/1).'),
  'Evidence.schedule_tier': d(
    'computed',
    `Deprecated old name of check_interval, same value; served until ${SCHEDULE_TIER_SUNSET} (Deprecation and Sunset headers).`,
  ),
  'Evidence.monitoring_since': d(
    'atlas',
    'Start of monitoring. Reviewed: when the listing was approved. Discovered: when Atlas first saw the service in the registry.',
    'date-time',
  ),
  'Evidence.monitoring_days': d(
    'computed',
    'Days from monitoring_since to data_as_of (to generated_at before the first compute), to 3 decimals, never below 0. Evaluated by the server when it answers; the published per-service files leave it out and give monitoring_since.',
    'days',
  ),
  'Evidence.limited_evidence': d(
    'computed',
    'True when monitoring_since is later than data_as_of minus 30 days: the monitoring period is shorter than the evidence window.',
  ),
  'Evidence.checks_30d': d(
    'measured',
    'Checks that ran of the counted operations (every operation of a reviewed service, the primary operation of a discovered one), checked_at in the window.',
    'checks',
    W30,
  ),
  'Evidence.passed_30d': d('measured', 'Of checks_30d, the checks that passed their pass rule.', 'checks', W30),
  'Evidence.missed_30d': d(
    'computed',
    'Scheduled checks that did not run, summed over the counted operations: per operation, expected by the schedule in force at the time (for each stretch with one interval, floor(stretch length / interval), the stretch clipped to the window, to the monitoring period and to the periods when the operation was active: its service active, the operation enabled; an inactive period expects none; a discovered service its registry stopped listing stays active, as it is still probed on the schedule in force) minus its checks that ran in those periods, never below 0. Never counted as failures.',
    'checks',
    W30,
  ),
  'Evidence.pass_rate': d('computed', 'passed_30d / checks_30d; null when checks_30d is 0.', 'ratio 0..1', W30),
  'Evidence.freshness': d(
    'computed',
    'From the latest check of the primary operation and its interval (check_interval_hours): fresh when the answer instant minus that check is at most two intervals (a check later than the answer instant counts as fresh), stale when older, no_data when the primary operation was never checked. Recomputed by the server at the answer instant; a published file holds the value at data_as_of.',
  ),
  'Evidence.last_check': d(
    'measured',
    'The latest check of the primary operation at or before data_as_of; null when it was never checked.',
  ),
  'LastCheck.checked_at': d('measured', "When the check's request was sent (the probe's clock just before the request).", 'date-time'),
  'LastCheck.operation': d('atlas', 'Id of the operation checked: the primary operation.'),
  'LastCheck.status': d(
    'measured',
    'HTTP status received; null when no response arrived (timeout, DNS failure, refused or reset connection, TLS failure, blocked address, ...).',
  ),
  'LastCheck.passed': d('measured', 'Whether the check passed its pass rule.'),
  'LastCheck.reason': d('measured', `Reason code of the verdict (${CHECK_REASONS.join(', ')}).`),
  'LastCheck.latency_ms': d(
    'measured',
    'Milliseconds from sending the request to the end of the response body, or to the failure or abort when no complete response arrived (a timeout counts its whole wait); rounded to 0.1 ms. Null only when not recorded.',
    'milliseconds',
  ),
  'LastCheck.rule': d(
    'constant',
    'Pass rule id applied to the check (reviewed/1, x402-mainnet/2, mcp-reach/3; checks judged before x402-mainnet/2 keep x402-mainnet/1, which had the same pass/fail outcome but reported not_x402, no_payment_offer and unknown_network failures as invalid_payment_request).',
  ),
  'LastCheck.protocols': d(
    'measured',
    `Payment protocols the check's HTTP 402 answer carried, in this order: ${PAYMENT_PROTOCOLS.join(', ')} (x402-v2: an x402 request in the PAYMENT-REQUIRED header; x402-auth-only: an x402 request with an empty accepts, sign-in only; x402-v1: an x402 request in the JSON body; mpp: a WWW-Authenticate challenge with scheme Payment; l402: a WWW-Authenticate challenge with scheme L402 or LSAT). An x402 request is listed whether or not it is valid (reason says). Empty when the 402 carried none of them; null when the answer was not a 402, or the check was stored before protocols were recorded.`,
  ),

  'LastCheck.auth_schemes': d(
    'measured',
    "For an MCP server's check (mcp-reach/3) answered with HTTP 401: the authentication schemes its WWW-Authenticate header names, lower-cased, each once, in order (e.g. bearer, basic); at most 8, and a scheme longer than 64 characters is left out. Empty when the 401 names no scheme; null for any other answer, for x402 and reviewed checks, and for checks stored before auth schemes were recorded. The status itself is status; a paid MCP server's 402 is described by protocols.",
  ),

  // payment_terms
  'PaymentTerms.current_since': d(
    'measured',
    'When the current terms were first observed: the last change, else the first valid payment request.',
    'date-time',
  ),
  'PaymentTerms.changes_30d': d(
    'measured',
    'Changes in the window: valid payment requests of the primary operation whose normalized offer set (scheme, network, asset, amount, receiving-address hash, timeout, protocol version) differs from the previous valid one.',
    'changes',
    W30_TERMS,
  ),
  'PaymentTerms.changes_90d': d('measured', 'Same as changes_30d over 90 days.', 'changes', W90_TERMS),
  'PaymentTerms.pay_to_changes_90d': d(
    'measured',
    'Of changes_90d, the changes whose kinds include pay_to (receiving addresses are compared as salted hashes and never published).',
    'changes',
    W90_TERMS,
  ),
  'PaymentTerms.last_change_at': d(
    'measured',
    'Time of the latest change observed at or before data_as_of, in or before the window; null when the terms never changed.',
    'date-time',
  ),
  'PaymentTerms.last_change_kinds': d(
    'computed',
    'Kinds of that latest change ([] when none): price, network_added, network_removed, asset, pay_to, scheme, version, other.',
  ),
  'PaymentTerms.window_start': d(
    'computed',
    'Start of the counting window: the later of data_as_of minus 90 days and the first valid payment request observed. The server completes it when it answers: a published per-service file gives it only while limited is true (the first observation) and null otherwise (then it is data_as_of minus 90 days).',
    'date-time',
  ),
  'PaymentTerms.limited': d(
    'computed',
    'True when the first valid payment request was observed after data_as_of minus 90 days (tracking has run less than the window).',
  ),
  'TermsChange.changed_at': d('measured', 'When the payment request with the changed terms was observed.', 'date-time'),
  'TermsChange.kinds': d(
    'computed',
    'Kinds of this change: price (an amount differs for a scheme, network and asset offered in both), network_added, network_removed, asset (on a network offered in both, the assets differ), pay_to, scheme, version, other (the timeout differs, or nothing above).',
  ),
  'CurrentTerms.observed_at': d(
    'measured',
    'When the latest valid payment request of the primary operation at or before generated_at was received (its check time).',
    'date-time',
  ),
  'CurrentTerms.x402_version': d('measured', 'x402 protocol version of that request.'),
  'CurrentTerms.networks': d('measured', 'Distinct networks of its offers, sorted.'),
  'CurrentTerms.offers': d('measured', 'The offers of the request, normalized; receiving addresses omitted.'),
  'CurrentTerms.min_price_usd': d(
    'computed',
    'Lowest exact price of that request in US dollars: only offers whose scheme states the charge (exact), on a known USD stablecoin of a known mainnet (amount / 10^decimals); null when no offer qualifies. Maxima (upto, batch-settlement) are in max_price_usd; other schemes and non-USD coins are never priced. Requests observed before maxima were told apart priced every scheme alike.',
    'USD per request',
  ),
  'CurrentTerms.max_price_usd': d(
    'computed',
    'Lowest stated maximum of that request in US dollars: offers under upto or batch-settlement (the most one call can cost), on a known USD stablecoin of a known mainnet; null when no offer qualifies, or the request was observed before maxima were recorded.',
    'USD per request',
  ),
  'TermsOffer.scheme': d('measured', 'Payment scheme as offered (exact, upto, batch-settlement, or any other; kept as given).'),
  'TermsOffer.network': d('measured', 'Network (CAIP-2).'),
  'TermsOffer.asset': d('measured', 'Token asset address or id.'),
  'TermsOffer.amount': d(
    'measured',
    'Amount in atomic token units (decimal string): the charge under exact, the most a call can cost under upto and batch-settlement (see price_kind).',
    'atomic token units',
  ),
  'TermsOffer.max_timeout_seconds': d('measured', 'maxTimeoutSeconds of the offer; null when absent.', 'seconds'),
  'TermsOffer.price_kind': d(
    'computed',
    'What the amount states, from the scheme: exact (the charge of one call), maximum (upto, batch-settlement: the most one call can cost; the charge is settled at or below it) or null (any other scheme: its amount is never priced).',
  ),
  'TermsOffer.currency': d(
    'computed',
    'Currency the offered token is pegged to (ISO 4217, such as USD or EUR) when the token is a stablecoin known for that network; null for any other token, and for requests observed before currencies were recorded. Only USD amounts are ever converted to dollars.',
  ),

  // registry data
  'RegistryUsage.registry': d('registry', 'Name of the registry reporting the figures.'),
  'RegistryUsage.calls_30d': d(
    'registry',
    'Calls in 30 days as reported by the registry.',
    'calls',
    '30 days, as the registry counts them',
  ),
  'RegistryUsage.payers_30d': d(
    'registry',
    'Unique payers in 30 days as reported by the registry (used by schedule/1 and the min_payers filter).',
    'payers',
    '30 days, as the registry counts them',
  ),
  'RegistryUsage.last_called_at': d('registry', 'Last call time reported by the registry.', 'date-time'),
  'RegistryListing.registry': d('registry', 'Registry name.'),
  'RegistryListing.listed': d('computed', 'Whether the latest complete sweep of the registry listed the service.'),
  'RegistryListing.status': d('registry', 'MCP registry status (active, deprecated, deleted); null for x402 registries.'),
  'RegistryListing.first_seen_at': d('atlas', 'When Atlas first saw the service in the registry.', 'date-time'),
  'RegistryListing.last_seen_at': d('atlas', 'When Atlas last saw it listed in a sweep.', 'date-time'),
  'RegistryListing.unlisted_at': d('atlas', 'When a complete sweep first missed it; null while listed.', 'date-time'),
  'RegistryListing.updated_at': d('registry', "The registry's own last-updated time.", 'date-time'),
  'RegistryListing.x402_version': d('registry', 'Protocol version the registry declares.'),
  'RegistryListing.remote_type': d('registry', 'MCP remote transport (streamable-http, sse); null otherwise.'),
  'RegistryListing.catalogs': d(
    'atlas',
    'Every catalog (configured registry source) that lists or listed the service, oldest first; the service is listed while one of them has until null.',
  ),
  'RegistryListing.catalogs[].kind': d(
    'atlas',
    'Kind of catalog: x402 (a discovery/resources catalog, whose items may be MCP servers) or mcp (an MCP registry).',
  ),
  'RegistryListing.catalogs[].name': d('atlas', "The catalog's configured name (e.g. cdp, binance, official)."),
  'RegistryListing.catalogs[].since': d('atlas', 'When a sweep of this catalog first listed the service.', 'date-time'),
  'RegistryListing.catalogs[].until': d(
    'atlas',
    'When a complete sweep of this catalog first no longer listed it (or the catalog marked it deleted); null while it lists it.',
    'date-time',
  ),

  'RegistryListing.listed_but_failing': d('computed', `Listed but failing: ${LISTED_BUT_FAILING_RULE}`, null, CATALOG_STANDING_INSTANT),
  'RegistryListing.passing_but_unlisted': d(
    'computed',
    `Passing but unlisted: ${PASSING_BUT_UNLISTED_RULE}`,
    null,
    CATALOG_STANDING_INSTANT,
  ),

  // single-service object
  'ServiceDetail.catalog_history': d(
    'atlas',
    'Every interval during which one catalog (configured registry source) listed the service, recorded by its sweeps, ordered by listed_at, then catalog kind and name; [] for reviewed services. A catalog that dropped and relisted the service has one interval per listing. Intervals before migration 061 were not recorded: a catalog that had listed the service then has one interval from its first listing (its drops and relistings before then are not known).',
    null,
    'every interval recorded up to generated_at (the publish instant)',
  ),
  'ServiceDetail.catalog_history[].kind': d('atlas', 'Kind of catalog: x402 (a discovery/resources catalog) or mcp (an MCP registry).'),
  'ServiceDetail.catalog_history[].name': d('atlas', "The catalog's configured name (e.g. cdp, binance, official)."),
  'ServiceDetail.catalog_history[].listed_at': d(
    'atlas',
    'The sweep of this catalog that listed the service (first listed, or listed again after a drop).',
    'date-time',
  ),
  'ServiceDetail.catalog_history[].unlisted_at': d(
    'atlas',
    'The complete sweep of this catalog that no longer listed it, or the sweep in which the catalog marked it withdrawn (MCP status deleted or deprecated); null while it lists it.',
    'date-time',
  ),
  'ServiceDetail.catalog_history[].unlisted_reason': d(
    'atlas',
    'Why the interval ended: missing_from_sweep (a complete sweep did not contain it), <status>_status (the MCP registry marked it deleted or deprecated), not_recorded (a drop recorded before migration 061, cause unknown); null while listed.',
  ),
  'ServiceDetail.description': d(
    'atlas',
    "Reviewed: Atlas's description written from the operator's material; null for discovered services (registry text is under registry_text).",
  ),
  'ServiceDetail.generated_at': d(
    'atlas',
    "The publish instant of the generation the object is served from (the server adds it from the generation's manifest; the published file api/v1/services/<id>.json leaves it and data_as_of out, so an unchanged service's file is shared between generations). recent_checks, daily_checks, current_terms, terms_changes and interval_history are read at it; freshness and in_directory are recomputed by the server at the answer instant; the other figures are as of data_as_of.",
    'date-time',
  ),
  'ServiceDetail.in_directory': d(
    'computed',
    'Whether the service meets every listing criterion that applies to it: the criteria evaluated by compute, with the fresh criterion recomputed at the answer instant.',
  ),
  'ServiceDetail.directory': d('computed', "Directory membership with every criterion's result (listing-criteria/1)."),
  'ServiceDetail.claims': d(
    'operator',
    "Statements about the service with their sources, claims and not measurements. Reviewed: the listing's sourced claims (operator material). Discovered: the registry's dollar price and networks, when it states them.",
  ),
  'ServiceDetail.operations': d('atlas', 'The separately monitored operations and their schedules.'),
  'ServiceDetail.recent_checks': d(
    'measured',
    "The latest checks of all operations at or before generated_at, newest first: at most 48, looked up over the last 49 intervals of the service's shortest-interval operation and at most 90 days.",
  ),
  'ServiceDetail.daily_checks': d(
    'measured',
    'Checks per UTC day of all operations, oldest first; days without checks are zeros.',
    null,
    W_DAYS,
  ),
  'ServiceDetail.current_terms': d(
    'measured',
    'The latest valid x402 payment request of the primary operation observed at or before generated_at; null when none.',
  ),
  'ServiceDetail.terms_changes': d(
    'measured',
    'Payment-term changes found by the last compute (at data_as_of), changed_at in the window, newest first.',
    null,
    W90_DETAIL,
  ),
  'ServiceDetail.interval_history': d(
    'computed',
    'Every recorded change of a check interval (rule schedule/1) at or before generated_at, oldest first.',
  ),
  'ServiceDetail.registry_text': d('registry', 'Registry-sourced text, marked as untrusted third-party text; null for reviewed services.'),
  'ServiceDetail.referral_id': d('atlas', 'Only with an API key: a signed token to cite in an outcome report, valid 7 days.'),
  'ServiceDetail.outcome_reports': d(
    'computed',
    `Outcome reports about this service received up to generated_at, whatever their receipt, counted per reported outcome and moderation state as of generated_at (rule ${MODERATION_RULE} or an operator's decision); outcome_reports_by_receipt keeps the verified ones apart. Counts only: never a rate or a score, never part of the evidence.`,
    'reports',
    'every report received up to generated_at (the publish instant)',
  ),
  'ServiceDetail.outcome_reports_by_receipt': d(
    'computed',
    `The same reports as outcome_reports, kept apart by receipt state (rule ${RECEIPT_RULE}), each per reported outcome and moderation state as of generated_at. verified: the report carried the seller's signed x402 receipt (offer-receipt extension) and every check passed when it was loaded: the signature is valid (EIP-712, or JWS with a did:key/did:jwk key; nothing is fetched); the signer's address is one of the receiving addresses (payTo) Atlas observed in the service's 402s up to then; the receipt's resourceUrl is the service's URL or one of its operations' (scheme and host case-insensitive, default port, fragment and one trailing slash ignored); issuedAt is from ${RECEIPT_WINDOW.beforeHours} hours before the report's reported_at (else received_at) to ${RECEIPT_WINDOW.afterMinutes} minutes after its received_at; and no earlier report carried the same signature. not_verified: a receipt was sent but a check failed (reasons: ${RECEIPT_REASONS.join(', ')}). no_receipt: none was sent. A verified report shows that a payment was answered with a receipt by a key holding the payee address; not that the answer was good, nor who the reporter is. Counts only: never a rate or a score.`,
    'reports',
    'every report received up to generated_at (the publish instant); a verdict counts from the instant it was made',
  ),
  'OutcomeReportsByReceipt.verified': d(
    'computed',
    'Reports whose receipt passed every check of the rule, per outcome and moderation state.',
    'reports',
  ),
  'OutcomeReportsByReceipt.not_verified': d(
    'computed',
    'Reports that carried a receipt that failed a check (or was not checked yet at generated_at), per outcome and moderation state: these stay claims.',
    'reports',
  ),
  'OutcomeReportsByReceipt.no_receipt': d('computed', 'Reports without a receipt, per outcome and moderation state: claims.', 'reports'),
  'ServiceDetail.signed_offers': d(
    'measured',
    `The signed offers (x402's offer-receipt extension) of the service's latest valid x402 payment request on its primary operation, as of data_as_of (rule ${SIGNED_OFFERS_RULE}: view atlas_signed_offers_as_of in the rules file). Each offer's signature is verified offline (EIP-712, or JWS with a did:key / did:jwk key; a did:web key is never fetched: not checked), and its signer is compared with the payee key itself only (the offer's signed payTo); the extension's other authorisation methods (DID documents, DNS _controllers records) are not checked. At most ${MAX_SIGNED_OFFERS} offers per request are read. Counts of offers, never a rate or a score; null when no 402 of the service ever carried a signed offer.`,
    'offers',
    'the latest valid payment request observed at or before data_as_of (the compute instant)',
  ),
  'SignedOffers.checked_at': d('measured', 'When the latest valid payment request was read (the check that read it).', 'date-time'),
  'SignedOffers.signed': d('measured', 'Signed offers in that request (0: the latest request carried none, an earlier one did).', 'offers'),
  'SignedOffers.valid': d(
    'measured',
    'Offers whose signature verifies: EIP-712, a signer address is recovered with the canonical domain and types; JWS, the signature verifies with the key its did:key / did:jwk kid names.',
    'offers',
  ),
  'SignedOffers.invalid': d(
    'measured',
    'Offers whose signature does not verify, or that are not artifacts of the extension (see reasons).',
    'offers',
  ),
  'SignedOffers.not_checked': d(
    'measured',
    'Offers whose signature was not checked: a did:web kid (needs an HTTPS fetch Atlas does not make), another kid method, or a payload version other than 1.',
    'offers',
  ),
  'SignedOffers.authorised': d(
    'measured',
    "Offers with a valid signature whose signer is the payee key itself (the recovered or kid key's address equals the signed payTo; EVM case-insensitively).",
    'offers',
  ),
  'SignedOffers.not_authorised': d(
    'measured',
    'Offers with a valid signature whose signer is not the payee key (reason key_not_payee). Not proof of fraud: the extension also allows DID documents and DNS records, which Atlas does not check.',
    'offers',
  ),
  'SignedOffers.signer_not_checked': d(
    'measured',
    'Offers whose signer was not compared: no valid signature, or a key type with no payee address (e.g. P-256).',
    'offers',
  ),
  'SignedOffers.reasons': d('measured', 'Every reason recorded for these offers (signature and signer), with the number of offers.'),
  'SignedOffers.terms_differ': d(
    'measured',
    'Offers with a valid signature whose signed terms (scheme, network as CAIP-2, asset, payTo, amount) differ from their matching unsigned accepts entry (matched by those fields; acceptIndex only as a hint).',
    'offers',
  ),
  'SignedOffers.differing_fields': d('measured', 'The fields that differ in those offers (pay_to is compared, never published).'),
  'SignedOffers.last_terms_differ_at': d(
    'computed',
    'The latest terms-differ event up to data_as_of: a valid request whose signed offers differ from accepts when the previous valid request of the service had none that did (atlas_signed_offer_events). Null: none.',
    'date-time',
  ),
  'SignedOfferReason.reason': d(
    'measured',
    `Why a signature or signer was not found good: ${[...SignatureReason.options, ...SignerReason.options].join(', ')} (definitions: docs/notes/signed-offers.md).`,
  ),
  'SignedOfferReason.offers': d('measured', 'Offers with this reason.', 'offers'),
  'OutcomeReportCounts.success': d('computed', 'Reports of success, per moderation state.', 'reports'),
  'OutcomeReportCounts.failure': d('computed', 'Reports of failure, per moderation state.', 'reports'),
  'OutcomeReportCounts.unknown': d('computed', 'Reports of an unknown outcome, per moderation state.', 'reports'),
  'ModerationCounts.accepted': d('computed', 'Reports accepted by the moderation rules or an operator.', 'reports'),
  'ModerationCounts.pending': d('computed', 'Reports not moderated yet.', 'reports'),
  'ModerationCounts.rejected': d(
    'computed',
    `Reports rejected by the moderation rules or an operator (reasons: ${MODERATION_REASONS.join(', ')}).`,
    'reports',
  ),
  'DirectoryResult.rule': d('constant', 'Rule id of the evaluation (listing-criteria/1).'),
  'DirectoryResult.evaluated_at': d(
    'computed',
    "When compute last evaluated membership for this service: the service's own evaluation instant when its latest evaluation was a five-minute one of the services checked or placed since their last evaluation, else the latest hourly evaluation of every service; null when never. The server completes it when it answers: a published per-service file gives only the service's own instant (with directory.scope, the scope of its latest evaluation: changed, full, or null when never) and the generation's manifest.json gives the hourly one (directory_full_evaluation_at).",
    'date-time',
  ),
  'DirectoryResult.in_directory': d(
    'computed',
    'Whether every applicable criterion passed (the fresh criterion recomputed at the answer instant).',
  ),
  'DirectoryResult.criteria': d('computed', 'Each criterion with its result.'),
  'CriterionResult.id': d('constant', 'Criterion id: checks_30d, fresh, pass_rate, listed, mainnet_offer, listing_active.'),
  'CriterionResult.description': d('constant', 'The criterion in words.'),
  'CriterionResult.applies': d('computed', 'Whether the criterion applies to this service (by tier and type).'),
  'CriterionResult.passed': d(
    'computed',
    'Result; null when it does not apply. The fresh criterion is recomputed at the answer instant; the others are as of evaluated_at.',
  ),
  'CriterionResult.value': d('computed', "The service's value compared with the threshold."),
  'CriterionResult.threshold': d('constant', 'The threshold of the criterion.'),
  'Claim.topic': d('operator', 'What the claim is about (price, networks, description, ...).'),
  'Claim.statement': d('operator', 'The claim as stated by its source (registry text is untrusted third-party text).'),
  'Claim.source': d('atlas', "operator (the operator's material) or registry."),
  'Claim.source_url': d('operator', 'Where the claim can be read; null when the source gives none.'),
  'Claim.checked_at': d(
    'atlas',
    'The UTC day Atlas last checked the claim against source_url (reviewed listings); null for registry claims, copied as the registry states them.',
    'date',
  ),
  'OperationInfo.id': d('atlas', 'Operation id (primary, docs, ...).'),
  'OperationInfo.kind': d('atlas', 'call or documentation.'),
  'OperationInfo.is_primary': d('atlas', "True for the operation whose interval, freshness and last check are the service's."),
  'OperationInfo.url': d('atlas', 'URL checked.'),
  'OperationInfo.method': d('atlas', 'HTTP method used.'),
  'OperationInfo.check_interval_hours': d('computed', 'Interval in force at data_as_of (rule schedule/1).', 'hours'),
  'OperationInfo.pass_rule': d('constant', 'Pass rule id.'),
  'OperationInfo.expected_statuses': d('operator', 'Reviewed: statuses that pass; null for rule-based operations.'),
  'OperationInfo.enabled': d('atlas', 'Whether the operation is scheduled.'),
  'CheckRecord.operation': d('atlas', 'Operation checked.'),
  'CheckRecord.slot': d('atlas', 'Start of the scheduled slot the check fills.', 'date-time'),
  'CheckRecord.checked_at': d('measured', "When the check's request was sent (the probe's clock just before the request).", 'date-time'),
  'CheckRecord.status': d('measured', 'HTTP status; null when no response arrived.'),
  'CheckRecord.passed': d('measured', 'Whether the check passed its rule.'),
  'CheckRecord.reason': d('measured', 'Reason code of the verdict.'),
  'CheckRecord.rule': d('constant', 'Pass rule id.'),
  'CheckRecord.latency_ms': d(
    'measured',
    'Milliseconds from sending the request to the end of the response body, or to the failure or abort when no complete response arrived; rounded to 0.1 ms. Null only when not recorded.',
    'milliseconds',
  ),
  'DailyChecks.day': d('computed', 'UTC day.', 'date'),
  'DailyChecks.checks': d('measured', 'Checks of all operations that ran that UTC day (at or before generated_at).', 'checks', '1 UTC day'),
  'DailyChecks.passed': d('measured', 'Of those, checks that passed.', 'checks', '1 UTC day'),
  'DailyChecks.median_latency_ms': d(
    'measured',
    "Median latency_ms of that day's checks (interpolated between the two middle values); null when no check has a latency.",
    'milliseconds',
    '1 UTC day',
  ),
  'IntervalChange.operation': d('atlas', 'Operation whose interval changed.'),
  'IntervalChange.changed_at': d(
    'computed',
    'When the interval took effect: the compute instant that applied it; for the first record (from_hours null), monitoring_since.',
    'date-time',
  ),
  'IntervalChange.from_hours': d('computed', 'Previous interval; null for the first one.', 'hours'),
  'IntervalChange.to_hours': d('computed', 'New interval.', 'hours'),
  'IntervalChange.rule': d('constant', 'Rule id (schedule/1).'),
  'IntervalChange.reason': d('computed', `Trigger: ${SCHEDULE_REASONS.join(', ')}.`),
  'RegistryText.third_party_text': d('constant', 'Always true: the members below are untrusted third-party text.'),
  'RegistryText.notice': d('constant', 'How to treat the text.'),
  'RegistryText.registry': d('registry', 'Registry the text comes from.'),
  'RegistryText.name': d('registry', 'Registry display label (sanitized).'),
  'RegistryText.description': d('registry', 'Registry description (sanitized, capped).'),

  // stats
  'Stats.totals': d('computed', 'Counts of tracked services (index scope) at generated_at.', 'services'),
  'Stats.generated_at': d(
    'atlas',
    'The publish instant: the end of the 24-hour check window. The server serves the published stats as they are.',
    'date-time',
  ),
  'Stats.totals.services': d('computed', 'Tracked services.', 'services'),
  'Stats.totals.in_directory': d(
    'computed',
    "Tracked services whose latest directory evaluation (compute's, at or before data_as_of) put them in the directory; freshness is not recomputed here.",
    'services',
  ),
  'Stats.totals.by_tier': d('computed', 'Tracked services by tier.', 'services'),
  'Stats.totals.by_tier.reviewed': d('computed', 'Reviewed services.', 'services'),
  'Stats.totals.by_tier.discovered': d('computed', 'Discovered services.', 'services'),
  'Stats.totals.by_type': d('computed', 'Tracked services by type.', 'services'),
  'Stats.totals.by_type.api_endpoint': d('computed', 'Services of type api_endpoint.', 'services'),
  'Stats.totals.by_type.mcp_server': d('computed', 'Services of type mcp_server.', 'services'),
  'Stats.totals.by_type.task_marketplace': d('computed', 'Services of type task_marketplace.', 'services'),
  'Stats.checks_24h': d(
    'measured',
    'Checks of every service and operation that ran in the window. Checks that did not run are not counted.',
    'checks',
    W24,
  ),
  'Stats.passed_24h': d('measured', 'Of checks_24h, the checks that passed their pass rule.', 'checks', W24),
  'Stats.checks_24h_by_kind': d(
    'measured',
    'Checks that ran, by the kind of their pass rule (each kind has its own rule); a check under another rule counts only in checks_24h.',
    'checks',
    W24,
  ),
  'Stats.passed_24h_by_kind': d('measured', 'Of checks_24h_by_kind, the checks that passed, by kind.', 'checks', W24),
  'Stats.windows': d('constant', 'Windows of the figures.'),
  'Stats.windows.checks': d('constant', 'Window of the check counts: 24h, the 24 hours ending at generated_at.'),
  'KindCounts.reviewed': d('measured', 'Checks whose pass rule is reviewed/<n> (reviewed services).', 'checks', W24),
  'KindCounts.x402': d(
    'measured',
    'Checks whose pass rule starts with x402 (x402-mainnet/2, before it x402-mainnet/1: discovered x402 endpoints).',
    'checks',
    W24,
  ),
  'KindCounts.mcp': d('measured', 'Checks whose pass rule starts with mcp (mcp-reach/3: discovered MCP servers).', 'checks', W24),

  // status
  'Status.operating_since': d(
    'measured',
    'Start of the first recorded run of any kind; no slot before it counts as scheduled. Null when nothing has run by generated_at.',
    'date-time',
  ),
  'Status.generated_at': d(
    'atlas',
    'The answer instant (server clock): every window and the freshness counts are computed at it, from the run log published with the generation. The static status.json holds the figures at its publish instant.',
    'date-time',
  ),
  'Status.jobs': d(
    'measured',
    "The scheduled jobs (probe, compute and publish every cycle, at cycle_every_minutes; docs daily; report weekly) with scheduled, ran and missed slots per window ending at generated_at. A slot counts as ran only for a run of the job's own kind, whichever command ran it. Runs after the served generation was published are not known to it: their slots count as missed until a newer generation is served.",
  ),
  'Status.cycle_every_minutes': d(
    'operator',
    'The cadence the pipeline (`atlas cycle`, from cron) is configured to run at (config cycle.everyMinutes, default 5): the jobs every cycle runs (probe, compute, publish) are expected once per slot of this length, so a cycle that did not run shows as missed slots. The whole window is counted at the cadence in force when the served generation was published.',
    'minutes',
  ),
  'Status.backfills': d(
    'measured',
    'Periods of simulated history written by a back-fill (only the demo, `atlas demo`, records one), oldest first. Compute and publish run less often than hourly during a back-fill, so their slots inside one are neither scheduled nor ran; probe, docs and report slots count as usual. Empty on a real deployment.',
  ),
  'Backfill.from': d('measured', 'Start of the back-fill: its first simulated cycle.', 'date-time'),
  'Backfill.until': d(
    'measured',
    'End of the back-fill: when its last simulated cycle finished; slots that end by it are inside.',
    'date-time',
  ),
  'Backfill.uncounted_jobs': d('constant', 'The jobs whose slots inside the back-fill are not counted: compute and publish.'),
  'Status.latest_runs': d(
    'measured',
    'The latest run (by start time) of every kind recorded up to the publish of the served generation (ingest, cycle, ... included), ordered by kind.',
  ),
  'Status.evidence_freshness': d(
    'computed',
    'Tracked services (index scope) by the freshness of their evidence at generated_at.',
    'services',
  ),
  'Status.evidence_freshness.fresh': d(
    'computed',
    'Services whose latest check of the primary operation is at most two check intervals before generated_at.',
    'services',
  ),
  'Status.evidence_freshness.stale': d(
    'computed',
    'Services whose latest check of the primary operation is older than two check intervals.',
    'services',
  ),
  'Status.evidence_freshness.no_data': d('computed', 'Services whose primary operation was never checked.', 'services'),
  'Status.evidence_freshness.total': d('computed', 'All tracked services: fresh + stale + no_data.', 'services'),
  'JobStatus.kind': d('atlas', 'Job kind: probe, compute, publish, docs or report.'),
  'JobStatus.every_minutes': d(
    'constant',
    'How often the job is due: slot k covers [k x every_minutes, (k+1) x every_minutes) minutes since 1970-01-01T00:00Z. cycle_every_minutes for probe, compute and publish, 1440 for docs, 10080 for report.',
    'minutes',
  ),
  'JobStatus.windows': d('computed', 'Figures for the windows 24h, 7d and 30d ending at generated_at.'),
  'JobStatus.windows.24h': d('computed', 'Slots in the 24 hours ending at generated_at.', 'runs', 'the 24 hours ending at generated_at'),
  'JobStatus.windows.7d': d('computed', 'Slots in the 7 days ending at generated_at.', 'runs', 'the 7 days ending at generated_at'),
  'JobStatus.windows.30d': d('computed', 'Slots in the 30 days ending at generated_at.', 'runs', 'the 30 days ending at generated_at'),
  'JobStatus.latest': d('measured', 'The latest run of this job by start time; null when none.'),
  'WindowFigures.scheduled': d(
    'computed',
    "Slots that start at or after the window start and at or after the slot operating_since falls in, and that ended by generated_at; plus the slot in progress when it already ran. Slots of a job in a back-fill's uncounted_jobs that lie inside it are left out (see backfills).",
    'runs',
  ),
  'WindowFigures.ran': d(
    'measured',
    'Of those, slots with at least one run of the job with status ok or partial, placed by scheduled_at (else started_at); several runs in one slot count once. The publish that wrote the served generation counts as ok from its start.',
    'runs',
  ),
  'WindowFigures.missed': d('computed', 'scheduled minus ran: slots that ended without a run that finished ok or partial.', 'runs'),
  'RunRecord.id': d('atlas', 'Run id.'),
  'RunRecord.kind': d('atlas', 'Run kind (probe, compute, publish, ingest_x402, cycle, ...).'),
  'RunRecord.status': d(
    'measured',
    'running, ok, partial or failed, as recorded when the generation was published (a run still running then stays running until a newer generation). The publish that wrote the served generation is ok (the tree exists), with finished_at null.',
  ),
  'RunRecord.scheduled_at': d(
    'atlas',
    'Start of the slot the run was due for; null when the run records none (then its slot is placed by started_at).',
    'date-time',
  ),
  'RunRecord.started_at': d('measured', 'Start time.', 'date-time'),
  'RunRecord.finished_at': d(
    'measured',
    'End time; null while running, when it died, or for the publish that wrote the served generation.',
    'date-time',
  ),

  // health
  'Health.status': d(
    'computed',
    'At the answer instant: no_data (no probe run published), degraded (the latest probe run failed or started more than two hours before), else ok.',
  ),
  'Health.generation': d('atlas', 'Published generation being served.'),
  'Health.served_at': d('atlas', 'Server time of the answer (added by the server).', 'date-time'),
  'Health.latest_monitoring_run': d('measured', 'The latest probe run when the served generation was published; null when none.'),
  'Health.latest_runs': d('measured', 'The latest run of each kind when the served generation was published.'),
  'Health.signing_key': d(
    'atlas',
    "The installation's public key that signs every published generation's checksums.json; null before the first publish. Verify a mirrored tree with it (atlas verify --tree).",
  ),
  'Health.signing_key.alg': d('constant', 'Always "ed25519".'),
  'Health.signing_key.key_id': d(
    'atlas',
    'Lowercase hex SHA-256 of the 32 raw public-key bytes; checksums.json names the signing key by it.',
  ),
  'Health.signing_key.public_key': d('atlas', 'The 32 raw Ed25519 public-key bytes, base64.'),

  // reports
  'ReportList.items': d('atlas', 'Published weekly reports, newest first.'),
  'ReportList.current': d('atlas', 'Link to the provisional week-to-date report; null when not published.'),
  'ReportList.current.api': d('atlas', 'Path of the provisional report.'),
  'ReportListItem.id': d('atlas', 'The Monday (UTC) that starts the week, YYYY-MM-DD.', 'date'),
  'ReportListItem.week_start': d('atlas', 'First day of the week (Monday).', 'date'),
  'ReportListItem.week_end': d('atlas', 'Last day of the week (Sunday).', 'date'),
  'ReportListItem.frozen_at': d('atlas', 'When the snapshot was frozen.', 'date-time'),
  'ReportListItem.corrections': d('atlas', 'Number of corrections published alongside.', 'corrections'),
  'ReportListItem.links': d('atlas', 'Links of the report.'),
  'ReportListItem.links.api': d('atlas', 'Path of the report: /api/v1/reports/<id>.'),
  'Report.id': d('atlas', 'The Monday starting the week, or current.'),
  'Report.week_start': d('atlas', 'First day of the week.', 'date'),
  'Report.week_end': d('atlas', 'Last day of the week.', 'date'),
  'Report.status': d('atlas', 'final (frozen snapshot) or provisional (week to date).'),
  'Report.frozen_at': d('atlas', 'When frozen; null for provisional figures.', 'date-time'),
  'Report.corrections': d('atlas', 'Corrections, oldest first; they never change the figures.'),
  'ReportCorrection.seq': d('atlas', 'Sequence number within the week.'),
  'ReportCorrection.corrected_at': d('atlas', 'When the correction was published.', 'date-time'),
  'ReportCorrection.note': d('atlas', 'What was wrong and why.'),
  'ReportCorrection.figures': d('atlas', 'Corrected values by path in the report.'),

  // changes
  'ChangeList.query': d('request', 'Echo of the effective query.'),
  'ChangeList.query.days': d('request', 'Look-back window (1 to 90, default 7).', 'days'),
  'ChangeList.query.service_id': d('request', 'Service filter, when given.'),
  'ChangeList.query.needs_review': d('request', 'needs_review filter, when given.'),
  'ChangeList.window_start': d('computed', 'Start of the look-back window: the answer instant minus days.', 'date-time'),
  'ChangeList.total': d('computed', 'Number of changes in the window after filters.', 'changes'),
  'ChangeList.items': d('measured', 'Changes, newest first.'),
  'ChangeList.declared_differences': d(
    'computed',
    'Declared-against-observed difference events (rule declared-terms/1) that began or ended in the window, newest first, filtered by service_id; empty when needs_review is given (they are not documentation changes).',
  ),
  'ChangeRecord.kind': d(
    'atlas',
    "What changed: documentation (a reviewed service's documentation page), catalog_listed (a catalog listed a discovered service: first listed or listed again), catalog_unlisted (a catalog stopped listing it).",
  ),
  'ChangeRecord.catalog': d('atlas', 'The catalog of a catalog_listed or catalog_unlisted entry; null for documentation changes.'),
  'ChangeRecord.catalog.kind': d('atlas', 'Kind of catalog: x402 (a discovery/resources catalog) or mcp (an MCP registry).'),
  'ChangeRecord.catalog.name': d('atlas', "The catalog's configured name (e.g. cdp, binance, official)."),
  'ChangeRecord.catalog.reason': d(
    'atlas',
    'catalog_listed: first_listed (the first listing of the service by this catalog) or relisted (listed again after a drop). catalog_unlisted: missing_from_sweep, <status>_status (the MCP registry marked it deleted or deprecated), or not_recorded (a drop recorded before migration 061).',
  ),
  'ChangeRecord.id': d('atlas', 'Change id (catalog entries: catalog-<listed|unlisted>-<kind>-<name>-<service id>-<epoch ms>).'),
  'ChangeRecord.service_id': d(
    'atlas',
    'The service: a reviewed one whose documentation changed, or a discovered one a catalog listed or unlisted.',
  ),
  'ChangeList.events': d(
    'measured',
    'Dated payment-term events in the look-back window, newest first (filtered by days and service_id; needs_review does not apply). The published file holds 90 days.',
  ),
  'ChangeEvent.kind': d(
    'constant',
    'signed_offer_terms_differ: a valid x402 402 whose signed offers (offer-receipt, valid signatures) differ from their unsigned accepts entries, when the previous valid 402 of the service had none that did (rule atlas_signed_offer_events).',
  ),
  'ChangeEvent.service_id': d('atlas', 'The service.'),
  'ChangeEvent.service_name': d('atlas', 'Its name at publish time; null when the service is gone.'),
  'ChangeEvent.detected_at': d('measured', 'When the check that observed it ran.', 'date-time'),
  'ChangeEvent.fields': d(
    'measured',
    'The differing fields (scheme, network, asset, pay_to, amount), sorted; pay_to is compared, never published.',
  ),
  'ChangeEvent.offers': d('measured', 'How many signed offers differed.', 'offers'),
  'ChangeRecord.service_name': d('atlas', 'Its name; null when the service is gone.'),
  'ChangeRecord.url': d('atlas', "Documentation URL; for a catalog entry, the service's URL."),
  'ChangeRecord.detected_at': d(
    'measured',
    'When the change was detected (catalog entries: the sweep that listed or unlisted the service).',
    'date-time',
  ),
  'ChangeRecord.summary': d(
    'computed',
    'One-line summary of the change (catalog entries: "listed by <kind>:<name> (<reason>)" or "unlisted by <kind>:<name> (<reason>)").',
  ),
  'ChangeRecord.added_lines': d('measured', 'Lines added in the normalized text.', 'lines'),
  'ChangeRecord.removed_lines': d('measured', 'Lines removed.', 'lines'),
  'ChangeRecord.needs_review': d(
    'computed',
    `Whether the listing may need updating (rule ${NEEDS_REVIEW_RULE.id}): ${NEEDS_REVIEW_RULE.description}`,
  ),
  'ChangeRecord.review_terms': d('computed', 'The review terms found in changed lines.'),
  'ChangeRecord.diff': d('measured', 'Bounded diff of the normalized text.'),
  'ChangeRecord.diff[].op': d('measured', '+ added line, - removed line.'),
  'ChangeRecord.diff[].line': d('measured', 'The line (third-party text, capped).'),

  // roadmap
  'Roadmap.measured_today': d('atlas', 'What Atlas measures today.'),
  'Roadmap.items': d('atlas', 'Roadmap items; planned, not promised, no dates.'),
  'Roadmap.note': d('constant', 'States that items are planned, not promised, and carry no dates.'),
  'RoadmapItem.id': d('atlas', 'Item id.'),
  'RoadmapItem.title': d('atlas', 'What the item is.'),
  'RoadmapItem.status': d('atlas', 'planned, in_progress or done.'),
  'RoadmapItem.done_on': d('atlas', 'Day the item was done; null otherwise (no planned dates).', 'date'),

  // fields
  'Fields.version': d('constant', 'Interface description version (0.1.0-preview).'),
  'Fields.fields': d('constant', 'Every member of every response.'),
  'FieldEntry.path': d('constant', 'Member path within its resource (dots; [] for array elements).'),
  'FieldEntry.resource': d('constant', 'Named schema the member belongs to (as in openapi.json components).'),
  'FieldEntry.type': d('constant', 'JSON type in words.'),
  'FieldEntry.definition': d('constant', 'Exact definition.'),
  'FieldEntry.unit': d('constant', 'Unit; null when none.'),
  'FieldEntry.window': d('constant', 'Time window of the figure; null when none.'),
  'FieldEntry.source': d(
    'constant',
    'measured (by Atlas checks), computed (from measurements), registry, operator, atlas (Atlas records), request (echo), constant.',
  ),

  // errors and writes
  'Error.error': d(
    'atlas',
    'Error code: bad_usage, invalid_input, invalid_parameter, invalid_json, not_found, unauthorized, rate_limited, payload_too_large, locked, source_failed, conflict, internal.',
  ),
  'Error.message': d('atlas', 'One line for people; names the offending parameter when there is one.'),
  'KeyCreated.key': d('atlas', 'The API key. Shown once; only its hash is stored.'),
  'KeyCreated.key_id': d('atlas', 'Public id of the key.'),
  'KeyCreated.created_at': d('atlas', 'When the key was issued.', 'date-time'),
  'KeyCreated.limits': d('constant', 'Rate limits in force.'),
  'KeyCreated.note': d('constant', 'How to use and keep the key.'),
  'KeyLimits.anonymous_requests_per_minute': d('constant', 'Requests per minute per address without a key.', 'requests per minute'),
  'KeyLimits.keyed_requests_per_minute': d('constant', 'Requests per minute per key.', 'requests per minute'),
  'KeyLimits.keys_per_address_per_day': d('constant', 'New keys per address per UTC day.', 'keys per day'),
  'KeyLimits.feedback_per_address_per_day': d('constant', 'Feedback submissions per address per UTC day.', 'submissions per day'),
  'KeyLimits.referral_valid_days': d('constant', 'Validity of a referral_id.', 'days'),
  'OutcomeReceipt.id': d('atlas', 'Receipt id of the report.'),
  'OutcomeReceipt.status': d(
    'atlas',
    `pending_moderation on receipt (201); in a repeated report's receipt (200), accepted or rejected once the first report is moderated and a publish has carried the decision, else pending_moderation. Reports are unverified and moderated (rule ${MODERATION_RULE}: the service is tracked at the report's time, a referral is valid and at most 7 days old, not a repeat of the same key's report of the same outcome about the same service within ${MODERATION_LIMITS.duplicateWindowMinutes} minutes, at most ${MODERATION_LIMITS.dailyReportsPerKey} reports per key per UTC day; or an operator's decision), never turned into verified rates or scores.`,
  ),
  'OutcomeReceipt.moderation_reason': d(
    'atlas',
    `Why the report was rejected, one of ${MODERATION_REASONS.join(', ')}; null unless status is rejected.`,
  ),
  'OutcomeReceipt.moderated_at': d('atlas', 'When the moderation decision in status was made; null while pending.', 'date-time'),
  'OutcomeReceipt.received_at': d('atlas', 'When the first report with this idempotency_key was received.', 'date-time'),
  'OutcomeReceipt.idempotency_key': d('request', 'The idempotency_key sent.'),
  'OutcomeReceipt.service_id': d('request', 'Service the report is about (from the referral or service_id); null when unknown.'),
  'OutcomeReceipt.outcome': d('request', 'success, failure or unknown as reported.'),
  'OutcomeReceipt.receipt_verification': d(
    'computed',
    `The verification of the seller's signed receipt the report carried (rule ${RECEIPT_RULE}, the same verdict that counts the report in outcome_reports_by_receipt); null when the report carried none. Serve never verifies: the pipeline does when it loads the report (atlas ingest inbox), and a publish carries the verdict (index/moderation.json), so the 201 says pending and a repeated report (200) says the verdict once published.`,
  ),
  'OutcomeReceipt.receipt_verification.rule': d('constant', `The verification rule, ${RECEIPT_RULE}.`),
  'OutcomeReceipt.receipt_verification.state': d(
    'computed',
    'pending (no verdict published yet), verified (every check passed) or not_verified (the first check that failed is in reason).',
  ),
  'OutcomeReceipt.receipt_verification.reason': d(
    'computed',
    `The first check that failed, one of ${RECEIPT_REASONS.join(', ')}; null unless state is not_verified.`,
  ),
  'OutcomeReceipt.receipt_verification.checked_at': d('computed', 'When the pipeline made the verdict; null while pending.', 'date-time'),
  'OutcomeReceipt.duplicate': d('atlas', 'True when this answers a repeated idempotency_key (HTTP 200) with the first receipt.'),
  'OutcomeReceipt.message': d('constant', 'What happens to the report.'),
  'FeedbackReceipt.id': d('atlas', 'Feedback id.'),
  'FeedbackReceipt.received_at': d('atlas', 'When it was received.', 'date-time'),
  'FeedbackReceipt.kind': d('request', 'Kind sent.'),
  'FeedbackReceipt.message': d('constant', 'Acknowledgement.'),
  'Report.report': d('computed', 'The report figures as frozen (members: ReportBody); never changed afterwards.', null, 'the week'),
  ...REPORT_FIELD_DOCS,
};

/** The entry for a member, or the `*.<member>` fallback. */
export function fieldDoc(schemaName: string, path: string): FieldDoc | undefined {
  return FIELD_DOCS[`${schemaName}.${path}`] ?? FIELD_DOCS[`*.${path}`];
}
