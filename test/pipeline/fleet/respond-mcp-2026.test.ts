import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetAgent, startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { HEADER_MISMATCH, MCP_2026_VERSION, UNSUPPORTED_VERSION } from '../../../pipeline/fleet/respond-mcp-2026.ts';
import { classify402 } from '../../../pipeline/x402/classify-402.ts';
import { readPaymentRequest } from '../../../pipeline/x402/payment-request.ts';
import { testClock } from '../../helpers/context.ts';
import { hit } from './hit.ts';

/**
 * The fleet's MCP servers of the 2026 eras (docs/notes/mcp-eras.md): a 2026-07-28-only server that
 * refuses requests without the revision's headers, auth walls with and without a scheme, and paid
 * servers answering HTTP 402; each is listed in the fleet's MCP registry.
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

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const r = await request(url, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const codeOf = (r: { json: Record<string, unknown> | null }): number | undefined => (r.json?.error as { code?: number } | undefined)?.code;

const DISCOVER = {
  jsonrpc: '2.0',
  id: 'discover-1',
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MCP_2026_VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'ExampleClient', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
};
const H2026 = (method: string, extra: Record<string, string> = {}) => ({
  'mcp-protocol-version': MCP_2026_VERSION,
  'mcp-method': method,
  ...extra,
});
const INITIALIZE_2025 = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};

describe('mcp-2026-only: a server of the 2026-07-28 revision only', () => {
  it('answers server/discover with its versions, capabilities and identity', async () => {
    const r = await post(ep('mcp-2026-only').url, DISCOVER, H2026('server/discover'));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      id: 'discover-1',
      result: {
        resultType: 'complete',
        supportedVersions: [MCP_2026_VERSION],
        capabilities: { tools: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'io.fleet/mcp-2026-only', version: '1.0.0' } },
        ttlMs: 3_600_000,
        cacheScope: 'public',
      },
    });
  });

  it("refuses a 2025 client's initialize (no MCP-Protocol-Version / Mcp-Method) with 400 and -32020", async () => {
    const r = await post(ep('mcp-2026-only').url, INITIALIZE_2025);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: 0, error: { code: HEADER_MISMATCH } });
    // with only one of the two headers, still refused
    const one = await post(ep('mcp-2026-only').url, DISCOVER, { 'mcp-protocol-version': MCP_2026_VERSION });
    expect(one.status).toBe(400);
    expect(codeOf(one)).toBe(HEADER_MISMATCH);
  });

  it('refuses headers that disagree with the body: method, protocol version, tool name', async () => {
    const url = ep('mcp-2026-only').url;
    for (const [body, headers] of [
      [DISCOVER, H2026('tools/list')],
      [DISCOVER, { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'server/discover' }],
      [
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
        H2026('tools/call', { 'mcp-name': 'other' }),
      ],
      [{ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, H2026('tools/call')],
    ] as const) {
      const r = await post(url, body, headers);
      expect(r.status, JSON.stringify(headers)).toBe(400);
      expect(codeOf(r), JSON.stringify(headers)).toBe(HEADER_MISMATCH);
    }
  });

  it('an unsupported version (headers consistent) gets 400 with -32022 and the supported list', async () => {
    const r = await post(
      ep('mcp-2026-only').url,
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      {
        'mcp-protocol-version': '2025-11-25',
        'mcp-method': 'tools/list',
      },
    );
    expect(r.status).toBe(400);
    expect(r.json?.error).toMatchObject({ code: UNSUPPORTED_VERSION, data: { supported: [MCP_2026_VERSION], requested: '2025-11-25' } });
  });

  it('lists and calls the echo tool with the headers; unknown methods are 404 -32601', async () => {
    const url = ep('mcp-2026-only').url;
    const list = await post(url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, H2026('tools/list'));
    expect((list.json?.result as { tools?: Array<{ name: string }> } | undefined)?.tools?.map((t) => t.name)).toEqual(['echo']);
    const call = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      H2026('tools/call', { 'mcp-name': 'echo' }),
    );
    expect(call.json?.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'hi' }], isError: false });
    const unknown = await post(url, { jsonrpc: '2.0', id: 3, method: 'initialize' }, H2026('initialize'));
    expect(unknown.status).toBe(404);
    expect(codeOf(unknown)).toBe(-32601);
  });

  it('GET and DELETE are 405 with Allow: POST (no GET stream, no session)', async () => {
    const g = await hit(agent, ep('mcp-2026-only').url);
    expect(g.status).toBe(405);
    expect(g.headers.allow).toBe('POST');
    const d = await request(ep('mcp-2026-only').url, { method: 'DELETE', dispatcher: agent });
    await d.body.text();
    expect(d.statusCode).toBe(405);
  });
});

describe('the 2025-11-25 era and the servers of both eras', () => {
  it('mcp-streamable (tools-mcp, SDK 1.32) negotiates 2025-11-25 on initialize; its plain GET is 406', async () => {
    const r = await post(ep('tools-mcp').url, INITIALIZE_2025);
    expect(r.status).toBe(200);
    expect(r.json?.result).toMatchObject({ protocolVersion: '2025-11-25' });
    expect((await hit(agent, ep('tools-mcp').url)).status).toBe(406);
  });

  it('mcp-2026 (no GET stream) still answers a 2025 initialize over POST', async () => {
    const r = await post(ep('mcp-2026').url, INITIALIZE_2025);
    expect(r.json?.result).toMatchObject({ protocolVersion: '2025-11-25' });
  });

  it('legacy SSE: POST to the stream URL is 405 (messages go to the endpoint the stream names)', async () => {
    const r = await request(ep('mcp-legacy-sse').url, { method: 'POST', dispatcher: agent, body: JSON.stringify(INITIALIZE_2025) });
    await r.body.text();
    expect(r.statusCode).toBe(405);
  });
});

describe('auth walls and paid MCP servers', () => {
  it('mcp-auth-no-scheme: 401 without any WWW-Authenticate', async () => {
    const h = await hit(agent, ep('mcp-auth-no-scheme').url);
    expect(h.status).toBe(401);
    expect(h.headers['www-authenticate']).toBeUndefined();
  });

  it('mcp-paid-x402: 402 carrying a valid x402 v2 request (header and body) on a mainnet', async () => {
    const h = await hit(agent, ep('mcp-paid-x402').url);
    expect(h.status).toBe(402);
    const r = { status: 402, headers: h.headers, body: h.body };
    expect(classify402(r).challenges).toEqual(['x402-v2']);
    const read = readPaymentRequest(h.headers, Buffer.from(h.body));
    expect(read.kind).toBe('valid');
    expect(JSON.parse(h.body)).toMatchObject({ x402Version: 2, accepts: [{ network: 'eip155:8453' }] });
  });

  it('mcp-paid-mpp: 402 carrying an MPP challenge only', async () => {
    const h = await hit(agent, ep('mcp-paid-mpp').url);
    expect(h.status).toBe(402);
    expect(h.headers['www-authenticate']).toMatch(/^Payment /);
    expect(classify402({ status: 402, headers: h.headers, body: h.body }).challenges).toEqual(['mpp']);
  });

  it('every new MCP server is listed in the fleet MCP registry', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const u = new URL(fleet.mcpRegistryUrl);
      u.searchParams.set('limit', '100');
      if (cursor) u.searchParams.set('cursor', cursor);
      const page = JSON.parse((await hit(agent, u.toString())).body) as {
        servers: Array<{ server: { name: string; remotes: Array<{ url: string }> } }>;
        metadata: { nextCursor?: string };
      };
      for (const s of page.servers) names.push(`${s.server.name} ${s.server.remotes.map((r) => r.url).join(' ')}`);
      cursor = page.metadata.nextCursor;
    } while (cursor);
    for (const b of ['mcp-2026-only', 'mcp-auth-no-scheme', 'mcp-paid-x402', 'mcp-paid-mpp']) {
      expect(names).toContain(`io.fleet/${b} ${ep(b).url}`);
    }
  });
});
