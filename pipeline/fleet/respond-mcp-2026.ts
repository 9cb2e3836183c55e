import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EndpointSpec } from './plan.ts';

/**
 * An MCP server of the 2026-07-28 revision only (behaviour `mcp-2026-only`), hand-written because
 * the SDK line the fleet uses (1.32) speaks 2025-11-25 at most. What it implements, from the
 * revision's Streamable HTTP and discovery chapters:
 * - stateless: no `initialize`, no session, no GET stream; GET and DELETE → 405 with `Allow: POST`;
 * - every POST carries `MCP-Protocol-Version` and `Mcp-Method` (and `Mcp-Name` for `tools/call`);
 *   a missing header, or one that disagrees with the body (method, tool name, the body's
 *   `_meta` protocol version), → 400 with JSON-RPC error -32020 (HeaderMismatch). A 2025 client's
 *   `initialize` without the headers is refused this way, which is how a 2025 client learns the era;
 * - a version it does not implement → 400 with -32022 listing the supported versions;
 * - `server/discover` answers supported versions, capabilities and server identity (result shape
 *   as in the revision's examples); `tools/list` and `tools/call` expose the fleet's `echo` tool;
 *   any other method → 404 with -32601. A notification (no id) → 202.
 */

export const MCP_2026_VERSION = '2026-07-28';
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_VERSION = -32022;
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const MAX_BODY = 64 * 1024;

type Id = string | number | null;

const ECHO_TOOL = {
  name: 'echo',
  description: 'Echo the given text back',
  inputSchema: { type: 'object', properties: { text: { type: 'string', maxLength: 1000 } }, required: ['text'] },
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

const rpcError = (
  res: ServerResponse,
  status: number,
  id: Id,
  code: number,
  message: string,
  data?: unknown,
  headers: Record<string, string> = {},
): void => sendJson(res, status, { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }, headers);

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

async function readBody(req: IncomingMessage): Promise<string | null> {
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** The reason the request's headers do not match its body, or null when they agree. */
export function headerMismatch(headers: { version?: string; method?: string; name?: string }, msg: Record<string, unknown>): string | null {
  if (!headers.version) return 'Header mismatch: MCP-Protocol-Version header is required';
  if (!headers.method) return 'Header mismatch: Mcp-Method header is required';
  if (headers.method !== msg.method)
    return `Header mismatch: Mcp-Method header value '${headers.method}' does not match body value '${String(msg.method)}'`;
  const params = isObj(msg.params) ? msg.params : {};
  const bodyVersion = isObj(params._meta) ? params._meta[META_VERSION] : undefined;
  if (bodyVersion !== undefined && bodyVersion !== headers.version)
    return `Header mismatch: MCP-Protocol-Version header value '${headers.version}' does not match body value '${String(bodyVersion)}'`;
  if (msg.method === 'tools/call') {
    if (!headers.name) return 'Header mismatch: Mcp-Name header is required for tools/call';
    if (headers.name !== params.name)
      return `Header mismatch: Mcp-Name header value '${headers.name}' does not match body value '${String(params.name)}'`;
  }
  return null;
}

export async function respondMcp2026(spec: EndpointSpec, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    req.resume();
    return rpcError(res, 405, null, -32000, 'Method not allowed: this server speaks MCP 2026-07-28 over POST only', undefined, {
      allow: 'POST',
    });
  }
  const text = await readBody(req);
  if (text === null) return rpcError(res, 413, null, -32600, 'Request too large');
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return rpcError(res, 400, null, -32700, 'Parse error');
  }
  if (!isObj(msg) || msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') return rpcError(res, 400, null, -32600, 'Invalid Request');
  const id: Id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null;
  const version = header(req, 'mcp-protocol-version');
  const mismatch = headerMismatch({ version, method: header(req, 'mcp-method'), name: header(req, 'mcp-name') }, msg);
  if (mismatch) return rpcError(res, 400, id, HEADER_MISMATCH, mismatch);
  if (version !== MCP_2026_VERSION)
    return rpcError(res, 400, id, UNSUPPORTED_VERSION, 'Unsupported protocol version', {
      supported: [MCP_2026_VERSION],
      requested: version,
    });
  if (!('id' in msg)) {
    res.writeHead(202, { 'content-length': '0' });
    return void res.end();
  }
  const result = (r: Record<string, unknown>) => sendJson(res, 200, { jsonrpc: '2.0', id, result: { resultType: 'complete', ...r } });
  const params = isObj(msg.params) ? msg.params : {};
  switch (msg.method) {
    case 'server/discover':
      return result({
        supportedVersions: [MCP_2026_VERSION],
        capabilities: { tools: {} },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: spec.serverName ?? spec.name, version: '1.0.0' } },
        ttlMs: 3_600_000,
        cacheScope: 'public',
      });
    case 'tools/list':
      return result({ tools: [ECHO_TOOL] });
    case 'tools/call': {
      const args = isObj(params.arguments) ? params.arguments : {};
      if (params.name !== 'echo') return rpcError(res, 200, id, -32602, `Unknown tool: ${String(params.name)}`);
      if (typeof args.text !== 'string' || args.text.length > 1000) return rpcError(res, 200, id, -32602, 'Invalid params: text');
      return result({ content: [{ type: 'text', text: args.text }], isError: false });
    }
    default:
      return rpcError(res, 404, id, -32601, 'Method not found');
  }
}
