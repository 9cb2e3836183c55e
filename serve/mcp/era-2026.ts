import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/**
 * MCP protocol revision 2026-07-28 (stateless: no initialize, no session, no GET stream) as a thin
 * layer in front of the SDK's 2025-era transport. The SDK line we use (@modelcontextprotocol/sdk 1.x)
 * stops at 2025-11-25, so this module holds the parts of the newer revision the SDK does not: the
 * header/body agreement check, `server/discover`, and the result envelope. Pure: no I/O, no clock.
 */
export const MCP_STATELESS_VERSION = '2026-07-28';

/** Every version /mcp answers: the stateless revision first, then the SDK's own (newest first). */
export const MCP_SUPPORTED_VERSIONS: readonly string[] = [MCP_STATELESS_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/** The version the layer speaks to the SDK on behalf of a 2026-07-28 request. */
export const MCP_SDK_VERSION = LATEST_PROTOCOL_VERSION;

/** JSON-RPC error codes of the 2026-07-28 revision (and the base JSON-RPC ones it answers with). */
export const MCP_ERR = {
  headerMismatch: -32020,
  unsupportedVersion: -32022,
  methodNotFound: -32601,
  invalidRequest: -32600,
  parseError: -32700,
} as const;

/**
 * The caching hint on `server/discover` and `tools/list` (both required by the revision): the server
 * identity and the tool list are the same for every client and change only when the server is
 * redeployed, so they are `public`, and an hour bounds how long a client keeps them after an upgrade.
 */
export const MCP_CACHE_TTL_MS = 3_600_000;
const CACHE_HINT = { ttlMs: MCP_CACHE_TTL_MS, cacheScope: 'public' } as const;

const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** Methods whose `params.name` (or `params.uri`) must be mirrored in `Mcp-Name`. */
const NAMED_METHODS: Record<string, 'name' | 'uri'> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/**
 * Methods this server implements under 2026-07-28. `server/discover` is answered by the layer; the
 * tool methods go to the SDK server; a client notification is accepted and has no effect (nothing is
 * long-running, so a cancellation has nothing to cancel).
 */
export const MCP_2026_FORWARDED = new Set(['tools/list', 'tools/call']);

export interface ServerIdentity {
  name: string;
  title: string;
  version: string;
}

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}

/** What the layer decided for one POST: an answer of its own, or a message to hand to the SDK. */
export type Decision =
  | { kind: 'answer'; status: number; body: unknown }
  | { kind: 'accepted' }
  | { kind: 'forward'; message: JsonRpcMessage };

/** A JSON-RPC error body; the revision's schema allows no `id: null`, so an unknown id is left out. */
const errorBody = (id: string | number | null, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  ...(id === null ? {} : { id }),
  error: data === undefined ? { code, message } : { code, message, data },
});

const rpcError = (status: number, id: string | number | null, code: number, message: string, data?: unknown): Decision => ({
  kind: 'answer',
  status,
  body: errorBody(id, code, message, data),
});

/** The request id of a JSON-RPC body, when it has a usable one (for error answers). */
export function requestIdOf(bodyText: string): string | number | null {
  try {
    const id = (JSON.parse(bodyText) as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** The 400 answer for an `MCP-Protocol-Version` this server does not implement. */
export function unsupportedVersion(requested: string, id: string | number | null): { status: number; body: unknown } {
  return {
    status: 400,
    body: errorBody(id, MCP_ERR.unsupportedVersion, 'Unsupported protocol version', {
      supported: [...MCP_SUPPORTED_VERSIONS],
      requested,
    }),
  };
}

/**
 * Header values that are not plain header-safe ASCII travel as `=?base64?<base64 of UTF-8>?=`; the
 * comparison with the body is made on the decoded value. Null for a malformed sentinel.
 */
export function decodeHeaderValue(raw: string): string | null {
  const m = /^=\?base64\?(.*)\?=$/.exec(raw);
  if (!m) return raw;
  const b64 = m[1] ?? '';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) return null;
  return Buffer.from(b64, 'base64').toString('utf8');
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The decision for one 2026-07-28 POST body (already read, at most the endpoint's cap). `header`
 * reads a request header case-insensitively. Every request must mirror its method in `Mcp-Method`
 * and, for the named methods, its name or URI in `Mcp-Name`; a missing or different value is refused
 * with 400 and HeaderMismatch before anything runs, so a proxy routing on the headers and this
 * server executing the body always agree. A `_meta` protocol version, when the body carries one,
 * must equal the header's.
 */
export function decide2026(
  bodyText: string,
  header: (name: string) => string | undefined,
  server: ServerIdentity,
  instructions: string,
): Decision {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return rpcError(400, null, MCP_ERR.parseError, 'Parse error: the body is not JSON');
  }
  if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') {
    return rpcError(400, null, MCP_ERR.invalidRequest, 'Invalid request: one JSON-RPC request or notification object per POST');
  }
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : undefined;
  if (body.params !== undefined && !isObject(body.params)) {
    return rpcError(400, id ?? null, MCP_ERR.invalidRequest, 'Invalid request: params must be an object');
  }
  const params = (body.params ?? {}) as Record<string, unknown>;
  const message: JsonRpcMessage = {
    jsonrpc: '2.0',
    method: body.method,
    ...(id === undefined ? {} : { id }),
    ...(body.params === undefined ? {} : { params }),
  };
  const rid = id ?? null;

  const methodHeader = header('mcp-method');
  if (methodHeader === undefined)
    return rpcError(400, rid, MCP_ERR.headerMismatch, 'Header mismatch: required header Mcp-Method is missing');
  if (methodHeader !== message.method) {
    return rpcError(
      400,
      rid,
      MCP_ERR.headerMismatch,
      `Header mismatch: Mcp-Method header value '${methodHeader}' does not match body value '${message.method}'`,
    );
  }
  const nameField = NAMED_METHODS[message.method];
  if (nameField) {
    const bodyName = params[nameField];
    const raw = header('mcp-name');
    if (raw === undefined) return rpcError(400, rid, MCP_ERR.headerMismatch, 'Header mismatch: required header Mcp-Name is missing');
    const decoded = decodeHeaderValue(raw);
    if (decoded === null) return rpcError(400, rid, MCP_ERR.headerMismatch, 'Header mismatch: Mcp-Name header value is not valid base64');
    if (typeof bodyName !== 'string' || decoded !== bodyName) {
      return rpcError(
        400,
        rid,
        MCP_ERR.headerMismatch,
        `Header mismatch: Mcp-Name header value '${raw}' does not match body value '${String(bodyName)}'`,
      );
    }
  }
  const meta = isObject(params._meta) ? params._meta : undefined;
  const metaVersion = meta?.[META_PROTOCOL_VERSION];
  if (metaVersion !== undefined && metaVersion !== MCP_STATELESS_VERSION) {
    return rpcError(
      400,
      rid,
      MCP_ERR.headerMismatch,
      `Header mismatch: MCP-Protocol-Version header value '${MCP_STATELESS_VERSION}' does not match body value '${String(metaVersion)}'`,
    );
  }

  if (id === undefined) return { kind: 'accepted' };
  if (message.method === 'server/discover')
    return { kind: 'answer', status: 200, body: { jsonrpc: '2.0', id, result: discoverResult(server, instructions) } };
  if (MCP_2026_FORWARDED.has(message.method)) return { kind: 'forward', message };
  return rpcError(404, id, MCP_ERR.methodNotFound, `Method not found: ${message.method}`);
}

/**
 * The `server/discover` result: every supported version (2026-07-28 first), the tools capability
 * (the only feature /mcp offers), and the same name, title, version and instructions as the
 * 2025-era initialize result.
 */
export function discoverResult(server: ServerIdentity, instructions: string): Record<string, unknown> {
  return {
    resultType: 'complete',
    supportedVersions: [...MCP_SUPPORTED_VERSIONS],
    capabilities: { tools: {} },
    _meta: { [META_SERVER_INFO]: { ...server } },
    instructions,
    ...CACHE_HINT,
  };
}

/**
 * A 2025-era JSON-RPC answer of the SDK rewritten for a 2026-07-28 client: results gain
 * `resultType: "complete"` and the server identity in `_meta` (kept beside any `_meta` a tool set),
 * and `tools/list` its caching hint; an unknown method becomes HTTP 404 as the revision asks.
 * Errors are otherwise passed as they are.
 */
export function adaptSdkAnswer(method: string, status: number, body: unknown, server: ServerIdentity): { status: number; body: unknown } {
  if (!isObject(body)) return { status, body };
  if (isObject(body.result)) {
    const result = body.result;
    const meta = isObject(result._meta) ? result._meta : {};
    const hint = method === 'tools/list' ? CACHE_HINT : {};
    return {
      status,
      body: { ...body, result: { resultType: 'complete', ...result, ...hint, _meta: { ...meta, [META_SERVER_INFO]: { ...server } } } },
    };
  }
  if (isObject(body.error) && body.error.code === MCP_ERR.methodNotFound) return { status: 404, body };
  return { status, body };
}
