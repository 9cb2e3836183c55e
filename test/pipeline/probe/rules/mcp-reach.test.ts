import { describe, expect, it } from 'vitest';
import { LastCheck } from '../../../../site/contract/evidence.ts';
import { buildRequest, judge, mcpReachRule, type DueOperation, type EdgeResult } from '../../../../pipeline/probe/index.ts';

/**
 * mcp-reach/3 on the plain GET each MCP era answers (docs/notes/mcp-eras.md), and what the check
 * records beside the verdict: the 401's auth schemes and a paid server's 402 protocols. The rule is
 * the published one (docs/design.md, pass rules), unchanged: these rows pin its outcome per era.
 */
const res = (status: number, headers: Record<string, string> = {}, body: string | null = null): EdgeResult => ({
  ok: true,
  status,
  headers,
  body: body === null ? null : Buffer.from(body),
  bytes: body?.length ?? 0,
  truncated: false,
  ttfbMs: 1,
  totalMs: 2,
});
const op = (passRule: DueOperation['passRule']): DueOperation => ({
  serviceId: 's',
  operation: 'primary',
  kind: 'call',
  url: 'https://mcp.example/mcp',
  method: 'GET',
  expectedStatuses: [],
  passRule,
  intervalHours: 24,
  protocol: passRule === 'mcp-reach/3' ? 'mcp' : 'x402',
  slot: new Date(0),
});
const MCP = op('mcp-reach/3');
const V2_HEADER = Buffer.from(
  JSON.stringify({
    x402Version: 2,
    resource: { url: 'https://mcp.example/mcp' },
    accepts: [
      {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '10000',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        payTo: '0xAbC0000000000000000000000000000000000001',
        maxTimeoutSeconds: 60,
      },
    ],
  }),
).toString('base64');
const RPC_405 = '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Method not allowed"}}';

// [era, the plain GET's answer (Accept: application/json, no credentials), passed, reason, auth_schemes, protocols]
const ERAS: Array<[string, EdgeResult, boolean, string, string[] | null, string[] | null]> = [
  ['2026-07-28 only: GET is 405', res(405, { allow: 'POST', 'content-type': 'application/json' }, RPC_405), true, 'ok', null, null],
  [
    '2025-11-25 SDK streamable: GET without text/event-stream is 406',
    res(406, { 'content-type': 'application/json' }),
    true,
    'ok',
    null,
    null,
  ],
  ['2025-11-25 server with an info document on GET (arcgate)', res(200, { 'content-type': 'application/json' }), true, 'ok', null, null],
  ['legacy HTTP+SSE: GET opens the stream', res(200, { 'content-type': 'text/event-stream' }), true, 'ok', null, null],
  ['a modern server that answers GET with 400 -32020', res(400, { 'content-type': 'application/json' }), true, 'ok', null, null],
  [
    'auth wall, OAuth: 401 Bearer with resource_metadata',
    res(401, { 'www-authenticate': 'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource"' }),
    true,
    'ok',
    ['bearer'],
    null,
  ],
  ['auth wall naming no scheme: 401 without WWW-Authenticate', res(401, { 'content-type': 'application/json' }), true, 'ok', [], null],
  ['auth wall with an empty WWW-Authenticate', res(401, { 'www-authenticate': '' }), true, 'ok', [], null],
  [
    'auth wall offering two schemes (names any case, repeated once)',
    res(401, { 'www-authenticate': 'BASIC realm="x", Bearer realm="x", error="invalid_token", basic realm="y"' }),
    true,
    'ok',
    ['basic', 'bearer'],
    null,
  ],
  ['403', res(403), true, 'ok', null, null],
  [
    'paid, x402: 402 with PAYMENT-REQUIRED',
    res(402, { 'payment-required': V2_HEADER }, '{}'),
    false,
    'status_not_allowed',
    null,
    ['x402-v2'],
  ],
  [
    'paid, x402 v1 in the body only',
    res(402, { 'content-type': 'application/json' }, JSON.stringify({ x402Version: 1, accepts: [{ scheme: 'exact' }] })),
    false,
    'status_not_allowed',
    null,
    ['x402-v1'],
  ],
  [
    'paid, MPP: 402 with WWW-Authenticate: Payment',
    res(402, { 'www-authenticate': 'Payment id="a", realm="mcp.example", method="tempo", intent="charge", request="e30"' }),
    false,
    'status_not_allowed',
    null,
    ['mpp'],
  ],
  ['paid, no protocol named', res(402), false, 'status_not_allowed', null, []],
  ['not hosted: 404', res(404), false, 'status_not_allowed', null, null],
  ['gone: 410', res(410), false, 'status_not_allowed', null, null],
  ['redirect', res(307, { location: 'https://mcp.example/login' }), false, 'redirect', null, null],
  ['rate limited', res(429), false, 'rate_limited', null, null],
  ['no answer', { ok: false, reason: 'dns', detail: 'ENOTFOUND', ttfbMs: null, totalMs: 1 }, false, 'dns', null, null],
];

describe('mcp-reach/3 per MCP era, and what the plain GET records', () => {
  it.each(ERAS)('%s', (_era, r, passed, reason, authSchemes, protocols) => {
    const j = judge(MCP, r, 'k');
    expect(j.verdict).toMatchObject({ passed, reason, rule: 'mcp-reach/3' });
    expect(j.verdict).toEqual(mcpReachRule(r)); // judge adds records, never changes the rule's verdict
    expect(j.authSchemes).toEqual(authSchemes);
    expect(j.protocols).toEqual(protocols);
    expect(j.terms).toBeNull();
  });

  it('a hostile WWW-Authenticate cannot grow the record: at most 8 schemes, none longer than 64 characters', () => {
    const many = Array.from({ length: 20 }, (_, i) => `S${i} realm="x"`).join(', ');
    expect(judge(MCP, res(401, { 'www-authenticate': many }), 'k').authSchemes).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7']);
    const long = `${'a'.repeat(65)} x=1, Bearer realm="y"`;
    expect(judge(MCP, res(401, { 'www-authenticate': long }), 'k').authSchemes).toEqual(['bearer']);
    expect(LastCheck.shape.auth_schemes.safeParse(['a'.repeat(65)]).success).toBe(false);
    expect(LastCheck.shape.auth_schemes.safeParse(Array(9).fill('bearer')).success).toBe(false);
  });

  it('auth schemes are recorded for MCP only: an x402 or reviewed check answered 401 records null', () => {
    const r = res(401, { 'www-authenticate': 'Bearer realm="x"' });
    expect(judge(op('x402-mainnet/2'), r, 'k').authSchemes).toBeNull();
    expect(judge(op('reviewed/1'), r, 'k').authSchemes).toBeNull();
    expect(judge(MCP, r, 'k').authSchemes).toEqual(['bearer']);
  });

  it("the plain GET reads a body only on 402 (to classify a paid server's answer); never a 200 stream", () => {
    const req = buildRequest(MCP, { userAgent: 'Atlas/1', contactUrl: 'https://atlas.example' });
    expect(req).toMatchObject({ method: 'GET', body: null, headers: { accept: 'application/json' } });
    expect(req.wantBody?.(402, {})).toBe(true);
    for (const s of [200, 401, 405, 406]) expect(req.wantBody?.(s, { 'content-type': 'text/event-stream' }), String(s)).toBe(false);
  });
});
