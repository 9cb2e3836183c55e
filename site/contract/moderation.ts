import { z } from 'zod';
import { DateTime, OUTCOME_RECEIPT_STATUS, OUTCOMES } from './common.ts';
import { ReceiptVerdictEntry } from './receipt-verdict.ts';

/**
 * Moderation of outcome reports (docs/notes/moderation.md). A report is `pending` on receipt; the
 * pipeline's rules (rule MODERATION_RULE, pipeline/moderation/rules.ts) or an operator (`atlas
 * moderate`) move it to `accepted` or `rejected`, a rejection always with one reason of the fixed
 * set below. Decisions are rows (history kept); the state of a report is its latest operator
 * decision, else the rules' decision, else pending (macro atlas_outcome_state_as_of,
 * pipeline/store/rules.sql). Reports are only ever counted, never turned into a rate or a score.
 */
export const MODERATION_STATES = ['pending', 'accepted', 'rejected'] as const;
export type ModerationStateName = (typeof MODERATION_STATES)[number];

/**
 * The receipt's `status` (site/contract/writes.ts OutcomeReceipt): pending_moderation on receipt,
 * then the published decision of the report.
 */
export const OUTCOME_RECEIPT_STATUSES = [OUTCOME_RECEIPT_STATUS, 'accepted', 'rejected'] as const;

/** The version of the automatic rules; recorded with every decision they make. */
export const MODERATION_RULE = 'moderation/1' as const;
/** What an operator's decision records as its rule version. */
export const OPERATOR_RULE = 'operator' as const;
/** Who the automatic rules record as the decider. */
export const PIPELINE_DECIDER = 'pipeline' as const;

/**
 * Why a report is rejected. The rules give the first six, in this order of evaluation; an operator
 * may give any of them, `operator_review` being the default for an operator's rejection.
 */
export const MODERATION_REASONS = [
  'no_service',
  'unknown_service',
  'not_tracked_at_report_time',
  'referral_invalid',
  'referral_expired',
  'duplicate',
  'daily_limit',
  'operator_review',
] as const;
export type ModerationReasonName = (typeof MODERATION_REASONS)[number];
export const ModerationReason = z.enum(MODERATION_REASONS);

/**
 * The numbers of rule moderation/1, in one place:
 * - duplicateWindowMinutes: a report is a duplicate when an earlier report of the same key, about the
 *   same service, with the same outcome was received at most this long before it;
 * - dailyReportsPerKey: a key's reports received on one UTC day beyond this many (in order of
 *   receipt) are rejected as over the daily limit.
 */
export const MODERATION_LIMITS = { duplicateWindowMinutes: 10, dailyReportsPerKey: 50 } as const;

/** Reports about one service with one outcome, per moderation state. */
export const ModerationCounts = z.strictObject({
  accepted: z.number().int().nonnegative(),
  pending: z.number().int().nonnegative(),
  rejected: z.number().int().nonnegative(),
});
export type ModerationCounts = z.infer<typeof ModerationCounts>;

/** Outcome reports about one service, per reported outcome and moderation state: counts only. */
export const OutcomeReportCounts = z.strictObject(
  Object.fromEntries(OUTCOMES.map((o) => [o, ModerationCounts])) as Record<(typeof OUTCOMES)[number], typeof ModerationCounts>,
);
export type OutcomeReportCounts = z.infer<typeof OutcomeReportCounts>;

/** Every count zero. */
export function emptyOutcomeReportCounts(): OutcomeReportCounts {
  return Object.fromEntries(OUTCOMES.map((o) => [o, { accepted: 0, pending: 0, rejected: 0 }])) as OutcomeReportCounts;
}

/** One report's decision as the published moderation index carries it. */
export const ModerationDecision = z.strictObject({
  state: z.enum(['accepted', 'rejected']),
  reason: ModerationReason.nullable(),
  decided_at: DateTime,
});
export type ModerationDecision = z.infer<typeof ModerationDecision>;

/**
 * The published file `index/moderation.json`: the current decision of every moderated report by
 * report id (a report not listed is pending), and the verdict on every verified receipt
 * (`receipts`, rule outcome-receipt/1; a report with a receipt not listed is pending). The server
 * reads it to answer a repeated report with its first report's state; the ids are the reporters'
 * receipt ids, which carry no key or address. `receipts` is absent in generations published before
 * it existed (read as empty).
 */
export const MODERATION_INDEX_FILE = 'index/moderation.json';
export const MODERATION_INDEX_FORMAT = 'atlas-moderation/1' as const;
export const ModerationIndex = z.strictObject({
  format: z.literal(MODERATION_INDEX_FORMAT),
  rule: z.literal(MODERATION_RULE),
  decisions: z.record(z.string(), ModerationDecision),
  receipts: z.record(z.string(), ReceiptVerdictEntry).optional(),
});
export type ModerationIndex = z.infer<typeof ModerationIndex>;
