import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Hono } from 'hono';
import { clientAddress } from '../auth/address.ts';
import { keyFromHeaders } from '../auth/keys.ts';
import type { AppDeps } from '../deps.ts';
import { buildMcpServer } from './server.ts';

export const MCP_PATH = '/mcp';
/** MCP messages are small; a cap well above any tool call, far below the SDK's 4 MiB default. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

/**
 * The MCP endpoint (CONTRACTS.md "Server"): Streamable HTTP, stateless. Each request gets a fresh
 * McpServer and transport (no session id, JSON responses instead of SSE), so concurrent clients share
 * nothing and any replica can answer any request. The API key and client address are read from this
 * HTTP request, exactly as the HTTP routes read them.
 */
export function mountMcp(app: Hono, deps: AppDeps): void {
  // Stateless: no standalone server-to-client stream (GET) and no session to end (DELETE). The
  // Streamable HTTP spec answers those with 405; clients then use POST only.
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
      return await transport.handleRequest(c.req.raw);
    } finally {
      // The JSON response is complete once handleRequest resolves; release the per-request pair.
      await server.close().catch(() => undefined);
    }
  });
}
