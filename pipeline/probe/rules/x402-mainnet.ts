import { PASS_RULE_OF_KIND } from '../../../site/contract/common.ts';
import { type Classified402, classify402 } from '../../x402/classify-402.ts';
import { networkKind } from '../../../site/contract/networks.ts';
import type { PaymentRequestRead } from '../../x402/payment-request.ts';
import type { EdgeResult } from '../safe-fetch.ts';
import { commonVerdict, type Verdict } from '../verdict.ts';

/**
 * x402-mainnet/2 (docs/design.md, pass rules): passes on HTTP 402 carrying a valid x402 payment
 * request (pipeline/x402/payment-request.ts) that offers at least one known mainnet network, whatever
 * other challenges come with it. Same pass/fail outcome as x402-mainnet/1; the failures are told apart
 * by what the 402 carries (`classified`, pipeline/x402/classify-402.ts):
 * - other status → `not_402`;
 * - an x402 request that is malformed → `invalid_payment_request` (a body that hit the cap with no
 *   header → `too_large`: the body was needed and is incomplete);
 * - an x402 request with an empty `accepts` (sign-in only) → `no_payment_offer`;
 * - no x402 request, but an MPP or L402 challenge → `not_x402` (a working endpoint of another
 *   protocol, not a broken x402 one);
 * - no challenge of any protocol (e.g. an HTML paywall) → `invalid_payment_request`, as under /1:
 *   the endpoint is listed as x402 and its 402 carries no payment request (or `too_large` as above);
 * - a valid request with no mainnet offer: every offer on a test network → `testnet_only`; otherwise
 *   (some network not in the table, never counted as mainnet) → `unknown_network`, networks in the detail.
 * `payment` is the caller's read of the response (done once, shared with the terms recorder);
 * `classified` the caller's classify402 of it (computed here when not given).
 */
export function x402MainnetRule(res: EdgeResult, payment: PaymentRequestRead | null, classified?: Classified402 | null): Verdict {
  const rule = PASS_RULE_OF_KIND.x402;
  const common = commonVerdict(rule, res);
  if (common) return common;
  if (!res.ok) throw new Error('unreachable');
  if (res.status !== 402) return { passed: false, reason: 'not_402', rule, detail: `HTTP ${res.status}` };
  classified ??= classify402(res, payment ?? undefined);
  const cls = classified.classification;
  const seen = `challenges: ${classified.challenges.join(', ')}`;
  if (cls === 'x402-auth-only')
    return { passed: false, reason: 'no_payment_offer', rule, detail: `x402 request with an empty accepts (sign-in only); ${seen}` };
  if (cls === 'mpp' || cls === 'l402') return { passed: false, reason: 'not_x402', rule, detail: `no x402 request; ${seen}` };
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
  return { passed: false, reason: 'unknown_network', rule, detail: `no known mainnet network: ${nets}` };
}
