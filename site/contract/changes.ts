import { z } from 'zod';
import { ApiStatus, CheckKind, DateTime } from './common.ts';
import { DeclaredDifferenceChange } from './declared-terms.ts';
import { REQUEST_LIMITS } from './requests.ts';

/**
 * When does a documentation change need review? (published in the field dictionary: `needs_review`)
 *
 * The changed lines (removed and added, after normalization) are scanned for tokens of what a listing
 * states. The change needs review when the tokens found in the removed lines differ from those found
 * in the added lines — so a new price, network, path, auth requirement or deprecation notice counts,
 * while a typo fix or rewording of a line that still states the same price counts not.
 */
export const NEEDS_REVIEW_RULE = {
  id: 'docs-review/1',
  description:
    'needs_review is true when the lines that changed (after normalization: HTML to text, JSON canonicalized) differ in what a listing states: ' +
    'prices (dollar amounts, amounts in USD/USDC/USDT/cents, numbers on lines that mention price, pricing, fee, cost or per call/request), ' +
    'payment networks (base, solana, ethereum, polygon, avalanche, arbitrum, optimism, sei, and CAIP-2 ids such as eip155:8453; mainnet/testnet words), ' +
    "endpoint paths (the paths of the service's listed operations, and path-like tokens such as /v1/items), " +
    'authentication (api key, bearer, oauth, authorization, x-api-key, login required) and ' +
    'deprecation (deprecated, sunset, discontinued, removed, end of life, shutting down). ' +
    'A term counts when the set of such terms in the removed lines differs from the set in the added lines; ' +
    'a wording or typo fix that keeps the same terms does not need review.',
} as const;

/** What a change-feed entry records. */
export const CHANGE_KINDS = ['documentation', 'catalog_listed', 'catalog_unlisted'] as const;

/** The catalog of a catalog_listed / catalog_unlisted entry (macro atlas_catalog_events, pipeline/store/rules.sql). */
export const ChangeCatalog = z.strictObject({
  kind: CheckKind.exclude(['reviewed']),
  name: z.string(),
  /** first_listed, relisted; missing_from_sweep, <MCP status>_status, not_recorded. */
  reason: z.string(),
});
export type ChangeCatalog = z.infer<typeof ChangeCatalog>;

/**
 * An entry of the change feed: a detected change to a reviewed service's documentation (table
 * `changes`; kind documentation), or a catalog listing or unlisting a discovered service (table
 * catalog_listing_history; kinds catalog_listed and catalog_unlisted: `catalog` names it, `url` is
 * the service's URL, no lines or diff, needs_review false).
 */
export const ChangeRecord = z.strictObject({
  kind: z.enum(CHANGE_KINDS),
  catalog: ChangeCatalog.nullable(),
  id: z.string(),
  service_id: z.string(),
  service_name: z.string().nullable(),
  url: z.string(),
  detected_at: DateTime,
  summary: z.string(),
  added_lines: z.number().int().nonnegative(),
  removed_lines: z.number().int().nonnegative(),
  needs_review: z.boolean(),
  review_terms: z.array(z.string()),
  diff: z.array(z.strictObject({ op: z.enum(['+', '-']), line: z.string() })),
});
export type ChangeRecord = z.infer<typeof ChangeRecord>;

/** Kinds of dated events in the change feed beside documentation changes. */
export const CHANGE_EVENT_KINDS = ['signed_offer_terms_differ'] as const;
export const ChangeEventKind = z.enum(CHANGE_EVENT_KINDS);

/**
 * A dated event of a service's observed payment terms (not a documentation change):
 * `signed_offer_terms_differ`, a valid 402 whose signed offers (offer-receipt, valid signatures)
 * differ from their unsigned accepts entries when the previous valid 402 had none that did (rule
 * atlas_signed_offer_events; docs/notes/signed-offers.md).
 */
export const ChangeEvent = z.strictObject({
  kind: ChangeEventKind,
  service_id: z.string(),
  service_name: z.string().nullable(),
  detected_at: DateTime,
  /** The differing fields (scheme, network, asset, pay_to, amount; sorted). */
  fields: z.array(z.string()),
  /** How many signed offers differed. */
  offers: z.number().int().nonnegative(),
});
export type ChangeEvent = z.infer<typeof ChangeEvent>;

/** GET /api/v1/changes (newest first). The published file holds 90 days; serve filters. */
export const ChangeList = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  query: z.strictObject({
    days: z.number().int().min(REQUEST_LIMITS.daysMin).max(REQUEST_LIMITS.daysMax),
    service_id: z.string().optional(),
    needs_review: z.boolean().optional(),
  }),
  window_start: DateTime,
  total: z.number().int().nonnegative(),
  items: z.array(ChangeRecord),
  /**
   * Declared-against-observed difference events (rule declared-terms/1) that began or ended in the
   * window, newest first; filtered by days and service_id (needs_review does not apply to them).
   */
  declared_differences: z.array(DeclaredDifferenceChange),
  /** Dated payment-term events in the same window (filtered by days and service_id; needs_review does not apply). */
  events: z.array(ChangeEvent),
});
export type ChangeList = z.infer<typeof ChangeList>;
