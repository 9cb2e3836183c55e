import { z } from 'zod';
import { emptyOutcomeReportCounts, OutcomeReportCounts } from './moderation.ts';

/**
 * Outcome reports backed by a seller's signed receipt (issue 27, item 4; docs/notes/outcome-receipts.md).
 *
 * An outcome report (POST /api/v1/outcomes) may carry `receipt`: the x402 `offer-receipt` extension's
 * receipt object exactly as the seller returned it in its settlement response
 * (`extensions["offer-receipt"].info.receipt`): `{format: "eip712", payload, signature}` or
 * `{format: "jws", signature}`. The server checks only its shape and size (400 otherwise) and stores
 * it raw; it never verifies it. `atlas ingest inbox` verifies each stored receipt once, by rule
 * RECEIPT_RULE (receipt-verdict.ts), and records the verdict with its reason. A report is counted `verified` only when
 * every check passed; a report with a receipt that failed any check is `not_verified`; a report
 * without one is `no_receipt`. Verified and unverified reports are counted apart everywhere.
 */

/** Bounds of the receipt object accepted in a report (characters; `bytes`: the whole object as JSON). */
export const RECEIPT_LIMITS = {
  signature: 4096,
  network: 100,
  resourceUrl: 2048,
  payer: 200,
  transaction: 200,
  bytes: 8192,
} as const;

/**
 * The window a receipt's `issuedAt` must fall in, around the report's own times: from
 * `beforeHours` before the report's time (`reported_at`, else `received_at`) to `afterMinutes`
 * after `received_at` (the seller's clock may run ahead of ours). Both ends inclusive.
 */
export const RECEIPT_WINDOW = { beforeHours: 24, afterMinutes: 5 } as const;

/** Receipt payload (version, network, resourceUrl, payer, issuedAt, transaction): only those members, each bounded. */
export const X402ReceiptPayload = z.strictObject({
  version: z.number().int().min(0).max(1_000_000),
  network: z.string().min(1).max(RECEIPT_LIMITS.network),
  resourceUrl: z.string().min(1).max(RECEIPT_LIMITS.resourceUrl),
  payer: z.string().max(RECEIPT_LIMITS.payer),
  issuedAt: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  transaction: z.string().max(RECEIPT_LIMITS.transaction).optional(),
});

/**
 * The receipt object of a report: the extension's common shape {format, payload?, signature}. `payload` is required for
 * eip712 and must be absent for jws (the JWS compact string carries it). No signature is checked here.
 */
export const X402Receipt = z
  .strictObject({
    format: z.enum(['eip712', 'jws']),
    payload: X402ReceiptPayload.optional(),
    signature: z.string().min(1).max(RECEIPT_LIMITS.signature),
  })
  .refine((r) => (r.format === 'eip712') === (r.payload !== undefined), {
    message: 'payload is required with format eip712 and not allowed with format jws',
  })
  .refine((r) => JSON.stringify(r).length <= RECEIPT_LIMITS.bytes, {
    message: `at most ${RECEIPT_LIMITS.bytes} characters as JSON`,
  });
export type X402Receipt = z.infer<typeof X402Receipt>;

/** How a report stands with respect to a receipt. */
export const RECEIPT_STATES = ['verified', 'not_verified', 'no_receipt'] as const;
export type ReceiptState = (typeof RECEIPT_STATES)[number];

/**
 * Outcome reports about one service, per receipt state, reported outcome and moderation state:
 * counts only, never a rate or a score. The three receipt states never add up into one figure here.
 */
export const OutcomeReportsByReceipt = z.strictObject(
  Object.fromEntries(RECEIPT_STATES.map((s) => [s, OutcomeReportCounts])) as Record<ReceiptState, typeof OutcomeReportCounts>,
);
export type OutcomeReportsByReceipt = z.infer<typeof OutcomeReportsByReceipt>;

/** Every count zero. */
export function emptyOutcomeReportsByReceipt(): OutcomeReportsByReceipt {
  return Object.fromEntries(RECEIPT_STATES.map((s) => [s, emptyOutcomeReportCounts()])) as OutcomeReportsByReceipt;
}
