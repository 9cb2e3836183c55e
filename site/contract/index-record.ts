import { z } from 'zod';
import { DateTime } from './common.ts';
import { ServiceSummary, ServiceSummaryFile } from './summary.ts';

/**
 * Internal (not an API response): one record of a generation's index (its bucket files, below).
 * Serve loads the records into memory and filters / sorts / pages it; everything it needs is here.
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

/** An index record as the server holds it: the published record with `evidence.monitoring_days` and `payment_terms.window_start` completed at load. */
export const IndexRecord = z.strictObject({
  summary: ServiceSummary,
  in_directory: z.boolean(),
  search: IndexSearch,
});
export type IndexRecord = z.infer<typeof IndexRecord>;

/**
 * An index record as a generation's index files carry it: the summary without
 * `evidence.monitoring_days` (site/contract/monitoring.ts) and with `payment_terms.window_start`
 * only while `limited` (site/contract/terms-window.ts); the server completes both at load.
 */
export const IndexRecordFile = IndexRecord.extend({ summary: ServiceSummaryFile });
export type IndexRecordFile = z.infer<typeof IndexRecordFile>;

/**
 * The index of a generation is split into buckets so that a publish rewrites only the buckets holding
 * a changed service and shares the others with the previous generation (docs/notes/incremental-publish.md):
 *
 *   index/buckets.json              this object: the layout and every bucket's record count
 *   index/summaries/<hex>.json     one bucket: a JSON array of IndexRecordFile, one record per line, by id
 *
 * A service's bucket is the first `bits` bits of the MD5 digest of its id (read as a big-endian
 * number), written as lowercase hex padded to ceil(bits / 4) digits (`bits` 0: the one bucket `0`).
 * `bits` is the smallest count that keeps the average bucket at BUCKET_TARGET records or fewer, so it
 * depends only on how many services are published. Buckets without a record are not written
 * (`counts[n]` is 0). A static-host client finds one service's record with two requests.
 */
export const INDEX_BUCKETS_FILE = 'index/buckets.json';
export const INDEX_BUCKETS_FORMAT = 'atlas-index-buckets/1';
export const BUCKET_TARGET = 16;

export const IndexBuckets = z.strictObject({
  format: z.literal(INDEX_BUCKETS_FORMAT),
  /** How a service's bucket is found (the rule above, in words). */
  bucket_of: z.string(),
  bits: z.number().int().min(0).max(24),
  services: z.number().int().nonnegative(),
  /** Records per bucket, by bucket number (2^bits entries). */
  counts: z.array(z.number().int().nonnegative()),
});
export type IndexBuckets = z.infer<typeof IndexBuckets>;

export const BUCKET_OF_TEXT = 'first `bits` bits of md5(id), big-endian; file index/summaries/<lowercase hex, ceil(bits/4) digits>.json';

/** Bits of the bucket number for `services` records: average bucket size at most BUCKET_TARGET. */
export function bucketBits(services: number): number {
  let bits = 0;
  while (bits < 24 && services / 2 ** bits > BUCKET_TARGET) bits += 1;
  return bits;
}

/** Generation-relative path of bucket `n` under `bits`. */
export function bucketFile(n: number, bits: number): string {
  return `index/summaries/${n.toString(16).padStart(Math.max(1, Math.ceil(bits / 4)), '0')}.json`;
}
