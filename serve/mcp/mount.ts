import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { publicBaseUrl } from '../../pipeline/core/config.ts';
import { MCP_SERVER_TITLE, MCP_SERVER_VERSION, mcpInstructions } from '../../site/discovery/index.ts';
import { clientAddress } from '../auth/address.ts';
import { keyFromHeaders } from '../auth/keys.ts';
import type { AppDeps } from '../deps.ts';
import {
  MCP_SDK_VERSION,
  MCP_STATELESS_VERSION,
  MCP_SUPPORTED_VERSIONS,
  adaptSdkAnswer,
  decide2026,
  requestIdOf,
  unsupportedVersion,
} from './era-2026.ts';
import { MCP_SERVER_NAME, buildMcpServer } from './server.ts';

export const MCP_PATH = '/mcp';
/** MCP messages are small; a cap well above any tool call, far below the SDK's 4 MiB default. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/**
 * The MCP endpoint (CONTRACTS.md "Server"): Streamable HTTP, stateless. Each request gets a fresh
 * McpServer and transport (no session id, JSON responses instead of SSE), so concurrent clients share
 * nothing and any replica can answer any request. The API key and client address are read from this
 * HTTP request, exactly as the HTTP routes read them. Requests carrying `MCP-Protocol-Version:
 * 2026-07-28` go through the stateless-revision layer (era-2026.ts); any other supported version, or
 * none, takes the SDK path as before; an unknown version is refused with the supported list.
 */
export function mountMcp(app: Hono, deps: AppDeps): void {
  // Stateless: no standalone server-to-client stream (GET) and no session to end (DELETE). The
  // Streamable HTTP spec answers those with 405; clients then use POST only. The 2026-07-28 revision
  // has no GET stream at all and asks for the same 405, so one answer serves every version.
  app.on(['GET', 'DELETE'], MCP_PATH, (c) =>
    c.json(
      {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST' },
        id: null,
      },
      405,
      {
        Allow: 'POST',
      },
    ),
  );
  app.post(MCP_PATH, async (c) => {
    // Header names are case-insensitive; the version value is compared exactly.
    const version = c.req.header('mcp-protocol-version');
    if (version === MCP_STATELESS_VERSION) return answer2026(c, deps);
    if (version !== undefined && !MCP_SUPPORTED_VERSIONS.includes(version)) {
      const u = unsupportedVersion(version, requestIdOf((await readCapped(c.req.raw, MCP_MAX_BODY_BYTES)) ?? ''));
      return c.json(u.body, u.status as ContentfulStatusCode);
    }
    return answerWithSdk(c, deps, c.req.raw);
  });
}

/** One request through a fresh SDK server and transport (the 2025-era path, unchanged). */
async function answerWithSdk(c: Context, deps: AppDeps, request: Request): Promise<Response> {
  const server = buildMcpServer(deps, {
    key: keyFromHeaders((n) => c.req.header(n)),
    address: clientAddress(c, deps.config.serve.trustProxy),
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request);
  } finally {
    // The JSON response is complete once handleRequest resolves; release the per-request pair.
    await server.close().catch(() => undefined);
  }
}

/** The body as text, or null when it is larger than the endpoint's cap (read no further than that). */
async function readCapped(req: Request, cap: number): Promise<string | null> {
  const declared = Number(req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > cap) return null;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A 2026-07-28 request (era-2026.ts): the headers are checked against the body, `server/discover` is
 * answered here, and the tool methods run on the same SDK server as the 2025-era path, handed over as
 * a 2025-11-25 request (the SDK line we use knows no newer version; tools/list and tools/call need no
 * initialize on a stateless server) and their answers rewritten for the newer revision.
 */
async function answer2026(c: Context, deps: AppDeps): Promise<Response> {
  const text = await readCapped(c.req.raw, MCP_MAX_BODY_BYTES);
  if (text === null) {
    return c.json(
      { jsonrpc: '2.0', id: null, error: { code: -32000, message: `Payload too large: at most ${MCP_MAX_BODY_BYTES} bytes` } },
      413,
    );
  }
  const identity = { name: MCP_SERVER_NAME, title: MCP_SERVER_TITLE, version: MCP_SERVER_VERSION };
  const d = decide2026(text, (n) => c.req.header(n), identity, mcpInstructions(publicBaseUrl(deps.config)));
  if (d.kind === 'accepted') return c.body(null, 202);
  if (d.kind === 'answer') return c.json(d.body, d.status as ContentfulStatusCode);
  const forwarded = new Request(c.req.raw.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': MCP_SDK_VERSION },
    body: JSON.stringify(d.message),
  });
  const res = await answerWithSdk(c, deps, forwarded);
  const raw: unknown = await res.json().catch(() => null);
  const adapted = adaptSdkAnswer(d.message.method, res.status, raw, identity);
  return c.json(adapted.body, adapted.status as ContentfulStatusCode);
}
