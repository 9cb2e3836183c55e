import { z } from 'zod';
import { DateTime, PriceKind, TermsChangeKind } from './common.ts';

/** Summary of observed x402 payment terms (discovered services; null otherwise). */
export const PaymentTerms = z.strictObject({
  current_since: DateTime,
  changes_30d: z.number().int().nonnegative(),
  changes_90d: z.number().int().nonnegative(),
  pay_to_changes_90d: z.number().int().nonnegative(),
  last_change_at: DateTime.nullable(),
  last_change_kinds: z.array(TermsChangeKind),
  window_start: DateTime,
  limited: z.boolean(),
});
export type PaymentTerms = z.infer<typeof PaymentTerms>;

/**
 * Payment terms as a generation's files carry them (index records, single-service files):
 * `window_start` only while `limited` is true (the first valid observation, a value that never
 * moves), null otherwise (90 days before the compute instant, which moves at every compute); the
 * server completes it when it answers (site/contract/terms-window.ts).
 */
export const PaymentTermsFile = PaymentTerms.extend({ window_start: DateTime.nullable() });
export type PaymentTermsFile = z.infer<typeof PaymentTermsFile>;

/** One detected change of terms (history in the single-service object; from `terms_changes`). */
export const TermsChange = z.strictObject({
  changed_at: DateTime,
  kinds: z.array(TermsChangeKind),
});
export type TermsChange = z.infer<typeof TermsChange>;

/** One offer of the latest valid payment request. Receiving addresses are never published. */
export const TermsOffer = z.strictObject({
  scheme: z.string(),
  network: z.string(),
  asset: z.string(),
  amount: z.string(),
  max_timeout_seconds: z.number().int().nullable(),
  price_kind: PriceKind.nullable(),
  currency: z.string().nullable(),
});
export type TermsOffer = z.infer<typeof TermsOffer>;

/** The latest valid payment request observed (single-service object). */
export const CurrentTerms = z.strictObject({
  observed_at: DateTime,
  x402_version: z.number().int(),
  networks: z.array(z.string()),
  offers: z.array(TermsOffer),
  min_price_usd: z.number().nonnegative().nullable(),
  max_price_usd: z.number().nonnegative().nullable(),
});
export type CurrentTerms = z.infer<typeof CurrentTerms>;
