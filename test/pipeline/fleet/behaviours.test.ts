import { decodePaymentRequiredHeader } from '@x402/core/http';
import { parsePaymentRequired } from '@x402/core/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMainnet, networkKind, usdPrice } from '../../../site/contract/networks.ts';
import { MCP_BEHAVIOURS, X402_BEHAVIOURS, fleetAgent, startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { testClock } from '../../helpers/context.ts';
import { hit } from './hit.ts';
// Network safety: runs behind the loopback-only guard (test/net/no-egress.mjs), which refuses
// non-loopback connects and fails the test, so the private and public addresses below can never be
// reached even if the code under test is broken.

/**
 * Every behaviour of the default fleet answers as documented, and its `expected` verdict agrees
 * with what a probe sees on the wire.
 */
const clock = testClock('2026-11-25T12:00:00Z');
let fleet: Fleet;
const agent = fleetAgent();

beforeAll(async () => {
  fleet = await startFleet({ clock });
});
afterAll(async () => {
  await fleet?.close();
  await agent.close();
});

const ep = (name: string) => fleet.endpoint(name);

function decodeV2(header: string | undefined) {
  expect(header, 'PAYMENT-REQUIRED header').toBeTypeOf('string');
  const raw = decodePaymentRequiredHeader(header!);
  const parsed = parsePaymentRequired(raw);
  if (!parsed.success) throw new Error(`not a valid payment request: ${parsed.error.message}`);
  return { raw: raw as unknown as Record<string, unknown>, pr: parsed.data };
}

describe('default fleet', () => {
  it('covers every behaviour at least once, on ~60 endpoints, with multi-endpoint hosts', () => {
    const seen = new Set(fleet.endpoints.map((e) => e.behaviour));
    for (const b of [...X402_BEHAVIOURS, ...MCP_BEHAVIOURS]) expect(seen.has(b), b).toBe(true);
    expect(fleet.endpoints.length).toBeGreaterThanOrEqual(55);
    expect(fleet.endpoints.length).toBeLessThanOrEqual(80);
    const perHost = new Map<string, number>();
    for (const e of fleet.endpoints) perHost.set(e.host, (perHost.get(e.host) ?? 0) + 1);
    expect([...perHost.values()].filter((n) => n >= 3).length).toBeGreaterThanOrEqual(2);
    expect(new Set(fleet.endpoints.map((e) => e.url)).size).toBe(fleet.endpoints.length);
    for (const e of fleet.endpoints) expect(fleet.endpointByUrl(e.url)).toBe(e);
    expect(fleet.resolve).toEqual({ '*.fleet.test': '127.0.0.1' });
    for (const e of fleet.endpoints) expect(new URL(e.url).hostname.endsWith('.fleet.test')).toBe(true);
  });

  it('answers every endpoint with the status (or failure) its expected verdict names', async () => {
    const results = await Promise.all(
      fleet.endpoints.map(async (e) => ({ e, h: await hit(agent, e.url, { method: e.method, timeoutMs: 5000, readBody: false }) })),
    );
    const table: string[] = [];
    for (const { e, h } of results) {
      const x = e.expected;
      table.push(`${e.name.padEnd(24)} ${String(h.status ?? h.error).padEnd(16)} ${x.passed ? 'PASS' : 'FAIL'} ${x.reason}`);
      if (x.status !== null) {
        expect(h.status, e.name).toBe(x.status);
      } else if (x.reason === 'refused') {
        expect(h.error, e.name).toBe('ECONNREFUSED');
      } else if (x.reason === 'reset') {
        expect(h.error, e.name).toBe('ECONNRESET');
      } else if (x.reason === 'timeout') {
        expect(['UND_ERR_ABORTED', 'AbortError'], e.name).toContain(h.error);
      } else {
        throw new Error(`unhandled expectation for ${e.name}`);
      }
      if (x.reason === 'ok' && e.protocol === 'mcp') expect([200, 400, 401, 403, 405, 406]).toContain(h.status);
    }
    if (process.env.FLEET_VERBOSE) console.log(`fleet verdicts (${results.length} endpoints):\n${table.join('\n')}`);
    const passing = results.filter(({ e }) => e.expected.passed).length;
    console.log(
      `fleet: ${results.length} endpoints answered as expected (${passing} expected to pass, ${results.length - passing} to fail)`,
    );
  }, 60_000);
});

describe('x402 behaviours', () => {
  it('x402-v2: 402, header encoded with @x402/core, valid v2 offering Base USDC with a computable price', async () => {
    const h = await hit(agent, ep('weather-forecast').url);
    expect(h.status).toBe(402);
    const { pr } = decodeV2(h.headers['payment-required']);
    expect(pr.x402Version).toBe(2);
    if (pr.x402Version !== 2) return;
    expect(pr.resource.url).toBe(ep('weather-forecast').url);
    const o = pr.accepts[0]!;
    expect(o.network).toBe('eip155:8453');
    expect(isMainnet(o.network)).toBe(true);
    expect(usdPrice(o.network, o.asset, o.amount)).toBeGreaterThan(0);
    expect(JSON.parse(h.body)).toEqual({});
  });

  it('x402-v2-multi offers a mainnet and a testnet; x402-testnet-only offers testnets only', async () => {
    const multi = decodeV2((await hit(agent, ep('weather-history').url)).headers['payment-required']).pr;
    const kinds = multi.accepts.map((a) => networkKind(a.network));
    expect(kinds).toContain('mainnet');
    expect(kinds).toContain('testnet');
    const t = decodeV2((await hit(agent, ep('x402-testnet-only').url)).headers['payment-required']).pr;
    expect(t.accepts.length).toBeGreaterThan(0);
    for (const a of t.accepts) expect(networkKind(a.network)).toBe('testnet');
  });

  it('x402-v1: JSON body parses as v1 with network "base"; v1-caip2 parses with a CAIP-2 network', async () => {
    const h = await hit(agent, ep('market-quote').url);
    expect(h.status).toBe(402);
    expect(h.headers['payment-required']).toBeUndefined();
    const parsed = parsePaymentRequired(JSON.parse(h.body));
    expect(parsed.success).toBe(true);
    if (!parsed.success || parsed.data.x402Version !== 1) throw new Error('expected v1');
    expect(parsed.data.accepts[0]!.network).toBe('base');
    expect(usdPrice('base', parsed.data.accepts[0]!.asset, parsed.data.accepts[0]!.maxAmountRequired)).toBeGreaterThan(0);
    const c = parsePaymentRequired(JSON.parse((await hit(agent, ep('x402-v1-caip2').url)).body));
    expect(c.success && c.data.x402Version === 1 && c.data.accepts[0]!.network).toBe('eip155:8453');
  });

  it('x402-mislabelled: x402Version 2 with v1-shaped accepts and network "base" does not parse', async () => {
    const h = await hit(agent, ep('x402-mislabelled').url);
    const body = JSON.parse(h.body);
    expect(body.x402Version).toBe(2);
    expect(body.accepts[0].network).toBe('base');
    expect(body.accepts[0].maxAmountRequired).toMatch(/^\d+$/);
    expect(h.headers['payment-required']).toBeUndefined();
    expect(parsePaymentRequired(body).success).toBe(false);
  });

  it('x402-dollar-amount: @x402/core accepts "$0.01" but the amount is not digits', async () => {
    const body = JSON.parse((await hit(agent, ep('x402-dollar-amount').url)).body);
    expect(parsePaymentRequired(body).success).toBe(true);
    expect(body.accepts[0].maxAmountRequired).toBe('$0.01');
  });

  it('x402-html-paywall: 402 HTML without a header; x402-invalid-base64: header the decoder rejects', async () => {
    const html = await hit(agent, ep('x402-html-paywall').url);
    expect(html.status).toBe(402);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.headers['payment-required']).toBeUndefined();
    const bad = await hit(agent, ep('x402-invalid-base64').url);
    expect(bad.status).toBe(402);
    expect(() => decodePaymentRequiredHeader(bad.headers['payment-required']!)).toThrow();
  });

  it('x402-urlsafe-base64: URL-safe alphabet without padding, which the reference decoder rejects', async () => {
    const h = await hit(agent, ep('x402-urlsafe-base64').url);
    const header = h.headers['payment-required']!;
    expect(header).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(header).toMatch(/[-_]/);
    expect(() => decodePaymentRequiredHeader(header)).toThrow();
    const fixed = header.replace(/-/g, '+').replace(/_/g, '/');
    expect(parsePaymentRequired(JSON.parse(Buffer.from(fixed, 'base64').toString('utf8'))).success).toBe(true);
  });

  it('x402-v2-cosmetic: @x402/core rejects it only for resource.tags/serviceName', async () => {
    const h = await hit(agent, ep('x402-v2-cosmetic').url);
    const raw = decodePaymentRequiredHeader(h.headers['payment-required']!) as unknown as Record<string, any>;
    const parsed = parsePaymentRequired(raw);
    expect(parsed.success).toBe(false);
    const paths = parsed.error!.issues.map((i) => i.path.join('.'));
    expect(paths.every((p) => p.startsWith('resource.tags') || p.startsWith('resource.serviceName'))).toBe(true);
    expect(parsePaymentRequired({ ...raw, resource: { url: raw.resource.url } }).success).toBe(true);
  });

  it('x402-unknown-network: valid schema, but the only network is unknown (never mainnet)', async () => {
    const { pr } = decodeV2((await hit(agent, ep('x402-unknown-network').url)).headers['payment-required']);
    expect(pr.accepts.map((a) => networkKind(a.network))).toEqual(['unknown']);
  });

  it('x402-large-header: a ~28 kB header that still parses (needs maxHeaderSize > 16 KiB)', async () => {
    const h = await hit(agent, ep('x402-large-header').url);
    const header = h.headers['payment-required']!;
    expect(header.length).toBeGreaterThan(27_000);
    expect(header.length).toBeLessThan(30_000);
    const { pr } = decodeV2(header);
    expect(pr.accepts.length).toBeGreaterThan(50);
    // The default undici header limit (16 KiB) overflows on it, as in the wild.
    const small = fleetAgent({ maxHeaderSize: 16 * 1024 });
    try {
      const r = await hit(small, ep('x402-large-header').url);
      expect(r.error).toBe('UND_ERR_HEADERS_OVERFLOW');
    } finally {
      await small.close();
    }
  });

  it('x402-post-only: 200 to GET, 402 to POST, listed with method POST', async () => {
    const e = ep('weather-radar');
    expect(e.method).toBe('POST');
    expect((await hit(agent, e.url, { method: 'GET' })).status).toBe(200);
    const p = await hit(agent, e.url, { method: 'POST' });
    expect(p.status).toBe(402);
    decodeV2(p.headers['payment-required']);
  });

  it('x402-wildcard: 402 on any path, naming the requested URL', async () => {
    const base = new URL(ep('x402-wildcard').url);
    const url = `${base.origin}/some/other/path?x=1`;
    const h = await hit(agent, url);
    expect(h.status).toBe(402);
    const { pr } = decodeV2(h.headers['payment-required']);
    expect(pr.x402Version === 2 && pr.resource.url).toBe(url);
  });

  it('redirects point at private addresses', async () => {
    expect((await hit(agent, ep('x402-redirect-metadata').url)).headers.location).toBe('http://169.254.169.254/latest/meta-data/');
    expect((await hit(agent, ep('x402-redirect-private').url)).headers.location).toBe('http://10.0.0.1/');
  });

  it('x402-sse-endless: 200 event stream still open after several ticks', async () => {
    const { request } = await import('undici');
    const r = await request(ep('x402-sse-endless').url, { dispatcher: agent, headers: { accept: 'application/json' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream');
    // Counted in the stream's own events, not wall time: the ready event and three keep-alive ticks
    // arrive and the stream has not ended.
    let bytes = 0;
    let ended = false;
    await new Promise<void>((resolve, reject) => {
      let text = '';
      r.body.on('data', (c: Buffer) => {
        bytes += c.length;
        text += c.toString('utf8');
        if ((text.match(/^: tick \d+$/gm) ?? []).length >= 3) resolve();
      });
      r.body.on('end', () => {
        ended = true;
        reject(new Error('the endless stream ended'));
      });
      r.body.on('error', reject);
    });
    expect(ended).toBe(false);
    expect(bytes).toBeGreaterThan(0);
    r.body.destroy();
  });

  it('unknown asset has no computable price; the decoy asks at least $1000', async () => {
    const u = decodeV2((await hit(agent, ep('search-images').url)).headers['payment-required']).pr;
    if (u.x402Version !== 2) throw new Error('v2');
    expect(isMainnet(u.accepts[0]!.network)).toBe(true);
    expect(usdPrice(u.accepts[0]!.network, u.accepts[0]!.asset, u.accepts[0]!.amount)).toBeNull();
    const d = decodeV2((await hit(agent, ep('x402-decoy-price').url)).headers['payment-required']).pr;
    if (d.x402Version !== 2) throw new Error('v2');
    expect(usdPrice(d.accepts[0]!.network, d.accepts[0]!.asset, d.accepts[0]!.amount)).toBeGreaterThanOrEqual(1000);
  });
});

describe('MCP behaviours', () => {
  it('SDK streamable server: plain GET with Accept application/json → 406 JSON-RPC error', async () => {
    const h = await hit(agent, ep('tools-mcp').url);
    expect(h.status).toBe(406);
    expect(JSON.parse(h.body).error.message).toMatch(/Not Acceptable/);
  });

  it('2026-style server: 405 with Allow: POST; auth-required: 401 with WWW-Authenticate', async () => {
    const h = await hit(agent, ep('mcp-2026').url);
    expect(h.status).toBe(405);
    expect(h.headers.allow).toBe('POST');
    const a = await hit(agent, ep('mcp-auth').url);
    expect(a.status).toBe(401);
    expect(a.headers['www-authenticate']).toMatch(/^Bearer resource_metadata=/);
  });

  it('legacy SSE server: 200 text/event-stream whose first event is the SDK endpoint event', async () => {
    const { request } = await import('undici');
    const r = await request(ep('mcp-legacy-sse').url, { dispatcher: agent, headers: { accept: 'application/json' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream');
    const first = await new Promise<string>((resolve) => r.body.once('data', (c: Buffer) => resolve(c.toString())));
    expect(first).toMatch(/^event: endpoint\ndata: \/messages\?sessionId=/);
    r.body.on('error', () => {});
    r.body.destroy();
  });

  it('a plain website answers 200 HTML; a redirect points at loopback', async () => {
    const w = await hit(agent, ep('mcp-website').url);
    expect(w.status).toBe(200);
    expect(w.headers['content-type']).toMatch(/text\/html/);
    expect((await hit(agent, ep('mcp-redirect').url)).headers.location).toBe('http://127.0.0.1:1/mcp');
  });
});
