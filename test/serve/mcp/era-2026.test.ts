import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../pipeline/core/config.ts';
import { DEFAULT_BASE_URL } from '../../../site/contract/common.ts';
import { realdataDir } from '../../../pipeline/fleet/real-402.ts';
import { MCP_CACHE_TTL_MS, MCP_ERR, MCP_SERVER_NAME, TOOLS, decodeHeaderValue } from '../../../serve/mcp/index.ts';
import { startServer, type RunningServer } from '../../../serve/server.ts';
import { Stats } from '../../../site/contract/index.ts';
import { MCP_SERVER_TITLE, MCP_SERVER_VERSION } from '../../../site/discovery/index.ts';
import { makeContext, tempDir, testClock } from '../../helpers/context.ts';
import { realdataGate } from '../../helpers/realdata-gate.ts';
import { writeGeneration } from '../fixture.ts';

/**
 * /mcp for clients of the stateless revision 2026-07-28 (raw fetch: no SDK line we use speaks it),
 * next to the SDK's own 2025-11-25 client, both on a real server on 127.0.0.1, port 0.
 */
const NOW = '2026-11-27T12:00:00.000Z';
const V2026 = '2026-07-28';

let server: RunningServer;
let cleanup: () => void;

beforeAll(async () => {
  const t = tempDir('atlas-mcp2026-');
  cleanup = t.cleanup;
  writeGeneration(join(t.dir, 'public'), {
    generation: 'g1',
    now: new Date(NOW),
    services: [{ id: 'svc_weather', name: 'Weather', tags: ['weather'] }],
  });
  const base = defaultConfig();
  const ctx = makeContext(t.dir, {
    clock: testClock(NOW),
    config: { serve: { ...base.serve, rateLimits: { ...base.serve.rateLimits, anonymousPerMinute: 100_000, keyedPerMinute: 100_000 } } },
  });
  server = await startServer(ctx, { port: 0, host: '127.0.0.1', watchIntervalMs: 60_000 });
});

afterAll(async () => {
  try {
    await server?.close();
  } finally {
    cleanup?.();
  }
});

const meta = {
  'io.modelcontextprotocol/protocolVersion': V2026,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface RpcAnswer {
  status: number;
  body: { jsonrpc: string; id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

/** One 2026-07-28 POST: the headers are exactly the ones given (no client library adds any). */
async function post(body: unknown, headers: Record<string, string>): Promise<RpcAnswer> {
  const res = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as RpcAnswer['body'] };
}

/** A well-formed 2026-07-28 request: headers mirror the body. */
function rpc(id: string | number, method: string, params: Record<string, unknown> = {}): [unknown, Record<string, string>] {
  const headers: Record<string, string> = { 'MCP-Protocol-Version': V2026, 'Mcp-Method': method };
  if (method === 'tools/call') headers['Mcp-Name'] = String(params.name);
  return [{ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }, headers];
}

const identity = { name: MCP_SERVER_NAME, title: MCP_SERVER_TITLE, version: MCP_SERVER_VERSION };

describe('/mcp for 2026-07-28 clients (stateless, no initialize)', () => {
  it('answers server/discover with both versions, the tools capability and the server identity', async () => {
    const a = await post(...rpc('discover-1', 'server/discover'));
    expect(a.status).toBe(200);
    expect(a.body.id).toBe('discover-1');
    const r = a.body.result ?? {};
    expect(r.resultType).toBe('complete');
    const versions = r.supportedVersions as string[];
    expect(versions[0]).toBe(V2026);
    expect(versions).toContain('2025-11-25');
    expect(r.capabilities).toEqual({ tools: {} });
    expect((r._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo']).toEqual(identity);
    expect(String(r.instructions).endsWith(`${DEFAULT_BASE_URL}/llms.txt`)).toBe(true);
    expect([r.ttlMs, r.cacheScope]).toEqual([MCP_CACHE_TTL_MS, 'public']);
  });

  it('lists every tool without a prior initialize', async () => {
    const a = await post(...rpc(7, 'tools/list'));
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const r = a.body.result ?? {};
    expect(r.resultType).toBe('complete');
    const tools = r.tools as { name: string; inputSchema: { type: string }; outputSchema?: unknown }[];
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    for (const t of tools) expect(t.inputSchema.type).toBe('object');
    expect([r.ttlMs, r.cacheScope]).toEqual([MCP_CACHE_TTL_MS, 'public']);
    expect((r._meta as Record<string, unknown>)['io.modelcontextprotocol/serverInfo']).toEqual(identity);
  });

  it('calls a tool and returns the same body as the HTTP API', async () => {
    const a = await post(...rpc('call-1', 'tools/call', { name: 'get_stats', arguments: {} }));
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const r = a.body.result as unknown as CallToolResult & { resultType: string };
    expect(r.resultType).toBe('complete');
    expect(r.isError).toBeFalsy();
    const http = await (await fetch(`${server.url}/api/v1/stats`)).json();
    expect(Stats.parse(r.structuredContent)).toEqual(Stats.parse(http));
  });

  it('accepts an Mcp-Name in the base64 sentinel form and header names in any case', async () => {
    const [body] = rpc('call-2', 'tools/call', { name: 'get_health', arguments: {} });
    const a = await post(body, {
      'mcp-protocol-version': V2026,
      'MCP-METHOD': 'tools/call',
      'mcp-name': `=?base64?${Buffer.from('get_health').toString('base64')}?=`,
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect((a.body.result as { isError?: boolean }).isError).toBeFalsy();
  });

  it('refuses a missing Mcp-Method with 400 and HeaderMismatch (-32020), before running anything', async () => {
    const [body] = rpc(3, 'tools/list');
    const a = await post(body, { 'MCP-Protocol-Version': V2026 });
    expect(a.status).toBe(400);
    expect(a.body.error?.code).toBe(-32020);
    expect(a.body.id).toBe(3);
    expect(a.body.result).toBeUndefined();
  });

  it('refuses a missing Mcp-Name on tools/call with -32020', async () => {
    const [body, headers] = rpc(4, 'tools/call', { name: 'get_stats', arguments: {} });
    const { 'Mcp-Name': _, ...without } = headers;
    const a = await post(body, without);
    expect(a.status).toBe(400);
    expect(a.body.error?.code).toBe(-32020);
  });

  it('refuses a method or name header that disagrees with the body with -32020', async () => {
    const [listBody] = rpc(5, 'tools/list');
    const m = await post(listBody, { 'MCP-Protocol-Version': V2026, 'Mcp-Method': 'tools/call' });
    expect(m.status).toBe(400);
    expect(m.body.error?.code).toBe(-32020);
    expect(m.body.error?.message).toContain("'tools/call'");

    const [callBody, headers] = rpc(6, 'tools/call', { name: 'create_key', arguments: {} });
    const n = await post(callBody, { ...headers, 'Mcp-Name': 'get_stats' });
    expect(n.status).toBe(400);
    expect(n.body.error).toMatchObject({ code: -32020 });
    expect(n.body.error?.message).toBe("Header mismatch: Mcp-Name header value 'get_stats' does not match body value 'create_key'");

    const [vBody, vHeaders] = rpc(8, 'tools/list');
    (vBody as { params: { _meta: Record<string, unknown> } }).params._meta = { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' };
    const v = await post(vBody, vHeaders);
    expect(v.status).toBe(400);
    expect(v.body.error?.code).toBe(-32020);
  });

  it('answers an unimplemented method with 404 and -32601, and initialize is not a 2026-07-28 method', async () => {
    for (const method of ['resources/list', 'initialize']) {
      const a = await post(...rpc(`m-${method}`, method));
      expect(a.status).toBe(404);
      expect(a.body.error?.code).toBe(MCP_ERR.methodNotFound);
    }
  });

  it('refuses an unknown protocol version with -32022 listing the supported versions', async () => {
    const [body] = rpc(9, 'tools/list');
    const a = await post(body, { 'MCP-Protocol-Version': '1900-01-01', 'Mcp-Method': 'tools/list' });
    expect(a.status).toBe(400);
    expect(a.body.error?.code).toBe(-32022);
    expect(a.body.id).toBe(9);
    expect(a.body.error?.data).toMatchObject({ requested: '1900-01-01' });
    expect(((a.body.error?.data ?? {}) as { supported?: string[] }).supported).toEqual(expect.arrayContaining([V2026, '2025-11-25']));
  });

  it('answers GET and DELETE with 405 for a 2026-07-28 client, and accepts a notification with 202', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/mcp`, { method, headers: { 'MCP-Protocol-Version': V2026 } });
      expect(res.status).toBe(405);
      await res.body?.cancel();
    }
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'MCP-Protocol-Version': V2026, 'Mcp-Method': 'notifications/cancelled' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    });
    expect(res.status).toBe(202);
    await res.body?.cancel();
  });

  it('refuses an oversized body with 413', async () => {
    const [body, headers] = rpc(10, 'tools/list', { pad: 'x'.repeat(100_000) });
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(413);
    await res.body?.cancel();
  });
});

describe('/mcp for 2025-11-25 clients (the SDK client, unchanged path)', () => {
  it('initializes, negotiates 2025-11-25, lists and calls tools', async () => {
    const client = new Client({ name: 'atlas-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`));
    await client.connect(transport);
    try {
      expect(transport.protocolVersion).toBe('2025-11-25');
      expect(client.getServerVersion()).toMatchObject(identity);
      const { tools } = await client.listTools();
      expect(tools.length).toBe(TOOLS.length);
      const r = (await client.callTool({ name: 'get_stats', arguments: {} })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect(Stats.safeParse(r.structuredContent).success).toBe(true);
      // 2025-era results carry no 2026-07-28 envelope.
      expect((r as Record<string, unknown>).resultType).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe('header value encoding', () => {
  it('decodes the base64 sentinel and refuses a malformed one', () => {
    expect(decodeHeaderValue('get_weather')).toBe('get_weather');
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(decodeHeaderValue('=?base64?not base64!?=')).toBeNull();
  });
});

/**
 * The answers checked against the protocol's own published JSON schema of 2026-07-28 (shared real
 * data, third-party, not committed): what a strict client of that revision would accept.
 */
const SCHEMA_FILE = 'mcp-protocol/schema-2026-07-28.json';
const gate = realdataGate('/mcp answers against the 2026-07-28 JSON schema (test/serve/mcp/era-2026.test.ts)', [SCHEMA_FILE]);

describe.skipIf(!gate.present)('/mcp 2026-07-28 answers against the published schema', () => {
  const validate = (def: string, value: unknown): string => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema(JSON.parse(readFileSync(join(realdataDir(), SCHEMA_FILE), 'utf8')), 'mcp');
    const check = ajv.getSchema(`mcp#/$defs/${def}`);
    if (!check) throw new Error(`no ${def} in the schema`);
    return check(value) ? '' : ajv.errorsText(check.errors);
  };

  it('server/discover, tools/list and tools/call results validate', async () => {
    const d = await post(...rpc('d', 'server/discover'));
    expect(validate('DiscoverResultResponse', d.body)).toBe('');
    const l = await post(...rpc('l', 'tools/list'));
    expect(validate('ListToolsResult', l.body.result)).toBe('');
    const c = await post(...rpc('c', 'tools/call', { name: 'get_stats', arguments: {} }));
    expect(validate('CallToolResult', c.body.result)).toBe('');
  });

  it('the header mismatch and unsupported version errors validate', async () => {
    const [body] = rpc(1, 'tools/list');
    const m = await post(body, { 'MCP-Protocol-Version': V2026 });
    expect(validate('HeaderMismatchError', m.body)).toBe('');
    const u = await post(body, { 'MCP-Protocol-Version': '1900-01-01', 'Mcp-Method': 'tools/list' });
    expect(validate('UnsupportedProtocolVersionError', u.body)).toBe('');
  });

  it('a schema check that can fail: a result without resultType is refused', () => {
    expect(validate('DiscoverResult', { supportedVersions: [V2026], capabilities: {} })).not.toBe('');
  });
});
