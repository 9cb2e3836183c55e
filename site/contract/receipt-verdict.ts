import { z } from 'zod';
import { DateTime } from './common.ts';

/**
 * The verdict on one outcome report's receipt (rule outcome-receipt/1, docs/notes/outcome-receipts.md):
 * the rule's version, the reasons a receipt is not verified, and the two shapes that carry a verdict
 * out: the published index entry (index/moderation.json `receipts`) and the answer its sender reads
 * (OutcomeReceipt.receipt_verification). A leaf module, so the moderation and writes contracts can
 * use it (outcome-receipt.ts depends on moderation.ts).
 */

/** The version of the verification rule; recorded with every verdict. */
export const RECEIPT_RULE = 'outcome-receipt/1' as const;

/**
 * Why a receipt is not verified, in the order the rule evaluates them (the first that applies is
 * recorded):
 * - malformed: the receipt cannot be read (JWS not decodable, payload version not 1, …);
 * - no_service: the report names no tracked service, so there is no payee to check against;
 * - signature_invalid: the signature does not verify;
 * - signature_not_checked: the key cannot be obtained offline (a did:web key id needs an HTTPS
 *   fetch, which Atlas never makes; an unsupported key id or algorithm);
 * - resource_mismatch: the receipt's resourceUrl is not the service's URL nor one of its operations';
 * - issued_outside_window: issuedAt is outside RECEIPT_WINDOW;
 * - no_observed_payee: Atlas has observed no receiving address for the service yet;
 * - signer_not_payee: the signing key is not one of the service's observed receiving addresses
 *   (the only authorisation Atlas checks; did:web documents and DNS records are never fetched);
 * - receipt_reused: an earlier report (by received_at, then id) carried the same signature.
 */
export const RECEIPT_REASONS = [
  'malformed',
  'no_service',
  'signature_invalid',
  'signature_not_checked',
  'resource_mismatch',
  'issued_outside_window',
  'no_observed_payee',
  'signer_not_payee',
  'receipt_reused',
] as const;
export type ReceiptReason = (typeof RECEIPT_REASONS)[number];

/** A verdict made by `atlas ingest inbox`: every check passed, or the first that failed. */
export const ReceiptVerdictEntry = z.strictObject({
  state: z.enum(['verified', 'not_verified']),
  reason: z.enum(RECEIPT_REASONS).nullable(),
  checked_at: DateTime,
});
export type ReceiptVerdictEntry = z.infer<typeof ReceiptVerdictEntry>;

/**
 * What the sender of a report with a receipt reads back: `pending` until the loaded generation
 * publishes the verdict (the first answer is always pending: serve never verifies), then the verdict.
 */
export const ReceiptVerification = z.strictObject({
  rule: z.literal(RECEIPT_RULE),
  state: z.enum(['pending', 'verified', 'not_verified']),
  reason: z.enum(RECEIPT_REASONS).nullable(),
  checked_at: DateTime.nullable(),
});
export type ReceiptVerification = z.infer<typeof ReceiptVerification>;
