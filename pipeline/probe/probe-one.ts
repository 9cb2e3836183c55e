import { PASS_RULE_OF_KIND } from '../../site/contract/common.ts';
import { MAX_AUTH_SCHEME_LENGTH, MAX_AUTH_SCHEMES } from '../../site/contract/evidence.ts';
import { authSchemes, type Classified402, classify402, lowerHeaders, type PaymentProtocol } from '../x402/classify-402.ts';
import type { SignedOfferCheck } from '../../site/contract/offer-receipt.ts';
import { checkSignedOffers, hasSignedOffers } from '../x402/offer-receipt/index.ts';
import { readPaymentRequest, type PaymentRequestRead } from '../x402/payment-request.ts';
import { normalizeTerms, type Terms } from '../x402/terms.ts';
import type { DueOperation } from './due.ts';
import { buildRequest, type RequestSettings } from './request.ts';
import { mcpReachRule } from './rules/mcp-reach.ts';
import { reviewedRule } from './rules/reviewed.ts';
import { x402MainnetRule } from './rules/x402-mainnet.ts';
import type { EdgeResult, Fetcher } from './safe-fetch.ts';
import type { Verdict } from './verdict.ts';

/**
 * One check: request → response → verdict (+ payment terms when the response carries a valid x402
 * payment request, whatever the rule or verdict — reviewed and discovered alike; + the payment
 * protocols a 402 carries, for every call whatever its rule; + for MCP's plain GET, the auth schemes a
 * 401 names; + the offer-receipt signed offers of a valid x402 request, verified offline). The fetcher
 * is injected; everything after it is pure.
 */
export interface ProbeOutcome {
  op: DueOperation;
  checkedAt: Date;
  response: EdgeResult;
  verdict: Verdict;
  terms: Terms | null;
  /** `checks.protocols`: the payment protocols of a 402 answer to a call ([] when none); null otherwise. */
  protocols: PaymentProtocol[] | null;
  /** `checks.auth_schemes`: the schemes a 401 answer to MCP's plain GET names ([] when none); null otherwise. */
  authSchemes: string[] | null;
  /**
   * `offer_signatures` (migration 062): the offer-receipt signed offers of a valid x402 payment
   * request, one record per offer ([] when `info.offers` is an empty list); null when it carries none.
   */
  signedOffers: SignedOfferCheck[] | null;
}

/**
 * The auth schemes of a 401 answer to mcp-reach/3's GET: every challenge's scheme in WWW-Authenticate,
 * lower-cased, each once, in order (`bearer`, `basic`, …); [] when the 401 names none (no header, or
 * an empty one). Null for any other answer and any other rule: only MCP's GET records it. Bounded
 * against hostile headers like the published shape (LastCheck.auth_schemes): at most
 * MAX_AUTH_SCHEMES, and a scheme longer than MAX_AUTH_SCHEME_LENGTH is left out.
 */
export function mcpAuthSchemes(op: Pick<DueOperation, 'passRule'>, res: EdgeResult): string[] | null {
  if (op.passRule !== PASS_RULE_OF_KIND.mcp || !res.ok || res.status !== 401) return null;
  const schemes = authSchemes(lowerHeaders(res.headers)['www-authenticate'] ?? '').filter((s) => s.length <= MAX_AUTH_SCHEME_LENGTH);
  return [...new Set(schemes)].slice(0, MAX_AUTH_SCHEMES);
}

export function judge(
  op: DueOperation,
  res: EdgeResult,
  secret: string,
): {
  verdict: Verdict;
  terms: Terms | null;
  protocols: PaymentProtocol[] | null;
  authSchemes: string[] | null;
  /** The valid payment request when it carries offer-receipt signed offers (verified by probeOne: async). */
  signedOfferRequest: Record<string, unknown> | null;
} {
  let payment: PaymentRequestRead | null = null;
  let classified: Classified402 | null = null;
  if (res.ok && res.status === 402 && op.kind === 'call') {
    if (op.passRule !== PASS_RULE_OF_KIND.mcp) payment = readPaymentRequest(res.headers, res.body);
    classified = classify402(res, payment ?? undefined);
  }
  const verdict =
    op.passRule === PASS_RULE_OF_KIND.reviewed
      ? reviewedRule(res, op.expectedStatuses)
      : op.passRule === PASS_RULE_OF_KIND.mcp
        ? mcpReachRule(res)
        : x402MainnetRule(res, payment, classified);
  const terms = payment?.kind === 'valid' ? normalizeTerms(payment.version, payment.offers, secret) : null;
  const signedOfferRequest = payment?.kind === 'valid' && hasSignedOffers(payment.raw) ? payment.raw : null;
  return { verdict, terms, protocols: classified ? classified.challenges : null, authSchemes: mcpAuthSchemes(op, res), signedOfferRequest };
}

export async function probeOne(
  op: DueOperation,
  deps: { fetcher: Fetcher; settings: RequestSettings; secret: string; now: () => Date },
): Promise<ProbeOutcome> {
  const checkedAt = deps.now();
  const response = await deps.fetcher(buildRequest(op, deps.settings));
  const { signedOfferRequest, ...judged } = judge(op, response, deps.secret);
  // Signature checks are CPU work: only for a request that carries signed offers.
  const signedOffers = signedOfferRequest ? await checkSignedOffers(signedOfferRequest) : null;
  return { op, checkedAt, response, ...judged, signedOffers };
}
