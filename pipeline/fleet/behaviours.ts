import type { Expected, ExpectedReason, HttpMethod } from './types.ts';
import { isReal402Behaviour, real402Expected, real402Id, type Real402Behaviour } from './real-402.ts';
import { isRealMcpBehaviour, realMcpExpected, realMcpId, type RealMcpBehaviour } from './real-mcp.ts';
import { isSignedOfferBehaviour, type SignedOfferBehaviour } from './signed-offers.ts';
import { isSignedReceiptBehaviour, type SignedReceiptBehaviour } from './signed-receipts.ts';
import { inOutage, type Timeline } from './timeline.ts';

/**
 * The catalogue of behaviours. Each entry states what the endpoint does and the verdict a
 * DISCOVERED-service probe must record (x402-mainnet/2 for x402, mcp-reach/3 for MCP), as a pure
 * function of the time. The handlers in respond-*.ts implement exactly these descriptions.
 */
export const X402_BEHAVIOURS = [
  'x402-v2', // 402 + PAYMENT-REQUIRED (v2, Base USDC), body {}
  'x402-v2-multi', // v2 offering Base USDC, Solana USDC and Base Sepolia
  'x402-v1', // 402 + v1 JSON body, network "base"
  'x402-v1-caip2', // mislabelled the other way: v1 body whose network is CAIP-2 "eip155:8453"
  'x402-mislabelled', // v1-shaped accepts and network "base" in a body that says x402Version 2, no header
  'x402-testnet-only', // v2 offering only Base Sepolia and Solana devnet
  'x402-html-paywall', // 402 text/html paywall, no header
  'x402-invalid-base64', // 402 with a PAYMENT-REQUIRED header that is not base64
  'x402-urlsafe-base64', // valid v2 JSON encoded as URL-safe base64 without padding (the reference decoder rejects it)
  'x402-v2-cosmetic', // valid v2 whose resource has 7 tags and a 40-char serviceName (@x402/core rejects; cosmetic)
  'x402-unknown-network', // v2 offering only an unknown network id (eip155:999999): never counted as mainnet
  'x402-dollar-amount', // v1 body with maxAmountRequired "$0.01" (@x402/core accepts it; amounts must be digits)
  'x402-large-header', // valid v2 header of about 28 kB (many offers)
  'x402-post-only', // GET → 200 JSON, POST → 402 v2; listed with method POST
  'x402-wildcard', // the host answers 402 v2 on any path
  'x402-server-error', // 500
  'x402-slow', // holds the request far beyond any probe timeout
  'x402-sse-endless', // 200 text/event-stream that never ends
  'x402-redirect-metadata', // 302 → http://169.254.169.254/latest/meta-data/
  'x402-redirect-private', // 302 → http://10.0.0.1/
  'x402-price-change', // v2, amount doubles at timeline.priceChangeAt
  'x402-payto-change', // v2, payTo changes at timeline.payToChangeAt
  'x402-network-added', // v2, Polygon added at timeline.networkAddedAt
  'x402-outage', // v2, 503 inside timeline.outages
  'x402-unknown-asset', // v2 on Base with a token that is not a known stablecoin (price unknown)
  'x402-decoy-price', // v2 Base USDC asking 5,000 USDC (a decoy price ≥ $1000)
  'x402-rate-limited', // 429 with Retry-After
  'x402-reset', // the socket is destroyed without an answer
  'x402-templated', // registry lists /items/:id; the literal path answers 400
  'x402-dead', // points at a port that refuses connections
  'x402-header-only', // valid v2 offer only in an upper-case PAYMENT-REQUIRED header, body {}
  'x402-mpp-only', // 402 with two MPP challenges comma-joined in one WWW-Authenticate (Payment …, Payment …), no x402
  'x402-l402-only', // 402 with repeated WWW-Authenticate headers: LSAT … and L402 … (Lightning), no x402
  'x402-and-mpp', // valid v2 PAYMENT-REQUIRED header and an MPP challenge on the same 402
  'x402-siwx-auth-only', // v2 header whose accepts is [] plus extensions["sign-in-with-x"]: sign-in only, no offer
] as const;

export const MCP_BEHAVIOURS = [
  'mcp-streamable', // @modelcontextprotocol/sdk StreamableHTTPServerTransport: plain GET → 406
  'mcp-2026', // no GET stream: GET → 405 with Allow: POST; POST speaks 2025-11-25 MCP (SDK), i.e. a server of both eras
  'mcp-legacy-sse', // SDK SSEServerTransport: GET → 200 text/event-stream that never ends
  'mcp-auth', // 401 with WWW-Authenticate: Bearer resource_metadata=...
  'mcp-forbidden', // 403
  'mcp-website', // a plain website: 200 HTML (passes mcp-reach/3 by rule)
  'mcp-not-found', // 404
  'mcp-server-error', // 500
  'mcp-redirect', // 301 → http://127.0.0.1:1/mcp
  'mcp-rate-limited', // 429
  'mcp-outage', // SDK streamable (406), 503 inside timeline.outages
  'mcp-template', // remote URL with a {tenant} placeholder that has a default → filled URL, SDK 406
  'mcp-template-unfilled', // remote URL with a {region} placeholder without default → literal URL → 404
  'mcp-slow', // holds the request far beyond any probe timeout
  'mcp-dead', // refuses connections
  'mcp-2026-only', // 2026-07-28 only: POST without matching MCP-Protocol-Version/Mcp-Method → 400 -32020; server/discover; GET/DELETE → 405
  'mcp-auth-no-scheme', // 401 with no WWW-Authenticate at all
  'mcp-paid-x402', // paid server: 402 with an x402 v2 PAYMENT-REQUIRED header (Base USDC) and the request as the JSON body
  'mcp-paid-mpp', // paid server: 402 with an MPP challenge (WWW-Authenticate: Payment …), no x402
  'mcp-protocol-error', // HTTP fine, MCP broken: every POST → 200 with JSON-RPC -32603; GET → 405 (a census `protocol_error`)
] as const;

export type X402Behaviour = (typeof X402_BEHAVIOURS)[number];
export type McpBehaviour = (typeof MCP_BEHAVIOURS)[number];
/**
 * `real-402:<id>`: a real 402 response loaded at run time (real-402.ts); only with `real402` fleet options.
 * `real-mcp:<id>`: a real MCP server's captured answers (real-mcp.ts); only with `realMcp`.
 * `signed-offer:<case>`: a seller whose 402 carries a signed offer (signed-offers.ts); only with `signedOffers`.
 * `signed-receipt:<case>`: a seller that answers a paid call with a signed receipt (signed-receipts.ts); only with `signedReceipts`.
 */
export type BehaviourName =
  | X402Behaviour
  | McpBehaviour
  | Real402Behaviour
  | RealMcpBehaviour
  | SignedOfferBehaviour
  | SignedReceiptBehaviour;

export const isMcpBehaviour = (b: string): b is McpBehaviour => (MCP_BEHAVIOURS as readonly string[]).includes(b);

const v = (passed: boolean, reason: ExpectedReason, status: number | null): Expected => ({ passed, reason, status });
const OK402 = v(true, 'ok', 402);
const TIMEOUT = v(false, 'timeout', null);

/** Method a registry lists for the behaviour (and that the probe must use). */
export function behaviourMethod(b: BehaviourName): HttpMethod {
  return b === 'x402-post-only' ? 'POST' : 'GET';
}

/**
 * The discovered-probe verdict of a behaviour at time `at`. `hangs` (generated endpoints under
 * `latency.hangShare`) overrides everything: no answer within the timeout.
 */
export function expectedVerdict(b: BehaviourName, at: Date, tl: Timeline, hangs = false): Expected {
  if (hangs) return TIMEOUT;
  if (isReal402Behaviour(b)) return real402Expected(real402Id(b));
  if (isRealMcpBehaviour(b)) return realMcpExpected(realMcpId(b));
  // A signing seller is a valid Base USDC v2 seller: the signature never decides the verdict.
  if (isSignedOfferBehaviour(b)) return OK402;
  // A receipt seller's unpaid answer is a valid Base USDC v2 402 (the receipt comes only with a paid call).
  if (isSignedReceiptBehaviour(b)) return OK402;
  switch (b) {
    case 'x402-v2':
    case 'x402-v2-multi':
    case 'x402-v1':
    case 'x402-v1-caip2':
    case 'x402-large-header':
    case 'x402-post-only':
    case 'x402-wildcard':
    case 'x402-price-change':
    case 'x402-payto-change':
    case 'x402-network-added':
    case 'x402-unknown-asset':
    case 'x402-decoy-price':
    case 'x402-v2-cosmetic':
    case 'x402-header-only':
    case 'x402-and-mpp':
      return OK402;
    case 'x402-outage':
      return inOutage(tl, at) ? v(false, 'not_402', 503) : OK402;
    case 'x402-mislabelled':
    case 'x402-html-paywall':
    case 'x402-invalid-base64':
    case 'x402-urlsafe-base64':
    case 'x402-dollar-amount':
      return v(false, 'invalid_payment_request', 402);
    case 'x402-unknown-network':
      return v(false, 'unknown_network', 402);
    case 'x402-mpp-only':
    case 'x402-l402-only':
      return v(false, 'not_x402', 402);
    case 'x402-siwx-auth-only':
      return v(false, 'no_payment_offer', 402);
    case 'x402-testnet-only':
      return v(false, 'testnet_only', 402);
    case 'x402-server-error':
      return v(false, 'not_402', 500);
    case 'x402-sse-endless':
      return v(false, 'not_402', 200);
    case 'x402-templated':
      return v(false, 'not_402', 400);
    case 'x402-redirect-metadata':
    case 'x402-redirect-private':
      return v(false, 'redirect', 302);
    case 'x402-rate-limited':
    case 'mcp-rate-limited':
      return v(false, 'rate_limited', 429);
    case 'x402-reset':
      return v(false, 'reset', null);
    case 'x402-slow':
    case 'mcp-slow':
      return TIMEOUT;
    case 'x402-dead':
    case 'mcp-dead':
      return v(false, 'refused', null);
    case 'mcp-streamable':
    case 'mcp-template':
      return v(true, 'ok', 406);
    case 'mcp-outage':
      return inOutage(tl, at) ? v(false, 'status_not_allowed', 503) : v(true, 'ok', 406);
    case 'mcp-2026':
    case 'mcp-2026-only':
    case 'mcp-protocol-error':
      return v(true, 'ok', 405);
    case 'mcp-paid-x402':
    case 'mcp-paid-mpp':
      return v(false, 'status_not_allowed', 402);
    case 'mcp-legacy-sse':
    case 'mcp-website':
      return v(true, 'ok', 200);
    case 'mcp-auth':
    case 'mcp-auth-no-scheme':
      return v(true, 'ok', 401);
    case 'mcp-forbidden':
      return v(true, 'ok', 403);
    case 'mcp-not-found':
    case 'mcp-template-unfilled':
      return v(false, 'status_not_allowed', 404);
    case 'mcp-server-error':
      return v(false, 'status_not_allowed', 500);
    case 'mcp-redirect':
      return v(false, 'redirect', 301);
  }
}
