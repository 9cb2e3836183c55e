import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { respondDoc } from './docs.ts';
import { MCP_REGISTRY_PATH, X402_REGISTRY_PATH, X402_SECOND_REGISTRY_PATH } from './model.ts';
import type { EndpointSpec } from './plan.ts';
import { mcpRegistryPage } from './registry-mcp.ts';
import { x402RegistryPage } from './registry-x402.ts';
import { x402SecondCatalogPage } from './registry-x402-second.ts';
import { respondMcp } from './respond-mcp.ts';
import { hold, respondX402 } from './respond-x402.ts';
import { FLEET_SUFFIX, type FleetState } from './state.ts';

/**
 * The one HTTP server of the fleet, on 127.0.0.1. Routing:
 * - Host `<label>.fleet.test` → that host's endpoints (exact path, else the host's catch-all).
 * - Host `docs.fleet.test` → documentation pages.
 * - Host `registry.fleet.test` / `mcp-registry.fleet.test` → the registries at their real paths.
 * - Any other Host (127.0.0.1:PORT) → path routing: `/x402/discovery/resources`,
 *   `/mcp-registry/v0.1/servers`, `/healthz`. Registry sources are fetched without the probe's
 *   resolver, so their URLs use 127.0.0.1 directly.
 * Sized for tens of thousands of endpoints and thousands of concurrent sockets: no per-request
 * timeouts that would cut a deliberately hanging endpoint short of the client's own timeout.
 */

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

function hostLabel(req: IncomingMessage): string | null {
  const raw = (req.headers.host ?? '').toLowerCase();
  const host = raw.startsWith('[') ? raw : raw.replace(/:\d+$/, '');
  return host.endsWith(FLEET_SUFFIX) ? host.slice(0, -FLEET_SUFFIX.length) : null;
}

function findEndpoint(state: FleetState, label: string, path: string): EndpointSpec | null {
  const entry = state.hosts.get(label);
  if (!entry) return null;
  const exact = entry.paths.get(path);
  if (exact) return exact;
  if (entry.sse && path === '/messages') return entry.sse;
  return entry.catchAll;
}

function serveEndpoint(state: FleetState, spec: EndpointSpec, req: IncomingMessage, res: ServerResponse): void {
  if (spec.hangs) return; // never answers; the socket closes when the client gives up or at close()
  const run = (): void => {
    if (res.writableEnded || res.destroyed) return;
    if (spec.protocol === 'mcp') {
      respondMcp(state, spec, req, res).catch((e: unknown) => {
        if (!res.headersSent) text(res, 500, `fleet: ${(e as Error).message}`);
        else res.destroy();
      });
    } else {
      req.resume(); // x402 handlers never read the body; drain it so keep-alive works
      try {
        respondX402(state, spec, req, res);
      } catch (e) {
        if (!res.headersSent) text(res, 500, `fleet: ${(e as Error).message}`);
        else res.destroy();
      }
    }
  };
  if (spec.latencyMs > 0) hold(res, spec.latencyMs, run);
  else run();
}

function handle(state: FleetState, req: IncomingMessage, res: ServerResponse): void {
  state.requests++;
  const url = new URL(req.url ?? '/', 'http://fleet.invalid');
  const label = hostLabel(req);
  if (label === 'docs') respondDoc(state, url.pathname, res);
  else if (label === 'registry' && url.pathname === '/discovery/resources') json(res, 200, x402RegistryPage(state, url.searchParams));
  else if (label === 'mcp-registry' && url.pathname === '/v0.1/servers') json(res, 200, mcpRegistryPage(state, url.searchParams));
  else if (label === 'registry-bsc' && url.pathname === '/discovery/resources')
    json(res, 200, x402SecondCatalogPage(state, url.searchParams));
  else if (label !== null) {
    const spec = findEndpoint(state, label, url.pathname);
    if (spec) serveEndpoint(state, spec, req, res);
    else text(res, 404, 'Not Found');
  } else if (url.pathname === X402_REGISTRY_PATH) json(res, 200, x402RegistryPage(state, url.searchParams));
  else if (url.pathname === MCP_REGISTRY_PATH) json(res, 200, mcpRegistryPage(state, url.searchParams));
  else if (url.pathname === X402_SECOND_REGISTRY_PATH) json(res, 200, x402SecondCatalogPage(state, url.searchParams));
  else if (url.pathname === '/healthz') json(res, 200, { ok: true, endpoints: state.specs.length, requests: state.requests });
  else text(res, 404, 'Not Found');
}

export async function listen(state: FleetState): Promise<Server> {
  const server = createServer(
    {
      keepAlive: true,
      // Hanging endpoints must hang until the *client* gives up: no server-side request timeout.
      requestTimeout: 0,
      headersTimeout: 60_000,
      // Short idle keep-alive (like Node's default): a sweep touches thousands of hosts once each, and idle
      // sockets would otherwise pile up (two descriptors each when prober and fleet share a process).
      keepAliveTimeout: 4_000,
      maxHeaderSize: 64 * 1024,
    },
    (req, res) => {
      // A bug in a handler must answer 500, not take the whole fleet (and every test using it) down.
      try {
        handle(state, req, res);
      } catch (e) {
        if (!res.headersSent) text(res, 500, `fleet: ${(e as Error).message}`);
        else res.destroy();
      }
    },
  );
  server.maxConnections = 100_000;
  server.maxRequestsPerSocket = 0;
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, () => resolve());
  });
  state.port = (server.address() as AddressInfo).port;
  return server;
}

/** A port nothing listens on: bind port 0, note it, close it (connections are then refused). */
export async function reserveDeadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen({ host: '127.0.0.1', port: 0 }, () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export async function shutdown(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}
