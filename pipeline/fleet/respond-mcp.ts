import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';
import type { McpBehaviour } from './behaviours.ts';
import type { EndpointSpec } from './plan.ts';
import { isRealMcpBehaviour, REAL_MCP_STATUSES, type RealMcpBehaviour, realMcpId } from './real-mcp.ts';
import { respondMcp2026 } from './respond-mcp-2026.ts';
import { encodeHeader, offersAt, paymentRequiredV2 } from './payment.ts';
import { hold, mppChallenge } from './respond-x402.ts';
import { FLEET_SUFFIX, type FleetState } from './state.ts';
import { inOutage } from './timeline.ts';

/**
 * Answers of MCP endpoints. The real-protocol ones are made with @modelcontextprotocol/sdk 1.32 so
 * a plain GET gets exactly what the SDK answers (Streamable HTTP: 406 when Accept lacks
 * text/event-stream; legacy SSE: 200 and a stream that never ends), and a real MCP client can
 * list and call the `echo` tool.
 */

function buildServer(spec: EndpointSpec): McpServer {
  const server = new McpServer({ name: spec.serverName ?? spec.name, version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the given text back', inputSchema: { text: z.string().max(1000) } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

interface Recorded {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The SDK's answer to a GET whose Accept lacks text/event-stream, recorded once from a real SDK
 * transport and replayed. The SDK checks Accept before anything else on GET (1.32
 * handleGetRequest), so the answer does not depend on the server or the rest of the request; the
 * replay spares building a McpServer + transport per probe, which adds up at 20k endpoints.
 */
let plainGet: Promise<Recorded> | null = null;

async function recordPlainGet(): Promise<Recorded> {
  const server = new McpServer({ name: 'fleet-recorder', version: '1.0.0' });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const r = await transport.handleRequest(
      new Request('http://fleet.invalid/mcp', { method: 'GET', headers: { accept: 'application/json' } }),
    );
    const headers: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      headers[k] = v;
    });
    return { status: r.status, headers, body: await r.text() };
  } finally {
    await transport.close();
    await server.close();
  }
}

/** Stateless Streamable HTTP (as serve/mcp/mount.ts does it): a fresh server and transport per request. */
async function streamable(spec: EndpointSpec, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET' && !String(req.headers.accept ?? '').includes('text/event-stream')) {
    plainGet ??= recordPlainGet();
    const r = await plainGet;
    return send(res, r.status, r.headers['content-type'] ?? 'application/json', r.body);
  }
  const server = buildServer(spec);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

/** Legacy HTTP+SSE sessions by id (POST /messages?sessionId=…), dropped when the stream closes. */
const sseSessions = new Map<string, SSEServerTransport>();

async function legacySse(spec: EndpointSpec, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method === 'POST' && path === '/messages') {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
    const t = sseSessions.get(id);
    if (!t) return send(res, 404, 'text/plain', 'unknown session');
    return t.handlePostMessage(req, res);
  }
  if (req.method !== 'GET') return send(res, 405, 'text/plain', 'Method Not Allowed', { allow: 'GET' });
  const server = buildServer(spec);
  const transport = new SSEServerTransport('/messages', res);
  sseSessions.set(transport.sessionId, transport);
  res.once('close', () => {
    sseSessions.delete(transport.sessionId);
    void server.close();
  });
  await server.connect(transport);
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

const WEBSITE_HTML =
  '<!doctype html><html><head><title>Acme Tools</title></head><body><h1>Acme Tools</h1>' +
  '<p>Our MCP server is coming soon. Read the <a href="/docs">docs</a>.</p></body></html>';

/** A real server's captured bodies (real-mcp.ts), with the statuses REAL_MCP_STATUSES states. */
function realMcp(state: FleetState, spec: EndpointSpec, req: IncomingMessage, res: ServerResponse): void {
  const r = state.realMcp.get(realMcpId(spec.behaviour as RealMcpBehaviour));
  req.resume();
  if (!r) send(res, 500, 'text/plain', `fleet: real MCP server ${spec.behaviour} not loaded`);
  else if (req.method === 'POST') send(res, REAL_MCP_STATUSES.initialize, 'application/json', r.initialize);
  else if (req.method !== 'GET') send(res, 405, 'text/plain', 'Method Not Allowed', { allow: 'GET, POST' });
  else if (String(req.headers.accept ?? '').includes('text/event-stream'))
    send(res, REAL_MCP_STATUSES.getEventStream, 'application/json', r.getEventStream);
  else send(res, REAL_MCP_STATUSES.getJson, 'application/json', r.getJson);
}

export async function respondMcp(state: FleetState, spec: EndpointSpec, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (isRealMcpBehaviour(spec.behaviour)) return realMcp(state, spec, req, res);
  const b = spec.behaviour as McpBehaviour;
  const host = `${spec.host}${FLEET_SUFFIX}:${state.port}`;
  switch (b) {
    case 'mcp-streamable':
    case 'mcp-template':
      return streamable(spec, req, res);
    case 'mcp-outage':
      if (inOutage(state.timeline, state.clock())) return send(res, 503, 'text/plain', 'Service Unavailable', { 'retry-after': '3600' });
      return streamable(spec, req, res);
    case 'mcp-2026':
      // A server of both eras: no GET stream (405 with Allow: POST, as 2026-07-28 asks), POST speaks
      // 2025-11-25 through the SDK. The 2026-07-28-only server is mcp-2026-only (respond-mcp-2026.ts).
      if (req.method === 'GET') {
        return send(
          res,
          405,
          'application/json',
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' }, id: null }),
          { allow: 'POST' },
        );
      }
      return streamable(spec, req, res);
    case 'mcp-2026-only':
      return respondMcp2026(spec, req, res);
    case 'mcp-legacy-sse':
      return legacySse(spec, req, res);
    case 'mcp-protocol-error':
      // Reachable over HTTP, broken as MCP: the JSON-RPC error a census row quotes, to every POST.
      if (req.method === 'POST') {
        req.resume();
        return send(
          res,
          200,
          'application/json',
          JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } }),
        );
      }
      return send(
        res,
        405,
        'application/json',
        JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' }, id: null }),
        {
          allow: 'POST',
        },
      );
    case 'mcp-auth-no-scheme':
      // An auth wall that names no scheme (about 15% of the census's 401s): no WWW-Authenticate at all;
      // the body as one such server in the census sample answers.
      return send(res, 401, 'application/json', JSON.stringify({ error: 'Unauthorized' }));
    case 'mcp-paid-x402': {
      // A paid MCP server: HTTP 402 on every request, the x402 v2 request in PAYMENT-REQUIRED and as the body.
      const url = `http://${host}${spec.path}`;
      const pr = paymentRequiredV2(spec, url, offersAt(spec, state.clock(), state.timeline));
      req.resume();
      return send(res, 402, 'application/json', JSON.stringify(pr), { 'payment-required': encodeHeader(pr, state.headerEncoding) });
    }
    case 'mcp-paid-mpp':
      req.resume();
      return send(res, 402, 'application/problem+json', JSON.stringify({ type: 'about:blank', title: 'Payment Required', status: 402 }), {
        'www-authenticate': mppChallenge(spec.host, 'tempo', 'fleet-mcp-mpp-1'),
      });
    case 'mcp-auth':
      return send(res, 401, 'application/json', JSON.stringify({ error: 'invalid_token', error_description: 'Authorization required' }), {
        'www-authenticate': `Bearer resource_metadata="http://${host}/.well-known/oauth-protected-resource"`,
      });
    case 'mcp-forbidden':
      return send(res, 403, 'application/json', JSON.stringify({ error: 'forbidden' }));
    case 'mcp-website':
      return send(res, 200, 'text/html; charset=utf-8', WEBSITE_HTML);
    case 'mcp-not-found':
    case 'mcp-template-unfilled':
      return send(res, 404, 'text/plain', 'Not Found');
    case 'mcp-server-error':
      return send(res, 500, 'text/plain', 'Internal Server Error');
    case 'mcp-redirect':
      return send(res, 301, 'text/plain', 'Moved', { location: 'http://127.0.0.1:1/mcp' });
    case 'mcp-rate-limited':
      return send(res, 429, 'application/json', JSON.stringify({ error: 'rate_limited' }), { 'retry-after': '60' });
    case 'mcp-slow':
      return hold(res, state.slowMs, () => send(res, 406, 'application/json', '{}'));
    case 'mcp-dead':
      return send(res, 421, 'text/plain', 'Misdirected Request');
  }
}
