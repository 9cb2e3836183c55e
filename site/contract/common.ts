import { z } from 'zod';

/**
 * Building blocks shared by every response schema. Responses are strict objects: a member that the
 * contract does not name is a bug (the field dictionary and the OpenAPI document are generated from
 * these schemas, so an unnamed member would be undocumented).
 */

/** Every body carries `api_status: "preview"` (spec 1, 9.3). */
export const ApiStatus = z.literal('preview');
export const API_STATUS = 'preview' as const;
/** Interface description version (spec 9.2). */
export const API_VERSION = '0.1.0-preview' as const;

/** UTC instant as ISO-8601 with `Z` (what `Date#toISOString` writes). */
export const DateTime = z.iso.datetime();
/** A calendar day `YYYY-MM-DD` (UTC). */
export const Day = z.iso.date();

export const SERVICE_ID_PATTERN = '^(svc|cand)_[A-Za-z0-9_-]+$';
export const ServiceId = z.string().regex(new RegExp(SERVICE_ID_PATTERN));

export const REPORT_ID_PATTERN = '^(current|[0-9]{4}-[0-9]{2}-[0-9]{2})$';
export const ReportId = z.string().regex(new RegExp(REPORT_ID_PATTERN));

export const Tier = z.enum(['reviewed', 'discovered']);
export const ServiceType = z.enum(['api_endpoint', 'task_marketplace', 'mcp_server']);
export const NameSource = z.enum(['atlas', 'registry']);
export const PriceSource = z.enum(['registry', 'operator']);
export const NetworksSource = z.enum(['observed', 'registry', 'operator']);
export const Freshness = z.enum(['fresh', 'stale', 'no_data']);
export const CheckIntervalName = z.enum(['hourly', 'daily', 'weekly', 'monthly']);
export const TermsChangeKind = z.enum(['price', 'network_added', 'network_removed', 'asset', 'pay_to', 'scheme', 'version', 'other']);
export const PassRule = z.string(); // reviewed/1 | x402-mainnet/1 | mcp-reach/3 (versioned ids; open set)
export const RunStatus = z.enum(['running', 'ok', 'partial', 'failed']);
export const FeedbackKind = z.enum(['missing_service', 'missing_metric', 'feature_request', 'wrong_data', 'unclear_docs', 'other']);
export const Outcome = z.enum(['success', 'failure', 'unknown']);
export const FailureKind = z.enum(['no_response', 'payment_failed', 'bad_output', 'wrong_price', 'auth_required', 'rate_limited', 'other']);
export const Scope = z.enum(['directory', 'index']);
export const SortKey = z.enum(['evidence', 'pass_rate', 'payers', 'price', 'recent', 'name']);
export const RoadmapStatus = z.enum(['planned', 'in_progress', 'done']);

/** Rule ids published with results (spec 9.4). */
export const SCHEDULE_RULE = 'schedule/1' as const;
export const LISTING_CRITERIA_RULE = 'listing-criteria/1' as const;
/** `evidence.schedule_tier` is served until this day, then dropped (spec 9.5). */
export const SCHEDULE_TIER_SUNSET = '2027-01-17' as const;
