import { z } from 'zod';
import {
  FAILURE_KINDS,
  FEEDBACK_KINDS,
  GROUPS,
  OUTCOMES,
  REPORT_ID_RE,
  SCOPES,
  SERVICE_ID_MAX,
  SERVICE_ID_PATTERN,
  SERVICE_ID_RE,
  SERVICE_TIERS,
  SERVICE_TYPES,
  SORTS,
} from './common.ts';
import { X402Receipt } from './outcome-receipt.ts';

/**
 * Request bodies and query parameters of the public API (GET /api/v1/services, GET /api/v1/changes and
 * the write bodies), with every bound.
 *
 * Two views of the same parameters:
 * - `*_PARAMS` tables: name, type, bounds and meaning — the single source for the OpenAPI parameter
 *   list and the field dictionary (plain data, no transforms, so JSON Schema generation is trivial).
 * - `*QuerySchema`: zod schemas that parse the raw query strings of an HTTP request (or the plain
 *   values an MCP tool receives, written as plain decimals by `normalizeRawQuery`) into typed values. Built from the tables, so the
 *   two cannot drift.
 *
 * Query conventions (our published choices):
 * - An empty value (`?tier=`) is the same as an absent parameter (HTML forms send empty fields).
 * - Booleans are `true`/`false` (also `1`/`0`); integers are decimal digits only; numbers are plain
 *   decimals (no exponent, hex, NaN or Infinity) with at most 15 integer and 30 fraction digits.
 * - Unknown parameters and repeated parameters are rejected (400 naming the parameter), so a typo
 *   never silently widens a search.
 */

// ---------------------------------------------------------------------------------------------
// Shared patterns and limits (ids, enums: common.ts)

export const TAG_PATTERN = /^[a-z0-9-]{1,32}$/;

export const REQUEST_LIMITS = {
  q: 100,
  limitMin: 1,
  limitMax: 100,
  limitDefault: 50,
  offsetDefault: 0,
  daysMin: 1,
  daysMax: 90,
  daysDefault: 7,
  keyLabel: 80,
  keyContact: 200,
  feedbackNote: 500,
  feedbackAbout: 120,
  feedbackContact: 200,
  outcomeOperation: 120,
  outcomeTaskCategory: 60,
  outcomeIdempotencyKey: 100,
} as const;

// ---------------------------------------------------------------------------------------------
// Parameter tables

export type ParamSpec =
  | { name: string; type: 'string'; description: string; maxLength?: number; pattern?: string; enum?: readonly string[]; default?: string }
  | { name: string; type: 'boolean'; description: string }
  | { name: string; type: 'integer'; description: string; minimum: number; maximum?: number; default?: number }
  | { name: string; type: 'number'; description: string; minimum: number; maximum?: number };

/*
 * The network, mainnet and provider filters, stated once: the parameter texts below and the field
 * dictionary entries of ServiceSummary (field-docs.ts) use these. The code that applies them is
 * serve/search/networks.ts (network) and the filter descriptors in serve/search/filters.ts (mainnet:
 * the published field itself, so the filter and the field cannot disagree; provider); keep in step.
 */
export const NETWORK_FILTER_RULE =
  'a v1 name or known alias (base, base-sepolia, solana, polygon, ...) matches exactly that network; any other full CAIP-2 id (namespace:reference, e.g. eip155:8453) matches that network only (not eip155:84532); anything else matches a case-insensitive substring of an offered network id or v1 name';
export const PROVIDER_FILTER_RULE =
  'provider host: the exact host, case-insensitive (not its subdomains); the same host that group=provider collapses by and provider_endpoints counts';

/*
 * The catalog standing of a discovered service, stated once: the field dictionary entries of
 * RegistryListing.listed_but_failing / passing_but_unlisted and the filter texts below use these.
 * The rule's one home is view catalog_standing (macros atlas_listed_but_failing,
 * atlas_passing_but_unlisted) in pipeline/store/rules.sql; the filters read the published fields.
 */
export const LISTED_BUT_FAILING_RULE =
  'true when at least one catalog (configured registry source) lists the service and the latest check of its primary operation failed (the rule of the passing filter); false when it was checked and either no catalog lists it or that check passed; null when it was never checked (and for reviewed services, which no catalog lists)';
export const PASSING_BUT_UNLISTED_RULE =
  'true when the latest check of its primary operation passed and at least one catalog that listed the service no longer lists it (dropped by a complete sweep or withdrawn by status), whether or not another catalog still lists it (registry_listing.listed says that); false when it was checked and either that check failed or every catalog that listed it still does; null when it was never checked (and for reviewed services)';

/**
 * How each filter of GET /api/v1/services treats a service whose value for it is unknown (null), or
 * that no value is ever unknown. The one home of these statements: each filter's parameter text below
 * ends with its entry, so the OpenAPI document, the MCP tool schema, llms.txt and the field
 * dictionary (its `ServicesQuery` entries, field-dictionary.ts) all carry the same words. The code
 * that applies them is the filter descriptors in serve/search/filters.ts; keep in step (test/site/contract/requests.filter-unknowns.test.ts).
 * group, sort, limit and offset are not filters (they keep every match).
 */
export const SERVICES_FILTER_UNKNOWN = {
  q: 'a text a service does not have (no operator name) is not searched; the service can still match on its other texts',
  tier: 'never unknown: every service has a tier',
  type: 'never unknown: every service has a type',
  host: 'never unknown: every service has a host',
  network: 'a service with no known network (networks is an empty list, e.g. most MCP servers and task marketplaces) matches no value',
  mainnet: 'services whose mainnet is null (no networks, or not evaluated yet) match neither true nor false',
  passing: 'a service never checked (no latest check) matches neither true nor false',
  templated: 'never unknown: a URL without placeholders is false',
  min_pass_rate: 'a service without checks in the window has no pass rate (null) and is left out, even with min_pass_rate=0',
  min_checks: 'never unknown: a service without checks in the window has 0, so min_checks=0 keeps every service',
  min_days: 'never unknown: every service has a monitoring start, so min_days=0 keeps every service',
  min_payers:
    'a service without a registry payer figure (null: every reviewed service, and discovered services whose registry reports none) is left out, even with min_payers=0',
  tag: 'a service without tags matches no tag',
  max_price_usd: 'a service without a known price (price_usd null) is left out',
  max_terms_changes_90d:
    'a service without observed x402 payment terms (payment_terms null: no valid payment request seen yet, or not paid with x402) is left out, even with 0',
  listed:
    'only discovered services have a registry listing: reviewed services match neither true nor false, and so does a discovered service whose listing state is unknown',
  terms_mismatch:
    'a service whose declared_terms is null (no source states comparable terms, or no valid x402 payment request observed) matches neither true nor false',
  listed_but_failing: 'a service never checked, and every reviewed service (no catalog lists it), matches neither true nor false',
  passing_but_unlisted: 'a service never checked, and every reviewed service (no catalog lists it), matches neither true nor false',
  scope: 'directory: a service never checked has no fresh check and is not in the directory; index: every tracked service',
  provider: 'never unknown: every service has a host',
} as const;
export type ServicesFilterName = keyof typeof SERVICES_FILTER_UNKNOWN;

/** A filter's parameter text: what it does, then how it treats unknown values (SERVICES_FILTER_UNKNOWN). */
const filterText = (name: ServicesFilterName, what: string): string => `${what}. Unknown values: ${SERVICES_FILTER_UNKNOWN[name]}`;

const MAINNET_FILTER_MATCH =
  'matches the published mainnet field of each service: true returns the services whose mainnet is true (at least one offered network is a known mainnet); false returns those whose mainnet is false (at least one network and none a known mainnet: unknown network ids never count as mainnet)';
export const MAINNET_FILTER_RULE = `${MAINNET_FILTER_MATCH}; ${SERVICES_FILTER_UNKNOWN.mainnet}`;

/** GET /api/v1/services, all optional. */
export const SERVICES_QUERY_PARAMS = [
  {
    name: 'q',
    type: 'string',
    maxLength: REQUEST_LIMITS.q,
    description: filterText('q', 'text search over names, hosts, URLs and operator names (case-insensitive; every word must match)'),
  },
  { name: 'tier', type: 'string', enum: SERVICE_TIERS, description: filterText('tier', 'filter by origin') },
  { name: 'type', type: 'string', enum: SERVICE_TYPES, description: filterText('type', 'filter by kind') },
  { name: 'host', type: 'string', maxLength: 253, description: filterText('host', 'exact host (case-insensitive)') },
  { name: 'network', type: 'string', maxLength: 100, description: filterText('network', `payment network: ${NETWORK_FILTER_RULE}`) },
  {
    name: 'mainnet',
    type: 'boolean',
    description: filterText('mainnet', MAINNET_FILTER_MATCH),
  },
  { name: 'passing', type: 'boolean', description: filterText('passing', 'whether the latest check of the primary operation passed') },
  {
    name: 'templated',
    type: 'boolean',
    description: filterText('templated', 'whether the registry URL is a template with placeholders'),
  },
  {
    name: 'min_pass_rate',
    type: 'number',
    minimum: 0,
    maximum: 1,
    description: filterText('min_pass_rate', 'minimum share of checks passed in the 30-day window'),
  },
  { name: 'min_checks', type: 'integer', minimum: 0, description: filterText('min_checks', 'minimum checks in the 30-day window') },
  { name: 'min_days', type: 'integer', minimum: 0, description: filterText('min_days', 'minimum days of monitoring history') },
  {
    name: 'min_payers',
    type: 'integer',
    minimum: 0,
    description: filterText('min_payers', 'minimum unique payers in 30 days, as reported by the registry'),
  },
  { name: 'tag', type: 'string', pattern: TAG_PATTERN.source, description: filterText('tag', 'purpose tag') },
  {
    name: 'max_price_usd',
    type: 'number',
    minimum: 0,
    description: filterText('max_price_usd', 'maximum price per call in US dollars where known'),
  },
  {
    name: 'max_terms_changes_90d',
    type: 'integer',
    minimum: 0,
    description: filterText(
      'max_terms_changes_90d',
      'only services whose observed x402 payment terms changed at most this many times in 90 days (0 = unchanged)',
    ),
  },
  {
    name: 'listed',
    type: 'boolean',
    description: filterText('listed', 'discovered services still listed by their registry (true) or no longer listed (false)'),
  },
  {
    name: 'terms_mismatch',
    type: 'boolean',
    description: filterText(
      'terms_mismatch',
      'whether what a catalog, the seller document or our listing declares about the payment terms differs from the live 402 at data_as_of (declared_terms.differs, rule declared-terms/1)',
    ),
  },
  {
    name: 'listed_but_failing',
    type: 'boolean',
    description: filterText('listed_but_failing', `the published registry_listing.listed_but_failing: ${LISTED_BUT_FAILING_RULE}`),
  },
  {
    name: 'passing_but_unlisted',
    type: 'boolean',
    description: filterText('passing_but_unlisted', `the published registry_listing.passing_but_unlisted: ${PASSING_BUT_UNLISTED_RULE}`),
  },
  { name: 'group', type: 'string', enum: GROUPS, description: 'collapse endpoints to one row per provider host' },
  { name: 'sort', type: 'string', enum: SORTS, default: 'evidence', description: 'sort order' },
  {
    name: 'limit',
    type: 'integer',
    minimum: REQUEST_LIMITS.limitMin,
    maximum: REQUEST_LIMITS.limitMax,
    default: REQUEST_LIMITS.limitDefault,
    description: 'page size',
  },
  { name: 'offset', type: 'integer', minimum: 0, default: REQUEST_LIMITS.offsetDefault, description: 'offset into the result set' },
  {
    name: 'scope',
    type: 'string',
    enum: SCOPES,
    default: 'directory',
    description: filterText('scope', 'directory shows only services meeting the listing criteria; index searches everything tracked'),
  },
  {
    name: 'provider',
    type: 'string',
    maxLength: 253,
    description: filterText('provider', `${PROVIDER_FILTER_RULE}; echoed in the query member`),
  },
] as const satisfies readonly ParamSpec[];

/** GET /api/v1/changes, all optional. */
export const CHANGES_QUERY_PARAMS = [
  {
    name: 'days',
    type: 'integer',
    minimum: REQUEST_LIMITS.daysMin,
    maximum: REQUEST_LIMITS.daysMax,
    default: REQUEST_LIMITS.daysDefault,
    description: 'look-back window in days',
  },
  {
    name: 'service_id',
    type: 'string',
    maxLength: SERVICE_ID_MAX,
    pattern: SERVICE_ID_PATTERN,
    description: 'limit to one service',
  },
  { name: 'needs_review', type: 'boolean', description: 'only changes whose listing may need updating' },
] as const satisfies readonly ParamSpec[];

// ---------------------------------------------------------------------------------------------
// From a table to a zod schema over raw strings

const INT_RE = /^\d{1,15}$/;
/**
 * Fraction digits reach 30 so every price a JSON number can state down to 1e-30 is accepted once it is
 * written out as a plain decimal (an MCP argument of 5e-7 arrives as "0.0000005").
 */
const NUM_RE = /^\d{1,15}(\.\d{1,30})?$|^\.\d{1,30}$/;
const BOOL: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

function fieldSchema(p: ParamSpec): z.ZodType<unknown, string> {
  switch (p.type) {
    case 'string': {
      let s = z.string();
      if (p.maxLength !== undefined) s = s.max(p.maxLength, `at most ${p.maxLength} characters`);
      if (p.pattern !== undefined) s = s.regex(new RegExp(p.pattern), `must match ${p.pattern}`);
      if (p.enum) {
        const values = p.enum;
        return s.refine((v) => values.includes(v), `must be one of ${values.join(', ')}`);
      }
      return s;
    }
    case 'boolean':
      return z
        .string()
        .refine((v) => v in BOOL, 'must be true or false')
        .transform((v) => BOOL[v]!);
    case 'integer': {
      const range = p.maximum === undefined ? `>= ${p.minimum}` : `between ${p.minimum} and ${p.maximum}`;
      return z
        .string()
        .refine((v) => INT_RE.test(v), `must be a whole number ${range}`)
        .transform(Number)
        .refine((n) => n >= p.minimum && (p.maximum === undefined || n <= p.maximum), `must be ${range}`);
    }
    case 'number': {
      const range = p.maximum === undefined ? `>= ${p.minimum}` : `between ${p.minimum} and ${p.maximum}`;
      return z
        .string()
        .refine((v) => NUM_RE.test(v), `must be a decimal number ${range}`)
        .transform(Number)
        .refine((n) => Number.isFinite(n) && n >= p.minimum && (p.maximum === undefined || n <= p.maximum), `must be ${range}`);
    }
  }
}

type ParsedValue<P extends ParamSpec> = P extends { type: 'boolean' }
  ? boolean
  : P extends { type: 'integer' | 'number' }
    ? number
    : P extends { enum: readonly (infer E)[] }
      ? E
      : string;

type ParsedQuery<T extends readonly ParamSpec[]> = {
  [P in T[number] as P['name']]?: ParsedValue<P>;
};

/**
 * A strict object schema over `Record<string, string>` (one value per name, empty values already
 * dropped by `normalizeRawQuery`). Unknown names fail with "unknown parameter".
 */
function querySchema<T extends readonly ParamSpec[]>(params: T) {
  const shape: Record<string, z.ZodType> = {};
  for (const p of params) shape[p.name] = fieldSchema(p).optional();
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown parameter` : undefined),
  }) as unknown as z.ZodType<ParsedQuery<T>, Record<string, string>>;
}

export const ServicesQuerySchema = querySchema(SERVICES_QUERY_PARAMS);
export type ServicesQueryInput = z.infer<typeof ServicesQuerySchema>;

export const ChangesQuerySchema = querySchema(CHANGES_QUERY_PARAMS);
export type ChangesQueryInput = z.infer<typeof ChangesQuerySchema>;

/**
 * Raw query → one string per name. Accepts what Hono's `c.req.queries()` gives (arrays), plain
 * strings, or the numbers/booleans of an MCP tool call. Returns the first problem found as
 * `{ param, message }` instead of throwing, so callers choose the error type.
 */
export function normalizeRawQuery(
  raw: Record<string, unknown>,
): { ok: true; value: Record<string, string> } | { ok: false; param: string; message: string } {
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(raw)) {
    let value: unknown = v;
    if (Array.isArray(v)) {
      const nonEmpty = v.filter((x) => x !== '' && x !== undefined && x !== null);
      if (nonEmpty.length > 1) return { ok: false, param: name, message: `parameter ${name} is given more than once` };
      value = nonEmpty[0];
    }
    if (value === undefined || value === null || value === '') continue;
    if (typeof value === 'number') value = plainDecimal(value);
    else if (typeof value === 'boolean') value = String(value);
    if (typeof value !== 'string') return { ok: false, param: name, message: `parameter ${name} must be a single value` };
    out[name] = value;
  }
  return { ok: true, value: out };
}

/**
 * A number as a plain decimal string, exactly as JavaScript prints it but without an exponent:
 * 5e-7 → "0.0000005", 1e21 → "1000000000000000000000". `String()` switches to exponent notation
 * below 1e-6 and from 1e21, which the query grammar (plain decimals only) rejects, so an MCP tool
 * call with max_price_usd 0.0000005 would fail where the same HTTP query passes. Non-finite
 * numbers are returned as `String()` writes them (and rejected by the grammar).
 */
export function plainDecimal(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, int, frac = '', exp] = m;
  const digits = `${int}${frac}`;
  const point = int!.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

// ---------------------------------------------------------------------------------------------
// Request bodies (unknown members are rejected so a misspelt field is never dropped)

/** Date-time with an explicit offset (RFC 3339). */
const DateTime = z.iso.datetime({ offset: true });

export const KeyRequestSchema = z.strictObject({
  label: z.string().max(REQUEST_LIMITS.keyLabel).optional(),
  contact: z.string().max(REQUEST_LIMITS.keyContact).optional(),
});
/** @public The request body a client sends (for clients typing their requests). */
export type KeyRequest = z.infer<typeof KeyRequestSchema>;

export const OutcomeReportSchema = z.strictObject({
  outcome: z.enum(OUTCOMES),
  idempotency_key: z.string().min(1).max(REQUEST_LIMITS.outcomeIdempotencyKey),
  /** Obtained from the single-service read with a key; valid 7 days. */
  referral_id: z.string().min(1).max(512).optional(),
  /** Used when there is no referral. */
  service_id: z.string().max(SERVICE_ID_MAX).regex(SERVICE_ID_RE, `must match ${SERVICE_ID_PATTERN}`).optional(),
  failure_kind: z.enum(FAILURE_KINDS).optional(),
  operation: z.string().max(REQUEST_LIMITS.outcomeOperation).optional(),
  task_category: z.string().max(REQUEST_LIMITS.outcomeTaskCategory).optional(),
  reported_at: DateTime.optional(),
  /**
   * The seller's signed x402 receipt of the paid call (offer-receipt extension), as returned in its
   * settlement response; shape and size checked here, verified by the pipeline (site/contract/outcome-receipt.ts).
   */
  receipt: X402Receipt.optional(),
});
/** @public The request body a client sends (for clients typing their requests). */
export type OutcomeReport = z.infer<typeof OutcomeReportSchema>;

export const FeedbackRequestSchema = z.strictObject({
  kind: z.enum(FEEDBACK_KINDS),
  note: z.string().max(REQUEST_LIMITS.feedbackNote).optional(),
  /** A service id, host or kind of service. */
  about: z.string().max(REQUEST_LIMITS.feedbackAbout).optional(),
  /** Only if a reply is wanted. */
  contact: z.string().max(REQUEST_LIMITS.feedbackContact).optional(),
});
/** @public The request body a client sends (for clients typing their requests). */
export type FeedbackRequest = z.infer<typeof FeedbackRequestSchema>;

/** Path parameters (a malformed id is answered like an unknown one: 404). */
export const ServiceIdSchema = z.string().max(SERVICE_ID_MAX).regex(SERVICE_ID_RE);
export const ReportIdSchema = z.string().regex(REPORT_ID_RE);
