import { encodePaymentRequiredHeader } from '@x402/core/http';
import { describe, expect, it } from 'vitest';
import {
  judge,
  mcpReachRule,
  reviewedRule,
  x402MainnetRule,
  type DueOperation,
  type EdgeResult,
} from '../../../../pipeline/probe/index.ts';
import { readPaymentRequest } from '../../../../pipeline/x402/payment-request.ts';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const res = (status: number, headers: Record<string, string> = {}, body: string | null = null, truncated = false): EdgeResult => ({
  ok: true,
  status,
  headers,
  body: body === null ? null : Buffer.from(body),
  bytes: body?.length ?? 0,
  truncated,
  ttfbMs: 1,
  totalMs: 2,
});
const fail = (reason: 'timeout' | 'dns' | 'refused' | 'tls' | 'reset' | 'too_large' | 'blocked_address' | 'network_error'): EdgeResult => ({
  ok: false,
  reason,
  detail: reason,
  ttfbMs: null,
  totalMs: 1,
});
const v2 = (accept: Record<string, unknown> = {}, over: Record<string, unknown> = {}) => ({
  x402Version: 2,
  resource: { url: 'https://a.example/x' },
  accepts: [
    {
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '10000',
      asset: BASE_USDC,
      payTo: '0xAbC0000000000000000000000000000000000001',
      maxTimeoutSeconds: 60,
      ...accept,
    },
  ],
  ...over,
});
const v1 = (accept: Record<string, unknown> = {}) => ({
  x402Version: 1,
  accepts: [
    {
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: '10000',
      resource: 'https://a.example/x',
      description: 'd',
      payTo: '0xabc',
      maxTimeoutSeconds: 60,
      asset: BASE_USDC,
      ...accept,
    },
  ],
});
const hdr = (o: unknown) => ({ 'payment-required': encodePaymentRequiredHeader(o as never) });
const x402 = (r: EdgeResult) => x402MainnetRule(r, r.ok && r.status === 402 ? readPaymentRequest(r.headers, r.body) : null);

describe('reviewed/1', () => {
  it('passes on an expected status, fails otherwise', () => {
    expect(reviewedRule(res(402), [402])).toEqual({ passed: true, reason: 'ok', rule: 'reviewed/1', detail: null });
    expect(reviewedRule(res(200), [200, 402])).toMatchObject({ passed: true, reason: 'ok' });
    expect(reviewedRule(res(500), [402])).toMatchObject({ passed: false, reason: 'status_not_expected', detail: 'HTTP 500, expected 402' });
    expect(reviewedRule(res(402, {}, 'x', true), [402])).toMatchObject({ passed: true, reason: 'ok' }); // the status decides alone
  });
  it('3xx is redirect and 429 rate_limited even when listed as expected; edge failures keep their reason', () => {
    expect(reviewedRule(res(301, { location: 'https://b.example/' }), [301])).toMatchObject({ passed: false, reason: 'redirect' });
    expect(reviewedRule(res(429), [429])).toMatchObject({ passed: false, reason: 'rate_limited' });
    for (const r of ['timeout', 'dns', 'refused', 'tls', 'reset', 'too_large', 'blocked_address', 'network_error'] as const) {
      expect(reviewedRule(fail(r), [402])).toMatchObject({ passed: false, reason: r, rule: 'reviewed/1' });
    }
  });
});

describe('mcp-reach/3', () => {
  it.each([200, 400, 401, 403, 405, 406])('passes on %i', (s) =>
    expect(mcpReachRule(res(s))).toMatchObject({ passed: true, reason: 'ok', rule: 'mcp-reach/3' }),
  );
  it.each([201, 204, 402, 404, 410, 500, 502, 503])('fails on %i', (s) =>
    expect(mcpReachRule(res(s))).toMatchObject({ passed: false, reason: 'status_not_allowed' }),
  );
  it('redirects, 429 and edge failures', () => {
    expect(mcpReachRule(res(307))).toMatchObject({ passed: false, reason: 'redirect' });
    expect(mcpReachRule(res(429))).toMatchObject({ passed: false, reason: 'rate_limited' });
    expect(mcpReachRule(fail('timeout'))).toMatchObject({ passed: false, reason: 'timeout' });
  });
});

describe('x402-mainnet/2', () => {
  it('passes on a v2 header offering a mainnet', () =>
    expect(x402(res(402, hdr(v2()), '{}'))).toEqual({ passed: true, reason: 'ok', rule: 'x402-mainnet/2', detail: null }));
  it('passes on a v1 body with a v1 network name', () =>
    expect(x402(res(402, {}, JSON.stringify(v1())))).toMatchObject({ passed: true, reason: 'ok' }));
  it('passes when one of several offers is mainnet', () => {
    const two = v2();
    two.accepts.push({ ...two.accepts[0]!, network: 'eip155:84532' });
    expect(x402(res(402, hdr(two)))).toMatchObject({ passed: true });
  });
  it('testnet only', () =>
    expect(x402(res(402, hdr(v2({ network: 'eip155:84532' }))))).toMatchObject({ passed: false, reason: 'testnet_only' }));
  it('v1 testnet name', () =>
    expect(x402(res(402, {}, JSON.stringify(v1({ network: 'base-sepolia' }))))).toMatchObject({ reason: 'testnet_only' }));
  it('unknown network is never mainnet', () =>
    expect(x402(res(402, hdr(v2({ network: 'eip155:999999' }))))).toMatchObject({
      passed: false,
      reason: 'unknown_network',
      detail: 'no known mainnet network: eip155:999999',
    }));
  it('a test network beside an unknown one is unknown_network, not testnet_only', () => {
    const two = v2({ network: 'eip155:999999' });
    two.accepts.push({ ...two.accepts[0]!, network: 'eip155:84532' });
    expect(x402(res(402, hdr(two)))).toMatchObject({ passed: false, reason: 'unknown_network' });
  });
  const MPP = 'Payment id="a1", realm="a.example", method="tempo", intent="charge", request="eyJhIjoxfQ"';
  it('another protocol only (MPP, L402, LSAT) is not_x402, whatever the body', () => {
    expect(x402(res(402, { 'www-authenticate': MPP }, '{}'))).toEqual({
      passed: false,
      reason: 'not_x402',
      rule: 'x402-mainnet/2',
      detail: 'no x402 request; challenges: mpp',
    });
    expect(x402(res(402, { 'www-authenticate': 'L402 macaroon="m", invoice="lnbc1"' }))).toMatchObject({ reason: 'not_x402' });
    expect(x402(res(402, { 'www-authenticate': 'LSAT macaroon="m", invoice="lnbc1"' }, 'pay'))).toMatchObject({ reason: 'not_x402' });
    // a body that hit the cap does not matter when a challenge of another protocol is in the headers
    expect(x402(res(402, { 'www-authenticate': MPP }, 'x', true))).toMatchObject({ reason: 'not_x402' });
  });
  it('a valid mainnet x402 offer passes whatever other challenges come with it', () => {
    expect(x402(res(402, { ...hdr(v2()), 'www-authenticate': `${MPP}, L402 macaroon="m", invoice="i"` }, '{}'))).toMatchObject({
      passed: true,
      reason: 'ok',
    });
  });
  it('a malformed x402 request beside an MPP challenge is invalid_payment_request (x402 was attempted)', () => {
    expect(x402(res(402, { 'payment-required': '!!', 'www-authenticate': MPP }))).toMatchObject({ reason: 'invalid_payment_request' });
  });
  it('an x402 request with an empty accepts (sign-in only) is no_payment_offer, in the header or a v1 body', () => {
    const siwx = { x402Version: 2, accepts: [], extensions: { 'sign-in-with-x': { info: { domain: 'a.example' } } } };
    expect(x402(res(402, hdr(siwx), '{}'))).toMatchObject({ passed: false, reason: 'no_payment_offer' });
    expect(x402(res(402, {}, JSON.stringify({ x402Version: 1, accepts: [] })))).toMatchObject({ reason: 'no_payment_offer' });
    // an empty accepts is not the same as a missing one: that is a malformed request
    expect(x402(res(402, {}, JSON.stringify({ x402Version: 1 })))).toMatchObject({ reason: 'invalid_payment_request' });
  });
  it('non-402 statuses', () => {
    expect(x402(res(200, hdr(v2())))).toMatchObject({ passed: false, reason: 'not_402' });
    expect(x402(res(404))).toMatchObject({ reason: 'not_402' });
    expect(x402(res(412))).toMatchObject({ reason: 'not_402' });
    expect(x402(res(302))).toMatchObject({ reason: 'redirect' });
    expect(x402(res(429))).toMatchObject({ reason: 'rate_limited' });
    expect(x402(fail('dns'))).toMatchObject({ reason: 'dns' });
  });
  it('HTML paywall without header', () =>
    expect(x402(res(402, { 'content-type': 'text/html' }, '<html>pay</html>'))).toMatchObject({ reason: 'invalid_payment_request' }));
  it('402 with an empty body', () => expect(x402(res(402))).toMatchObject({ reason: 'invalid_payment_request' }));
  it('invalid base64, URL-safe base64 and inner whitespace in the header', () => {
    expect(x402(res(402, { 'payment-required': '%%%not-base64' }))).toMatchObject({ reason: 'invalid_payment_request' });
    const json = JSON.stringify(v2({}, { resource: { url: 'https://a.example/??>>?' } }));
    const urlsafe = Buffer.from(json).toString('base64url');
    expect(urlsafe).toMatch(/[-_]/);
    expect(x402(res(402, { 'payment-required': urlsafe }))).toMatchObject({
      reason: 'invalid_payment_request',
      detail: expect.stringContaining('URL-safe'),
    });
    const std = Buffer.from(json).toString('base64');
    expect(x402(res(402, { 'payment-required': `${std.slice(0, 10)} ${std.slice(10)}` }))).toMatchObject({
      detail: expect.stringContaining('whitespace'),
    });
    expect(x402(res(402, { 'payment-required': `  ${std}  ` }))).toMatchObject({ passed: true }); // framing whitespace is not part of the value
    expect(x402(res(402, { 'payment-required': Buffer.from('not json').toString('base64') }))).toMatchObject({
      reason: 'invalid_payment_request',
    });
  });
  it('header decides even when the body holds a valid v1 request', () => {
    expect(x402(res(402, { 'payment-required': '!!' }, JSON.stringify(v1())))).toMatchObject({ reason: 'invalid_payment_request' });
  });
  it('amounts must be atomic units', () => {
    expect(x402(res(402, {}, JSON.stringify(v1({ maxAmountRequired: '$0.01' }))))).toMatchObject({
      reason: 'invalid_payment_request',
      detail: expect.stringContaining('atomic'),
    });
    expect(x402(res(402, hdr(v2({ amount: '0.01' }))))).toMatchObject({ reason: 'invalid_payment_request' });
    expect(x402(res(402, hdr(v2({ amount: '-5' }))))).toMatchObject({ reason: 'invalid_payment_request' });
  });
  it('cosmetic v2 failures do not decide (more than 5 tags, long serviceName)', () => {
    const r = x402(
      res(
        402,
        hdr(v2({}, { resource: { url: 'https://a.example/x', serviceName: 'x'.repeat(40), tags: ['a', 'b', 'c', 'd', 'e', 'f'] } })),
      ),
    );
    expect(r).toMatchObject({ passed: true, reason: 'ok', detail: expect.stringContaining('resource.serviceName') });
  });
  it('cosmetic v1 failures (missing description) do not decide', () => {
    const body = v1();
    delete (body.accepts[0] as Record<string, unknown>).description;
    expect(x402(res(402, {}, JSON.stringify(body)))).toMatchObject({ passed: true });
  });
  it('a payment-relevant schema failure still decides (missing payTo)', () => {
    const bad = v2();
    delete (bad.accepts[0] as Record<string, unknown>).payTo;
    expect(x402(res(402, hdr(bad)))).toMatchObject({ reason: 'invalid_payment_request' });
  });
  it('mislabelled versions are invalid', () => {
    expect(x402(res(402, {}, JSON.stringify({ ...v1(), x402Version: 2 })))).toMatchObject({
      reason: 'invalid_payment_request',
      detail: expect.stringContaining('without a PAYMENT-REQUIRED header'),
    });
    expect(x402(res(402, hdr({ ...v1(), x402Version: 2 })))).toMatchObject({
      reason: 'invalid_payment_request',
      detail: expect.stringContaining('mislabelled'),
    });
    expect(x402(res(402, {}, JSON.stringify(v2())))).toMatchObject({ reason: 'invalid_payment_request' });
    expect(x402(res(402, hdr({ ...v2(), x402Version: 3 })))).toMatchObject({
      reason: 'invalid_payment_request',
      detail: expect.stringContaining('unsupported'),
    });
  });
  it('a v1 request in the header is accepted (the reference client decodes any version there)', () => {
    expect(x402(res(402, hdr(v1())))).toMatchObject({ passed: true });
  });
  it('a 402 body cut at the cap with no header is too_large', () => {
    expect(x402(res(402, {}, '<html>'.repeat(100), true))).toMatchObject({ reason: 'too_large' });
    expect(x402(res(402, hdr(v2()), '<html>', true))).toMatchObject({ passed: true }); // the header decided
  });
});

describe('judge: terms for every valid request', () => {
  const op = (rule: DueOperation['passRule'], kind: DueOperation['kind'] = 'call'): DueOperation => ({
    serviceId: 's',
    operation: 'primary',
    kind,
    url: 'https://a.example/x',
    method: 'GET',
    expectedStatuses: [402],
    passRule: rule,
    intervalHours: 1,
    protocol: 'x402',
    slot: new Date(0),
  });
  it('records terms for reviewed and discovered, any verdict; never for MCP', () => {
    expect(judge(op('reviewed/1'), res(402, hdr(v2())), 'k').terms).not.toBeNull();
    expect(judge(op('x402-mainnet/2'), res(402, hdr(v2({ network: 'eip155:84532' }))), 'k')).toMatchObject({
      verdict: { reason: 'testnet_only' },
      terms: { networks: ['eip155:84532'] },
    });
    expect(judge(op('reviewed/1'), res(500), 'k').terms).toBeNull();
    expect(judge(op('mcp-reach/3'), res(402, hdr(v2())), 'k').terms).toBeNull();
    expect(judge(op('x402-mainnet/2'), res(402, { 'content-type': 'text/html' }, '<html>'), 'k').terms).toBeNull();
  });
  it('records the protocols of a 402 answer to a call, for every rule; null for other answers and documentation pages', () => {
    const both = res(402, { ...hdr(v2()), 'www-authenticate': 'Payment id="a", method="tempo"' }, '{}');
    expect(judge(op('x402-mainnet/2'), both, 'k').protocols).toEqual(['x402-v2', 'mpp']);
    expect(judge(op('reviewed/1'), both, 'k').protocols).toEqual(['x402-v2', 'mpp']);
    expect(judge(op('mcp-reach/3'), both, 'k')).toMatchObject({ protocols: ['x402-v2', 'mpp'], terms: null });
    expect(judge(op('x402-mainnet/2'), res(402, { 'content-type': 'text/html' }, '<html>'), 'k').protocols).toEqual([]);
    expect(judge(op('x402-mainnet/2'), res(200, hdr(v2())), 'k').protocols).toBeNull();
    expect(judge(op('x402-mainnet/2'), fail('timeout'), 'k').protocols).toBeNull();
    expect(judge(op('reviewed/1', 'documentation'), both, 'k').protocols).toBeNull();
  });
  it('an operation still naming the retired x402-mainnet/1 is judged by the current x402 rule', () => {
    expect(judge(op('x402-mainnet/1'), res(402, { 'www-authenticate': 'L402 macaroon="m", invoice="i"' }), 'k').verdict).toMatchObject({
      reason: 'not_x402',
      rule: 'x402-mainnet/2',
    });
  });
});

describe('header decoding matches @x402/core', () => {
  it('decodes exactly what decodePaymentRequiredHeader decodes', async () => {
    const { decodePaymentRequiredHeader } = await import('@x402/core/http');
    const { decodeHeader } = await import('../../../../pipeline/x402/payment-request.ts');
    const samples = [
      v2(),
      v1(),
      v2({}, { resource: { url: 'https://a.example/ünïcødé/✓', description: '日本語' } }),
      { x402Version: 2, accepts: [] },
    ];
    for (const s of samples) {
      const h = encodePaymentRequiredHeader(s as never);
      expect(decodeHeader(h)).toEqual({ ok: true, json: decodePaymentRequiredHeader(h) });
    }
    for (const bad of ['%%%', 'YWJj', Buffer.from('{"a":').toString('base64')]) {
      let lib: unknown = 'threw';
      try {
        lib = decodePaymentRequiredHeader(bad);
      } catch {
        /* the library throws */
      }
      const ours = decodeHeader(bad);
      expect(ours.ok ? ours.json : 'threw').toEqual(lib);
    }
  });
});
