import { z } from 'zod';
import { CHECK_REASONS, CheckReason, PASS_RULES } from '../../site/contract/common.ts';

/** Reason codes of a check: the contract's closed set (site/contract/common.ts CHECK_REASONS). */
export const REASONS = CHECK_REASONS;
export const ReasonSchema = CheckReason;
export type Reason = z.infer<typeof ReasonSchema>;

/** Reasons produced by the HTTP edge when there is no usable response. */
export type EdgeFailure = Extract<
  Reason,
  'timeout' | 'dns' | 'refused' | 'tls' | 'reset' | 'too_large' | 'blocked_address' | 'network_error'
>;

/** The pass rules (one list, in the contract, where their ids are published). */
export { PASS_RULES };
export const PassRuleSchema = z.enum(PASS_RULES);
export type PassRule = z.infer<typeof PassRuleSchema>;
