import { loadReal402Responses, realdataDir, type Real402Response } from '../../pipeline/fleet/index.ts';

/**
 * The real 402 responses (pipeline/fleet/real-402.ts) and the verdict x402-mainnet/2 must give each,
 * stated here on its own so that a change in the rule, the fleet's REAL_402_EXPECTED or the file is
 * caught. The responses are read at run time from the realdata folder (`../shared/realdata` next to
 * the repository, or ATLAS_REALDATA); suites gate on test/helpers/realdata-gate.ts before reading them.
 * Why each verdict: docs/notes/fleet.md, "Real 402 responses".
 */
export interface Real402Verdict {
  passed: boolean;
  reason: 'ok' | 'invalid_payment_request' | 'unknown_network' | 'not_402' | 'not_x402' | 'no_payment_offer';
  status: 402 | 200;
  /** The check's stored detail, exactly. */
  detail: string | null;
  /** The check's stored protocols (pipeline/x402/classify-402.ts): null when the answer is not a 402. */
  protocols: string[] | null;
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
    protocols: ['x402-v1'],
    terms: null,
  },
  // Valid v1 body, CAIP-2 Solana mainnet network, no `description` (cosmetic, ignored and noted).
  'losbeto-analise-solana': {
    passed: true,
    reason: 'ok',
    status: 402,
    detail: 'ignored cosmetic fields: accepts.description',
    protocols: ['x402-v1'],
    terms: { networks: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'], minPriceUsd: 0.05 },
  },
  // v1 body with `asset: ""`.
  'crypto-sentiment-btc': {
    passed: false,
    reason: 'invalid_payment_request',
    status: 402,
    detail: 'body: schema check failed at accepts.0.asset',
    protocols: ['x402-v1'],
    terms: null,
  },
  // Real v2 PAYMENT-REQUIRED header: Stellar USDC (7 decimals) on stellar:pubnet, 20000 units.
  'mpprouter-firecrawl-scrape-stellar': {
    passed: true,
    reason: 'ok',
    status: 402,
    detail: null,
    protocols: ['x402-v2'],
    terms: { networks: ['stellar:pubnet'], minPriceUsd: 0.002 },
  },

  // --- real-402-examples-2026.json ---
  // The file's expected verdicts were written before Arc (eip155:5042) and BNB Smart Chain (eip155:56)
  // were in site/contract/networks.ts (both then unknown_network); with them there as mainnets, from
  // their operators' documents (docs/reference.md), both pass.
  // Complete v2 header on Arc; the body is an error object (`{"error":{…},"next":"pay"}`), not a request.
  // Exact 50000 units of Arc USDC (6 decimals): $0.05.
  'arcgate-box-create-arc': {
    passed: true,
    reason: 'ok',
    status: 402,
    detail: null,
    protocols: ['x402-v2'],
    terms: { networks: ['eip155:5042'], minPriceUsd: 0.05 },
  },
  // x402 inside an MCP tools/call result, HTTP 200: the HTTP rule sees no 402 (and reads no terms).
  'arcgate-mcp-tradesearch-x402-over-mcp': {
    passed: false,
    reason: 'not_402',
    status: 200,
    detail: 'HTTP 200',
    protocols: null,
    terms: null,
  },
  // Apify's MCP tool-error terms served as the HTTP 402 they would be: upto and exact, each 1 USDC on Base.
  'apify-upto-and-exact-x402-over-mcp': {
    passed: true,
    reason: 'ok',
    status: 402,
    detail: null,
    protocols: ['x402-v2'],
    terms: { networks: ['eip155:8453'], minPriceUsd: 1 },
  },
  // The offer only in the header (re-encoded from the decoded accepts the author quotes), body {}.
  'x402uselessfacts-empty-body': {
    passed: true,
    reason: 'ok',
    status: 402,
    detail: null,
    protocols: ['x402-v2'],
    terms: { networks: ['eip155:8453'], minPriceUsd: 0.001 },
  },
  // v2 on BNB Smart Chain, USDT with 18 decimals (not a known stablecoin here: no price).
  // BSC-USD (BNB Chain's USDT, 18 decimals) via Permit2: exact 10^12 units = $0.000001.
  'bankofai-dexscreener-bsc-usdt-permit2': {
    passed: true,
    reason: 'ok',
    status: 402,
    detail: null,
    protocols: ['x402-v2'],
    terms: { networks: ['eip155:56'], minPriceUsd: 0.000001 },
  },
  // MPP challenge only (method tempo).
  'locus-rentcast-mpp-tempo-charge': {
    passed: false,
    reason: 'not_x402',
    status: 402,
    detail: 'no x402 request; challenges: mpp',
    protocols: ['mpp'],
    terms: null,
  },
  // L402 challenge only (values truncated by the source; the scheme is what counts).
  'myceliasignal-l402': {
    passed: false,
    reason: 'not_x402',
    status: 402,
    detail: 'no x402 request; challenges: l402',
    protocols: ['l402'],
    terms: null,
  },
  // SIWX: v2 header with `accepts: []` and extensions["sign-in-with-x"].
  'agonx402-siwx-auth-only': {
    passed: false,
    reason: 'no_payment_offer',
    status: 402,
    detail: 'x402 request with an empty accepts (sign-in only); challenges: x402-auth-only',
    protocols: ['x402-auth-only'],
    terms: null,
  },
};

/** The real responses of both files; throws a clear error when the realdata folder is absent. */
export function realResponses(): Real402Response[] {
  return loadReal402Responses(realdataDir());
}
