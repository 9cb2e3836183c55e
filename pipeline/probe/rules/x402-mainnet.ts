import { PASS_RULE_OF_KIND } from '../../../site/contract/common.ts';
import { networkKind } from '../../x402/networks.ts';
import type { PaymentRequestRead } from '../../x402/payment-request.ts';
import type { EdgeResult } from '../safe-fetch.ts';
import { commonVerdict, type Verdict } from '../verdict.ts';

/**
 * x402-mainnet/1 (docs/design.md, pass rules): passes on HTTP 402 with a valid x402 payment request
 * (pipeline/x402/payment-request.ts) that offers at least one known mainnet network.
 * - other status → `not_402`; 402 without a request (e.g. an HTML paywall) or an invalid one →
 *   `invalid_payment_request`; a 402 whose body hit the cap with no header → `too_large`
 *   (the body was needed and is incomplete);
 * - valid but no mainnet offer: every offer on a test network → `testnet_only`; otherwise (unknown
 *   networks, never counted as mainnet) → `invalid_payment_request` with the networks in the detail.
 * `payment` is the caller's read of the response (done once, shared with the terms recorder).
 */
export function x402MainnetRule(res: EdgeResult, payment: PaymentRequestRead | null): Verdict {
  const rule = PASS_RULE_OF_KIND.x402;
  const common = commonVerdict(rule, res);
  if (common) return common;
  if (!res.ok) throw new Error('unreachable');
  if (res.status !== 402) return { passed: false, reason: 'not_402', rule, detail: `HTTP ${res.status}` };
  if (!payment || payment.kind === 'absent') {
    if (res.truncated)
      return { passed: false, reason: 'too_large', rule, detail: `no PAYMENT-REQUIRED header and the body exceeds ${res.bytes} bytes` };
    return { passed: false, reason: 'invalid_payment_request', rule, detail: payment?.detail ?? 'no payment request' };
  }
  if (payment.kind === 'invalid')
    return { passed: false, reason: 'invalid_payment_request', rule, detail: `${payment.source}: ${payment.detail}` };
  const kinds = payment.offers.map((o) => networkKind(o.caip2));
  const notes = payment.notes.length ? payment.notes.join('; ') : null;
  if (kinds.includes('mainnet')) return { passed: true, reason: 'ok', rule, detail: notes };
  const nets = [...new Set(payment.offers.map((o) => o.caip2))].join(', ').slice(0, 200);
  if (kinds.every((k) => k === 'testnet')) return { passed: false, reason: 'testnet_only', rule, detail: `test networks only: ${nets}` };
  return { passed: false, reason: 'invalid_payment_request', rule, detail: `no known mainnet network: ${nets}` };
}
