import { z } from 'zod';
import { CheckReason, PASS_RULES } from '../../site/contract/common.ts';

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
