import { loadReal402Responses, realdataDir, type Real402Response } from '../../pipeline/fleet/index.ts';

/**
 * The real 402 responses (pipeline/fleet/real-402.ts) and the verdict x402-mainnet/1 must give each,
 * stated here on its own so that a change in the rule, the fleet's REAL_402_EXPECTED or the file is
 * caught. The responses are read at run time from the realdata folder (`../shared/realdata` next to
 * the repository, or ATLAS_REALDATA); suites gate on test/helpers/realdata-gate.ts before reading them.
 * Why each verdict: docs/notes/fleet.md, "Real 402 responses".
 */
export interface Real402Verdict {
  passed: boolean;
  reason: 'ok' | 'invalid_payment_request';
  status: 402;
  /** The check's stored detail, exactly. */
  detail: string | null;
  /** payment_terms of a valid request: CAIP-2 networks and the dollar price (null: not a known stablecoin). */
  terms: { networks: string[]; minPriceUsd: number | null } | null;
}

export const REAL_402_TABLE: Readonly<Record<string, Real402Verdict>> = {
  // Non-standard hybrid body: v1 offers under `paymentRequirements`, and `accepts` entries with only
  // network/asset "USDC"/amount "$0.01" (no scheme, maxAmountRequired, resource).
  'strale-iban-validate': {
    passed: false,
    reason: 'invalid_payment_request',
    status: 402,
    detail: 'body: schema check failed at accepts.0.scheme, accepts.0.maxAmountRequired, accepts.0.resource',
    terms: null,
  },
  // Valid v1 body, CAIP-2 Solana mainnet network, no `description` (cosmetic, ignored and noted).
  'losbeto-analise-solana': {
    passed: true,
    reason: 'ok',
    status: 402,
    detail: 'ignored cosmetic fields: accepts.description',
    terms: { networks: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'], minPriceUsd: 0.05 },
  },
  // v1 body with `asset: ""`.
  'crypto-sentiment-btc': {
    passed: false,
    reason: 'invalid_payment_request',
    status: 402,
    detail: 'body: schema check failed at accepts.0.asset',
    terms: null,
  },
  // Real v2 PAYMENT-REQUIRED header: Stellar USDC (7 decimals) on stellar:pubnet, 20000 units.
  'mpprouter-firecrawl-scrape-stellar': {
    passed: true,
    reason: 'ok',
    status: 402,
    detail: null,
    terms: { networks: ['stellar:pubnet'], minPriceUsd: 0.002 },
  },
};

/** The four real responses; throws a clear error when the realdata folder is absent. */
export function realResponses(): Real402Response[] {
  return loadReal402Responses(realdataDir());
}
