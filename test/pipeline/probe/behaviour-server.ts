import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { encodePaymentRequiredHeader } from '@x402/core/http';
// Network safety: runs behind the loopback-only guard (test/net/no-egress.mjs), which refuses
// non-loopback connects and fails the test, so the private and public addresses below can never be
// reached even if the code under test is broken.

/**
 * A small Host-routed server on 127.0.0.1 with one behaviour per first hostname label
 * (`<behaviour>.t.test`), standing in for the fleet in the probe's own tests. Counts requests and
 * connections per behaviour so tests can prove that nothing was sent.
 */
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const PAY_TO = '0x1111111111111111111111111111111111111111';

export const v2Request = (over: Record<string, unknown> = {}, accept: Record<string, unknown> = {}) => ({
  x402Version: 2,
  resource: { url: 'https://api.example/x', description: 'demo' },
  accepts: [
    { scheme: 'exact', network: 'eip155:8453', amount: '10000', asset: BASE_USDC, payTo: PAY_TO, maxTimeoutSeconds: 60, ...accept },
  ],
  ...over,
});

export const v1Request = (accept: Record<string, unknown> = {}) => ({
  x402Version: 1,
  accepts: [
    {
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: '10000',
      resource: 'https://api.example/x',
      description: 'demo',
      payTo: PAY_TO,
      maxTimeoutSeconds: 60,
      asset: BASE_USDC,
      ...accept,
    },
  ],
});

const header = (obj: unknown) => encodePaymentRequiredHeader(obj as never);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export const BEHAVIOURS: Record<string, Handler> = {
  'x402-v2': (_q, r) => r.writeHead(402, { 'payment-required': header(v2Request()), 'content-type': 'application/json' }).end('{}'),
  'x402-v1': (_q, r) => r.writeHead(402, { 'content-type': 'application/json' }).end(JSON.stringify(v1Request())),
  testnet: (_q, r) =>
    r
      .writeHead(402, {
        'payment-required': header(v2Request({}, { network: 'eip155:84532', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' })),
      })
      .end('{}'),
  'html-paywall': (_q, r) => r.writeHead(402, { 'content-type': 'text/html' }).end('<html><body>Pay with your wallet</body></html>'),
  'bad-base64': (_q, r) => r.writeHead(402, { 'payment-required': 'not*base64!!' }).end('{}'),
  'url-safe': (_q, r) =>
    r
      .writeHead(402, {
        'payment-required': Buffer.from(JSON.stringify(v2Request({ resource: { url: 'https://a.example/??>>' } }))).toString('base64url'),
      })
      .end('{}'),
  cosmetic: (_q, r) =>
    r
      .writeHead(402, {
        'payment-required': header(
          v2Request({
            resource: {
              url: 'https://a.example/x',
              serviceName: 'A service name much longer than thirty-two characters',
              tags: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
            },
          }),
        ),
      })
      .end('{}'),
  mislabelled: (_q, r) => r.writeHead(402, { 'content-type': 'application/json' }).end(JSON.stringify({ ...v1Request(), x402Version: 2 })),
  'dollar-amount': (_q, r) =>
    r.writeHead(402, { 'content-type': 'application/json' }).end(JSON.stringify(v1Request({ maxAmountRequired: '$0.01' }))),
  'unknown-network': (_q, r) => r.writeHead(402, { 'payment-required': header(v2Request({}, { network: 'eip155:999999' })) }).end('{}'),
  'big-header': (_q, r) =>
    r
      .writeHead(402, {
        'payment-required': header(v2Request({ resource: { url: 'https://a.example/x', description: 'x'.repeat(21_000) } })),
      })
      .end('{}'),
  'get-200-post-402': (q, r) =>
    q.method === 'POST' ? BEHAVIOURS['x402-v2']!(q, r) : r.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
  'wildcard-402': (q, r) => BEHAVIOURS['x402-v2']!(q, r),
  'status-500': (_q, r) => r.writeHead(500).end('oops'),
  'rate-limited': (_q, r) => r.writeHead(429, { 'retry-after': '60' }).end(),
  slow: () => undefined, // never answers
  'delay-40': (q, r) => void setTimeout(() => BEHAVIOURS['x402-v2']!(q, r), 40),
  'endless-sse': (_q, r) => {
    r.writeHead(200, { 'content-type': 'text/event-stream' });
    const t = setInterval(() => r.write(`data: ${'x'.repeat(1024)}\n\n`), 5);
    r.on('close', () => clearInterval(t));
  },
  'endless-402': (_q, r) => {
    r.writeHead(402, { 'content-type': 'text/html' });
    const t = setInterval(() => r.write('x'.repeat(64 * 1024)), 2);
    r.on('close', () => clearInterval(t));
  },
  'redirect-private': (_q, r) => r.writeHead(302, { location: 'http://10.0.0.1/admin' }).end(),
  'mcp-406': (_q, r) =>
    r.writeHead(406, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not Acceptable"}}'),
  'mcp-405': (_q, r) => r.writeHead(405, { allow: 'POST' }).end(),
  'mcp-401': (_q, r) => r.writeHead(401, { 'www-authenticate': 'Bearer' }).end(),
  'mcp-404': (_q, r) => r.writeHead(404).end(),
  website: (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'),
  docs: (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html><h1>Docs</h1><p>Price: $0.01</p></html>'),
};

export interface BehaviourServer {
  port: number;
  url(behaviour: string, path?: string): string;
  requests: Map<string, number>;
  seen: Array<{ host: string; method: string; headers: IncomingMessage['headers']; body: string }>;
  connections: () => number;
  close(): Promise<void>;
}

export async function startBehaviourServer(): Promise<BehaviourServer> {
  const requests = new Map<string, number>();
  const seen: BehaviourServer['seen'] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const behaviour = host.split('.')[0]!;
    requests.set(behaviour, (requests.get(behaviour) ?? 0) + 1);
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ host, method: req.method ?? '', headers: req.headers, body });
      const h = BEHAVIOURS[behaviour];
      if (!h) res.writeHead(404).end();
      else h(req, res);
    });
  });
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (b, path = '/x') => `http://${b}.t.test:${port}${path}`,
    requests,
    seen,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A port that refuses connections: bound, then closed. */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
