import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '../../../pipeline/store/store.ts';

/** A real HTTP server on 127.0.0.1, port 0, answering JSON from a handler; records each request URL. */
export interface JsonServer {
  url: string;
  requests: URL[];
  close(): Promise<void>;
}

export async function serveJson(
  handler: (u: URL, req: IncomingMessage) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>,
): Promise<JsonServer> {
  const requests: URL[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(u);
    Promise.resolve(handler(u, req)).then(
      ({ status = 200, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(typeof body === 'string' ? body : JSON.stringify(body));
      },
      (e) => {
        res.writeHead(500);
        res.end(String(e));
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Everything ingest writes (except `runs`, which records every attempt), in a stable order. */
export async function dumpIngestTables(store: Store): Promise<Record<string, unknown[]>> {
  const q = (sql: string) => store.all(sql);
  return {
    services: await q('SELECT * FROM services ORDER BY id'),
    operations: await q('SELECT * FROM operations ORDER BY service_id, id'),
    interval_changes: await q('SELECT * FROM interval_changes ORDER BY service_id, operation, changed_at'),
    listing_events: await q('SELECT * FROM listing_events ORDER BY service_id, event_at, reason'),
    sync_state: await q('SELECT * FROM sync_state ORDER BY source'),
  };
}

/** An x402 registry item in the v2 shape with a Base USDC price (atomic units). */
export function x402Item(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    resource: url,
    type: 'http',
    x402Version: 2,
    accepts: [
      {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '10000',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        payTo: '0x1111111111111111111111111111111111111111',
        maxTimeoutSeconds: 60,
      },
    ],
    lastUpdated: '2026-11-20T00:00:00Z',
    ...extra,
  };
}

/** An MCP registry entry in the /v0.1 shape. */
export function mcpEntry(
  name: string,
  url: string,
  status = 'active',
  updatedAt = '2026-11-20T00:00:00Z',
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    server: { name, description: `${name} tools`, version: '1.0.0', remotes: [{ type: 'streamable-http', url }], ...extra },
    _meta: { 'io.modelcontextprotocol.registry/official': { status, publishedAt: '2026-11-01T00:00:00Z', updatedAt, isLatest: true } },
  };
}
