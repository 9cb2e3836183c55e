import type { IncomingMessage, ServerResponse } from 'node:http';
import type { X402Behaviour } from './behaviours.ts';
import { encodeHeader, offersAt, paymentRequiredV1, paymentRequiredV2, v1StyleOf } from './payment.ts';
import type { EndpointSpec } from './plan.ts';
import { isReal402Behaviour, real402Id } from './real-402.ts';
import { isSignedOfferBehaviour, sendSignedOffer } from './signed-offers.ts';
import { isSignedReceiptBehaviour, sendSignedReceipt } from './signed-receipts.ts';
import { FLEET_SUFFIX, urlOf, type FleetState } from './state.ts';
import { inOutage } from './timeline.ts';

/**
 * Answers of x402 endpoints. Each branch is the wire behaviour documented in behaviours.ts; the
 * payment request is rebuilt per request from (endpoint, clock()) so scripted changes show up live.
 */

const JSON_TYPE = 'application/json; charset=utf-8';

export const PRIVATE_REDIRECTS: Partial<Record<X402Behaviour, string>> = {
  'x402-redirect-metadata': 'http://169.254.169.254/latest/meta-data/',
  'x402-redirect-private': 'http://10.0.0.1/',
};

export const INVALID_BASE64_HEADER = 'eyJ4NDAyVmVyc2lvbiI6Mn0!!not*base64 ~';

const PAYWALL_HTML =
  '<!doctype html><html><head><title>Payment required</title></head><body><h1>Payment required</h1>' +
  '<p>Connect a wallet to pay $0.01 USDC for this resource.</p><script>window.x402={amount:"0.01"}</script></body></html>';

/**
 * Challenges of other payment protocols, shaped like the public formats (MPP: `Payment` with id, realm,
 * method, intent and a base64url JSON request; L402: macaroon and a Lightning invoice). Synthetic:
 * nothing in them can be paid.
 */
export const mppChallenge = (host: string, method: string, id: string): string =>
  `Payment id="${id}", realm="${host}", method="${method}", intent="charge", request="${Buffer.from(
    JSON.stringify({
      amount: '10000',
      currency: '0x20c0000000000000000000000000000000000000',
      recipient: '0x0000000000000000000000000000000000000001',
    }),
  ).toString('base64url')}"`;
const L402_CHALLENGE = 'L402 macaroon="AgEEbHNhdAJCAAAfleetfleetfleet", invoice="lnbc100n1pfleetfleetfleet"';
const LSAT_CHALLENGE = 'LSAT macaroon="AgEEbHNhdAJCAAAfleetfleetfleet", invoice="lnbc100n1pfleetfleetfleet"';

function send(res: ServerResponse, status: number, headers: Record<string, string | string[]>, body: string): void {
  res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

function sendV2(state: FleetState, spec: EndpointSpec, res: ServerResponse, url: string, now: Date): void {
  const pr = paymentRequiredV2(spec, url, offersAt(spec, now, state.timeline));
  if (spec.behaviour === 'x402-siwx-auth-only') {
    pr.accepts = [];
    pr.extensions = {
      'sign-in-with-x': {
        info: { domain: spec.host, uri: url, nonce: 'fleet', issuedAt: now.toISOString(), statement: 'Sign in to use this resource' },
        supportedChains: [{ chainId: 'eip155:8453', type: 'eip191' }],
      },
    };
  }
  let header = encodeHeader(pr, state.headerEncoding);
  if (spec.behaviour === 'x402-urlsafe-base64') header = toUrlSafe(header);
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'cache-control': 'private, no-store' };
  // Header names are case-insensitive; this one is sent in capitals on the wire.
  headers[spec.behaviour === 'x402-header-only' ? 'PAYMENT-REQUIRED' : 'payment-required'] = header;
  if (spec.behaviour === 'x402-and-mpp') headers['www-authenticate'] = mppChallenge(spec.host, 'tempo', 'fleet-mpp-1');
  send(res, 402, headers, '{}');
}

/** URL-safe alphabet, no padding; guaranteed to differ from standard base64 (a `-` or `_` is forced in). */
function toUrlSafe(b64: string): string {
  const s = b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return /[-_]/.test(s) ? s : `${s}_`;
}

/** Resource URL named in the payment request: the listed URL, or the requested one on wildcard hosts. */
function resourceUrl(state: FleetState, spec: EndpointSpec, req: IncomingMessage): string {
  return spec.catchAll ? `http://${spec.host}${FLEET_SUFFIX}:${state.port}${req.url ?? '/'}` : urlOf(state, spec);
}

/** Hold the request for `ms`, then run `fn` — unless the client went away first (timer cleared). */
export function hold(res: ServerResponse, ms: number, fn: () => void): void {
  const t = setTimeout(fn, ms);
  res.once('close', () => clearTimeout(t));
}

/** 200 text/event-stream that never ends: a comment every `intervalMs` until the client leaves. */
export function endlessSse(res: ServerResponse, intervalMs: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.write('event: ready\ndata: {}\n\n');
  let n = 0;
  const t = setInterval(() => res.write(`: tick ${n++}\n\n`), intervalMs);
  res.once('close', () => clearInterval(t));
}

/** A real 402 response (real-402.ts): the quoted status, header lines and body bytes, nothing added but framing. */
function sendReal402(state: FleetState, spec: EndpointSpec, res: ServerResponse): void {
  const id = real402Id(spec.behaviour as `real-402:${string}`);
  const r = state.real402.get(id);
  if (!r) throw new Error(`no real 402 response loaded for ${id}`);
  send(res, r.status, r.headers, r.body);
}

export function respondX402(state: FleetState, spec: EndpointSpec, req: IncomingMessage, res: ServerResponse): void {
  if (isReal402Behaviour(spec.behaviour)) {
    sendReal402(state, spec, res);
    return;
  }
  const now = state.clock();
  const url = resourceUrl(state, spec, req);
  if (isSignedOfferBehaviour(spec.behaviour)) {
    sendSignedOffer(state, spec, res, url, now).catch(() => res.destroy());
    return;
  }
  if (isSignedReceiptBehaviour(spec.behaviour)) {
    sendSignedReceipt(state, spec, req, res, url, now).catch(() => res.destroy());
    return;
  }
  const b = spec.behaviour as X402Behaviour;
  switch (b) {
    case 'x402-v1':
    case 'x402-v1-caip2':
    case 'x402-mislabelled':
    case 'x402-dollar-amount': {
      const pr = paymentRequiredV1(spec, url, offersAt(spec, now, state.timeline), v1StyleOf(spec)!);
      send(res, 402, { 'content-type': JSON_TYPE }, JSON.stringify(pr));
      return;
    }
    case 'x402-html-paywall':
      send(res, 402, { 'content-type': 'text/html; charset=utf-8' }, PAYWALL_HTML);
      return;
    case 'x402-mpp-only':
      send(
        res,
        402,
        {
          'content-type': 'application/problem+json',
          'www-authenticate': `${mppChallenge(spec.host, 'tempo', 'fleet-mpp-1')}, ${mppChallenge(spec.host, 'stripe', 'fleet-mpp-2')}`,
        },
        JSON.stringify({ type: 'about:blank', title: 'Payment Required', status: 402 }),
      );
      return;
    case 'x402-l402-only':
      // Two header lines (Node sends an array as repeated headers); the client joins them with ", ".
      send(res, 402, { 'content-type': 'text/plain', 'www-authenticate': [LSAT_CHALLENGE, L402_CHALLENGE] }, 'Payment Required');
      return;
    case 'x402-invalid-base64':
      send(res, 402, { 'content-type': JSON_TYPE, 'payment-required': INVALID_BASE64_HEADER }, '{}');
      return;
    case 'x402-post-only':
      if (req.method === 'GET' || req.method === 'HEAD') {
        send(res, 200, { 'content-type': JSON_TYPE }, JSON.stringify({ message: 'POST a JSON body to call this paid endpoint' }));
        return;
      }
      sendV2(state, spec, res, url, now);
      return;
    case 'x402-outage':
      if (inOutage(state.timeline, now)) {
        send(res, 503, { 'content-type': 'text/plain', 'retry-after': '3600' }, 'Service Unavailable');
        return;
      }
      sendV2(state, spec, res, url, now);
      return;
    case 'x402-server-error':
      send(res, 500, { 'content-type': JSON_TYPE }, JSON.stringify({ error: 'internal_error', message: 'upstream exploded' }));
      return;
    case 'x402-slow':
      hold(res, state.slowMs, () => sendV2(state, spec, res, url, state.clock()));
      return;
    case 'x402-sse-endless':
      endlessSse(res, state.sseIntervalMs);
      return;
    case 'x402-redirect-metadata':
    case 'x402-redirect-private':
      send(res, 302, { location: PRIVATE_REDIRECTS[b]!, 'content-type': 'text/plain' }, 'Found');
      return;
    case 'x402-rate-limited':
      send(res, 429, { 'content-type': JSON_TYPE, 'retry-after': '60' }, JSON.stringify({ error: 'rate_limited' }));
      return;
    case 'x402-reset':
      // RST rather than FIN, so the client sees ECONNRESET (reason `reset`), not a clean close.
      req.socket.resetAndDestroy();
      return;
    case 'x402-templated':
      send(res, 400, { 'content-type': JSON_TYPE }, JSON.stringify({ error: 'invalid_id', message: `no item ${JSON.stringify(req.url)}` }));
      return;
    case 'x402-dead':
      // Never reached through the listed URL (it points at the refusing port).
      send(res, 421, { 'content-type': 'text/plain' }, 'Misdirected Request');
      return;
    default:
      sendV2(state, spec, res, url, now);
  }
}
