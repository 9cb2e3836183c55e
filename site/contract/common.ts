import { z } from 'zod';

/**
 * Building blocks shared by every response schema. Responses are strict objects: a member that the
 * contract does not name is a bug (the field dictionary and the OpenAPI document are generated from
 * these schemas, so an unnamed member would be undocumented).
 */

/** Every body carries `api_status: "preview"` (the API is an unstable preview; also the X-API-Status header). */
export const API_STATUS = 'preview' as const;
export const ApiStatus = z.literal(API_STATUS);
/** Version of the interface description (the OpenAPI document and the field dictionary). */
export const API_VERSION = '0.1.0-preview' as const;

/** Where a default installation answers (the serve.host and serve.port defaults of the config). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** UTC instant as ISO-8601 with `Z` (what `Date#toISOString` writes). */
export const DateTime = z.iso.datetime();
/** A calendar day `YYYY-MM-DD` (UTC). */
export const Day = z.iso.date();

/**
 * Identifier patterns (as JSON Schema / RegExp source). The RegExp forms below are built from these,
 * so the OpenAPI document, the request parsers, the MCP tools and the response schemas share one text.
 */
export const SERVICE_ID_PATTERN = '^(svc|cand)_[A-Za-z0-9_-]+$';
export const SERVICE_ID_RE = new RegExp(SERVICE_ID_PATTERN);
export const ServiceId = z.string().regex(SERVICE_ID_RE);
/** Longest service id accepted on input (ids are `svc_<slug>` or `cand_` + 20 hex chars). */
export const SERVICE_ID_MAX = 200;

export const REPORT_ID_PATTERN = '^(current|[0-9]{4}-[0-9]{2}-[0-9]{2})$';
export const REPORT_ID_RE = new RegExp(REPORT_ID_PATTERN);
export const ReportId = z.string().regex(REPORT_ID_RE);

/**
 * Every closed set of values the contract publishes, each written once. The pipeline (ingest,
 * compute, reports), publish and serve import these tuples (or the zod enums built from them) instead
 * of repeating the literals, so a value added here reaches every schema, filter and report at once.
 */
export const SERVICE_TIERS = ['reviewed', 'discovered'] as const;
export const SERVICE_TYPES = ['api_endpoint', 'task_marketplace', 'mcp_server'] as const;
export const NAME_SOURCES = ['atlas', 'registry'] as const;
export const PRICE_SOURCES = ['registry', 'operator'] as const;
export const NETWORKS_SOURCES = ['observed', 'registry', 'operator'] as const;
export const FRESHNESS_VALUES = ['fresh', 'stale', 'no_data'] as const;
/** Check interval names and their hours (docs/CONTRACTS.md: hourly 1, daily 24, weekly 168, monthly 720). */
export const CHECK_INTERVAL_NAMES = ['hourly', 'daily', 'weekly', 'monthly'] as const;
export const CHECK_INTERVAL_HOURS = { hourly: 1, daily: 24, weekly: 168, monthly: 720 } as const satisfies Record<
  (typeof CHECK_INTERVAL_NAMES)[number],
  number
>;
/** Kinds of an observed x402 payment-term change (a change can have several). */
export const TERMS_CHANGE_KINDS = ['price', 'network_added', 'network_removed', 'asset', 'pay_to', 'scheme', 'version', 'other'] as const;
/**
 * Pass rules of scheduled checks (versioned ids; published with every check). `x402-mainnet/1` is
 * retired: checks judged by it keep that id; x402-mainnet/2 has the same pass/fail outcome and tells
 * the failures apart (not_x402, no_payment_offer, unknown_network; docs/design.md, pass rules). An
 * operation still naming /1 (a row written before migration 021) is judged by the current x402 rule.
 */
export const PASS_RULES = ['reviewed/1', 'x402-mainnet/2', 'mcp-reach/3', 'x402-mainnet/1'] as const;
/** Kind of a check, by its pass rule: reviewed/1 → reviewed, x402-mainnet/N → x402, mcp-reach/3 → mcp. */
export const CHECK_KINDS = ['reviewed', 'x402', 'mcp'] as const;
/** The pass rule of each check kind (each one of PASS_RULES), for code that writes or tests a rule id. */
export const PASS_RULE_OF_KIND = { reviewed: 'reviewed/1', x402: 'x402-mainnet/2', mcp: 'mcp-reach/3' } as const satisfies Record<
  (typeof CHECK_KINDS)[number],
  (typeof PASS_RULES)[number]
>;
/**
 * Payment protocols a 402 response can carry (pipeline/x402/classify-402.ts; `protocols` of a check),
 * in the order they are listed: an x402 request in the PAYMENT-REQUIRED header (v2), an x402 request
 * with no payment offer (sign-in only), an x402 request in the body (v1), an MPP challenge
 * (`WWW-Authenticate: Payment`), an L402 / LSAT challenge (Lightning).
 */
export const PAYMENT_PROTOCOLS = ['x402-v2', 'x402-auth-only', 'x402-v1', 'mpp', 'l402'] as const;
export const RUN_STATUSES = ['running', 'ok', 'partial', 'failed'] as const;
/** The service's own scheduled jobs (GET /api/v1/status `jobs[].kind`). */
export const JOB_KINDS = ['probe', 'compute', 'publish', 'docs', 'report'] as const;
export const FEEDBACK_KINDS = ['missing_service', 'missing_metric', 'feature_request', 'wrong_data', 'unclear_docs', 'other'] as const;
export const OUTCOMES = ['success', 'failure', 'unknown'] as const;
export const FAILURE_KINDS = [
  'no_response',
  'payment_failed',
  'bad_output',
  'wrong_price',
  'auth_required',
  'rate_limited',
  'other',
] as const;
/** The receipt's `status` of an outcome report on receipt (later states: OUTCOME_RECEIPT_STATUSES, moderation.ts). */
export const OUTCOME_RECEIPT_STATUS = 'pending_moderation' as const;
export const SCOPES = ['directory', 'index'] as const;
export const SORTS = ['evidence', 'pass_rate', 'payers', 'price', 'recent', 'name'] as const;
export const GROUPS = ['provider'] as const;
export const ROADMAP_STATUSES = ['planned', 'in_progress', 'done'] as const;
/**
 * Reason codes of a check verdict (docs/CONTRACTS.md "checks"): a fixed set, stored in
 * `checks.reason` and published as `reason` of checks. Add codes only together with CONTRACTS.md.
 */
export const CHECK_REASONS = [
  'ok',
  'status_not_expected', // reviewed/1: status not in the listing's expected set
  'not_402', // x402-mainnet/N: any status other than 402 (3xx and 429 have their own codes)
  'invalid_payment_request', // x402-mainnet/N: 402 with a malformed x402 request, or with no payment challenge at all
  'testnet_only', // x402-mainnet/N: valid request, but every offer is on a test network
  'not_x402', // x402-mainnet/2: a 402 of another payment protocol only (MPP, L402)
  'no_payment_offer', // x402-mainnet/2: an x402 request with no offer (`accepts` empty: sign-in only)
  'unknown_network', // x402-mainnet/2: valid request, no mainnet offer and some network not in the table
  'status_not_allowed', // mcp-reach/3: status outside 200/400/401/403/405/406
  'timeout',
  'dns',
  'refused',
  'tls',
  'reset',
  'too_large',
  'redirect',
  'blocked_address',
  'rate_limited',
  'network_error',
] as const;
/** What triggered a check-interval change (rule schedule/1; `interval_changes.reason`). */
export const SCHEDULE_REASONS = [
  'reviewed_fixed',
  'new_until_third_probe',
  'payers_100_plus',
  'payers_5_to_99',
  'payers_under_5',
  'all_failed_14d',
  'unlisted_7d',
] as const;
/** What an offer's amount states: the charge of a call (exact) or the most a call can cost (upto, batch-settlement). */
export const PRICE_KINDS = ['exact', 'maximum'] as const;
/** Status of an MCP server in its registry (registry.status of discovered MCP servers). */
export const MCP_STATUSES = ['active', 'deprecated', 'deleted'] as const;
/** Kind of a monitored operation: a call (checked by its pass rule) or a documentation page. */
export const OPERATION_KINDS = ['call', 'documentation'] as const;
/** Scope of a directory evaluation: every service, or those checked or placed since their last one. */
export const DIRECTORY_SCOPES = ['full', 'changed'] as const;

export const Tier = z.enum(SERVICE_TIERS);
export const ServiceType = z.enum(SERVICE_TYPES);
export const NameSource = z.enum(NAME_SOURCES);
export const PriceSource = z.enum(PRICE_SOURCES);
export const PriceKind = z.enum(PRICE_KINDS);
export const NetworksSource = z.enum(NETWORKS_SOURCES);
export const Freshness = z.enum(FRESHNESS_VALUES);
export const CheckIntervalName = z.enum(CHECK_INTERVAL_NAMES);
export const TermsChangeKind = z.enum(TERMS_CHANGE_KINDS);
/** A pass rule id as published: an open set of versioned ids (today PASS_RULES), so a new rule version is not a breaking change. */
export const PassRule = z.string();
export const CheckKind = z.enum(CHECK_KINDS);
export const RunStatus = z.enum(RUN_STATUSES);
export const JobKind = z.enum(JOB_KINDS);
export const FeedbackKind = z.enum(FEEDBACK_KINDS);
export const Outcome = z.enum(OUTCOMES);
export const FailureKind = z.enum(FAILURE_KINDS);
export const Scope = z.enum(SCOPES);
export const SortKey = z.enum(SORTS);
export const RoadmapStatus = z.enum(ROADMAP_STATUSES);
export const CheckReason = z.enum(CHECK_REASONS);
export const PaymentProtocol = z.enum(PAYMENT_PROTOCOLS);
export const ScheduleReason = z.enum(SCHEDULE_REASONS);
export const McpStatus = z.enum(MCP_STATUSES);
export const OperationKind = z.enum(OPERATION_KINDS);
export const DirectoryScope = z.enum(DIRECTORY_SCOPES);
export type CheckReason = z.infer<typeof CheckReason>;
export type ScheduleReason = z.infer<typeof ScheduleReason>;
export type McpStatus = z.infer<typeof McpStatus>;
export type OperationKind = z.infer<typeof OperationKind>;
export type DirectoryScope = z.infer<typeof DirectoryScope>;

export type ServiceTier = z.infer<typeof Tier>;
export type ServiceType = z.infer<typeof ServiceType>;
export type TermsChangeKind = z.infer<typeof TermsChangeKind>;
export type Freshness = z.infer<typeof Freshness>;
export type PassRuleId = (typeof PASS_RULES)[number];
export type CheckKind = z.infer<typeof CheckKind>;
export type JobKind = z.infer<typeof JobKind>;
export type RunStatus = z.infer<typeof RunStatus>;

/** A non-negative integer count. */
export const Count = z.number().int().nonnegative();

/** A strict object with one count per key of `keys` (e.g. services by type), in the order of `keys`. */
export const countsBy = <K extends readonly [string, ...string[]]>(keys: K) =>
  z.strictObject(Object.fromEntries(keys.map((k) => [k, Count])) as { [P in K[number]]: typeof Count });

/** Rule ids published with results. */
export const SCHEDULE_RULE = 'schedule/1' as const;
export const LISTING_CRITERIA_RULE = 'listing-criteria/1' as const;
/**
 * `evidence.schedule_tier` is served (with the value of `check_interval`) before this UTC day and
 * dropped from it on; responses that carry it send `Deprecation` and `Sunset` headers.
 */
export const SCHEDULE_TIER_SUNSET = '2027-01-17' as const;
/** SCHEDULE_TIER_SUNSET as an instant (00:00 UTC that day). */
export const SCHEDULE_TIER_SUNSET_AT = new Date(`${SCHEDULE_TIER_SUNSET}T00:00:00Z`);
/** Whether `evidence.schedule_tier` is served at `now` (the one comparison; publish and serve use it). */
export const scheduleTierServed = (now: Date): boolean => now.getTime() < SCHEDULE_TIER_SUNSET_AT.getTime();
