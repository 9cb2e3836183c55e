import { z } from 'zod';
import { DateTime } from './common.ts';
import { ServiceSummary } from './summary.ts';

/**
 * Internal (not an API response): one element of `index/summaries.json` in a generation. Serve
 * loads the array into memory and filters / sorts / pages it; everything it needs is here.
 *
 * Freshness is a function of time (docs/notes/serve.md): serve recomputes `summary.evidence.freshness` from
 * `search.last_check_at` + `search.check_interval_hours` against its own clock, and membership as
 * `search.criteria_except_fresh && freshness === 'fresh'`. `in_directory` is the value at publish.
 */
export const IndexSearch = z.strictObject({
  /** Lower-cased `name host url operator`, for `q` (substring). */
  haystack: z.string(),
  /** Registry-reported unique payers in 30 days (`min_payers`, sort `payers`); null when unknown. */
  payers_30d: z.number().int().nonnegative().nullable(),
  /** Discovered: still listed by its registry; reviewed: null (the `listed` filter excludes them). */
  listed: z.boolean().nullable(),
  /** Latest check of the primary operation passed (`passing`); null when never checked. */
  latest_passed: z.boolean().nullable(),
  /** Latest check of any operation (freshness input). */
  last_check_at: DateTime.nullable(),
  /** Interval of the primary operation (freshness input). */
  check_interval_hours: z.number().positive(),
  /** Observed x402 payment-term changes in 90 days (`max_terms_changes_90d`); null when never observed. */
  terms_changes_90d: z.number().int().nonnegative().nullable(),
  /** Every applicable listing criterion other than `fresh` passed at publish. */
  criteria_except_fresh: z.boolean(),
});
export type IndexSearch = z.infer<typeof IndexSearch>;

export const IndexRecord = z.strictObject({
  summary: ServiceSummary,
  in_directory: z.boolean(),
  search: IndexSearch,
});
export type IndexRecord = z.infer<typeof IndexRecord>;
