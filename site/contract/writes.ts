import { z } from 'zod';
import { ApiStatus, DateTime, FeedbackKind, Outcome } from './common.ts';
import { ModerationReason, OUTCOME_RECEIPT_STATUSES } from './moderation.ts';
import { ReceiptVerification } from './receipt-verdict.ts';

/** Rate limits stated with a new key (the settings in config `serve.rateLimits`). */
export const KeyLimits = z.strictObject({
  anonymous_requests_per_minute: z.number().int().positive(),
  keyed_requests_per_minute: z.number().int().positive(),
  keys_per_address_per_day: z.number().int().positive(),
  feedback_per_address_per_day: z.number().int().positive(),
  referral_valid_days: z.number().int().positive(),
});
export type KeyLimits = z.infer<typeof KeyLimits>;

/** 201 of POST /api/v1/keys. `key` is shown once and never stored (only its hash). */
export const KeyCreated = z.strictObject({
  api_status: ApiStatus,
  key: z.string(),
  key_id: z.string(),
  created_at: DateTime,
  limits: KeyLimits,
  note: z.string(),
});
export type KeyCreated = z.infer<typeof KeyCreated>;

/**
 * 201 (first receipt) or 200 (same idempotency_key again: the first receipt, duplicate true) of
 * POST /api/v1/outcomes. Reports are unverified, moderated, never mixed into evidence. The 201 is
 * always pending_moderation; a 200 says the decision the loaded generation publishes for the report
 * (index/moderation.json), with the reason of a rejection, else pending_moderation.
 */
export const OutcomeReceipt = z.strictObject({
  api_status: ApiStatus,
  id: z.string(),
  status: z.enum(OUTCOME_RECEIPT_STATUSES),
  moderation_reason: ModerationReason.nullable(),
  moderated_at: DateTime.nullable(),
  received_at: DateTime,
  idempotency_key: z.string(),
  service_id: z.string().nullable(),
  outcome: Outcome,
  receipt_verification: ReceiptVerification.nullable(),
  duplicate: z.boolean(),
  message: z.string(),
});
export type OutcomeReceipt = z.infer<typeof OutcomeReceipt>;

/** 201 of POST /api/v1/feedback: id, received_at, kind, message. */
export const FeedbackReceipt = z.strictObject({
  api_status: ApiStatus,
  id: z.string(),
  received_at: DateTime,
  kind: FeedbackKind,
  message: z.string(),
});
export type FeedbackReceipt = z.infer<typeof FeedbackReceipt>;
