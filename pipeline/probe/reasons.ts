import { z } from 'zod';
import { PASS_RULES } from '../../site/contract/common.ts';

/**
 * Reason codes of a check (docs/CONTRACTS.md "checks"). Fixed set: stored in `checks.reason`, read by
 * compute, reports and researchers. Add codes only together with CONTRACTS.md.
 */
export const REASONS = [
  'ok',
  'status_not_expected', // reviewed/1: status not in the listing's expected set
  'not_402', // x402-mainnet/1: any status other than 402 (3xx and 429 have their own codes)
  'invalid_payment_request', // x402-mainnet/1: 402 without a valid x402 payment request
  'testnet_only', // x402-mainnet/1: valid request, but every offer is on a test network
  'status_not_allowed', // mcp-reach/3: status outside 200/400/401/403/405/406
  'timeout',
  'dns',
  'refused',
  'tls',
  'reset',
  'too_large',
  'redirect',
  'blocked_address',
  'rate_limited',
  'network_error',
] as const;
export const ReasonSchema = z.enum(REASONS);
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
