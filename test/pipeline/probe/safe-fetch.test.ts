import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch, type EdgeOptions, type EdgeRequest } from '../../../pipeline/probe/index.ts';
import { deadPort, startBehaviourServer, type BehaviourServer } from './behaviour-server.ts';

/** The HTTP edge against real sockets on 127.0.0.1 (short real timeouts are unavoidable here). */
const base: EdgeOptions = {
  timeoutMs: 800,
  maxBodyBytes: 64 * 1024,
  maxHeaderBytes: 128 * 1024,
  allowPrivate: true,
  resolveMap: { '*.t.test': '127.0.0.1' },
};
const get = (url: string, over: Partial<EdgeRequest> = {}): EdgeRequest => ({
  url,
  method: 'GET',
  headers: { accept: 'application/json' },
  ...over,
});

describe('safeFetch: the HTTP edge', () => {
  let srv: BehaviourServer;
  beforeAll(async () => {
    srv = await startBehaviourServer();
  });
  afterAll(async () => {
    await srv.close();
  });

  // No wall-clock bounds on totalMs: a loaded machine stretches them. The deadline firing is the
  // reason `timeout`; a fetch that outlived it would hang the test into its timeout instead.
  it('times out a server that never answers, at the deadline', async () => {
    const r = await safeFetch(get(srv.url('slow')), { ...base, timeoutMs: 300 });
    expect(r).toMatchObject({ ok: false, reason: 'timeout' });
  });

  it('an endless SSE stream finishes: status and headers, then the body is aborted', async () => {
    // A generous deadline, so only an edge that kept reading the stream (not a slow machine) gets
    // `timeout` instead of the answer.
    const r = await safeFetch(get(srv.url('endless-sse'), { wantBody: () => false }), { ...base, timeoutMs: 5_000 });
    expect(r).toMatchObject({ ok: true, status: 200, body: null, truncated: false });
  });

  it('an endless body is cut at the cap and marked truncated (too_large is the rule’s call)', async () => {
    const r = await safeFetch(get(srv.url('endless-402')), base);
    expect(r).toMatchObject({ ok: true, status: 402, truncated: true, bytes: 64 * 1024 });
    if (r.ok) expect(r.body!.length).toBe(64 * 1024);
  });

  it('does not follow redirects (the private target gets nothing)', async () => {
    const r = await safeFetch(get(srv.url('redirect-private')), base);
    expect(r).toMatchObject({ ok: true, status: 302 });
    if (r.ok) expect(r.headers.location).toBe('http://10.0.0.1/admin');
  });

  it('reads a 28 kB PAYMENT-REQUIRED header (above the 16 KiB default)', async () => {
    const r = await safeFetch(get(srv.url('big-header')), base);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.headers['payment-required']!.length).toBeGreaterThan(28_000);
  });

  it('headers above the limit are too_large', async () => {
    const big = createServer((_q, res) => res.writeHead(200, { 'x-big': 'y'.repeat(40_000) }).end());
    await new Promise<void>((r) => big.listen(0, '127.0.0.1', r));
    try {
      const port = (big.address() as AddressInfo).port;
      const r = await safeFetch(get(`http://big.t.test:${port}/`), { ...base, maxHeaderBytes: 16 * 1024 });
      expect(r).toMatchObject({ ok: false, reason: 'too_large' });
    } finally {
      await new Promise<void>((r) => big.close(() => r()));
    }
  });

  it('refused and dns failures have their own reasons', async () => {
    const port = await deadPort();
    expect(await safeFetch(get(`http://dead.t.test:${port}/`), base)).toMatchObject({ ok: false, reason: 'refused' });
    const nx = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    expect(await safeFetch(get('http://nowhere.example/'), { ...base, resolver: async () => Promise.reject(nx) })).toMatchObject({
      ok: false,
      reason: 'dns',
    });
  });

  it('a connection reset mid-response is reset', async () => {
    const rs = createServer((req) => req.socket.destroy());
    await new Promise<void>((r) => rs.listen(0, '127.0.0.1', r));
    try {
      const port = (rs.address() as AddressInfo).port;
      expect(await safeFetch(get(`http://rs.t.test:${port}/`), base)).toMatchObject({ ok: false, reason: 'reset' });
    } finally {
      await new Promise<void>((r) => rs.close(() => r()));
    }
  });

  it('measures ttfb and total latency, sends no credentials from the URL', async () => {
    const before = srv.seen.length;
    const u = srv.url('website').replace('http://', 'http://user:secret@');
    const r = await safeFetch(get(u), base);
    expect(r).toMatchObject({ ok: true, status: 200 });
    expect(r.ttfbMs).toBeGreaterThan(0);
    expect(r.totalMs).toBeGreaterThanOrEqual(r.ttfbMs!);
    expect(srv.seen[before]!.headers.authorization).toBeUndefined();
  });
});

/**
 * Atlas's own guard must refuse these before any socket opens. Beneath it, every test runs behind the
 * loopback-only guard (test/net/no-egress.mjs), which refuses non-loopback connects: if Atlas's guard
 * were broken, 10.0.0.1 and 169.254.169.254 would be refused there, nothing would be sent, and the
 * refusal would fail the test (test/net/setup.ts); test/net/no-egress.test.ts shows that happening.
 */
describe('safeFetch: the SSRF guard sends nothing to refused addresses', () => {
  let server: Server;
  let port: number;
  let requests = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((_q, r) => {
      requests++;
      r.writeHead(302, { location: `http://127.0.0.1:${port}/inner` }).end();
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });
  const guarded: EdgeOptions = { ...base, allowPrivate: false, resolveMap: {} };

  it.each([
    ['loopback literal', () => `http://127.0.0.1:${port}/`],
    ['private literal', () => 'http://10.0.0.1/'],
    ['metadata literal', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback literal', () => `http://[::1]:${port}/`],
    ['IPv4-mapped IPv6 literal', () => `http://[::ffff:127.0.0.1]:${port}/`],
    ['decimal-encoded loopback', () => `http://2130706433:${port}/`],
    ['localhost by name', () => `http://localhost:${port}/`],
  ])('%s → blocked_address, no packet', async (_name, url) => {
    const r = await safeFetch(get(url()), guarded);
    expect(r).toMatchObject({ ok: false, reason: 'blocked_address' });
    expect({ requests, connections }).toEqual({ requests: 0, connections: 0 });
  });

  it('a name resolving to a private address (static map or DNS) is refused at connect time', async () => {
    const viaMap = await safeFetch(get(`http://evil.example:${port}/`), { ...guarded, resolveMap: { 'evil.example': '127.0.0.1' } });
    expect(viaMap).toMatchObject({ ok: false, reason: 'blocked_address' });
    const viaDns = await safeFetch(get(`http://rebind.example:${port}/`), {
      ...guarded,
      resolver: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(viaDns).toMatchObject({ ok: false, reason: 'blocked_address' });
    const mixed = await safeFetch(get(`http://mixed.example:${port}/`), {
      ...guarded,
      resolver: async () => [
        { address: '93.184.216.34', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ],
    });
    expect(mixed).toMatchObject({ ok: false, reason: 'blocked_address' });
    expect({ requests, connections }).toEqual({ requests: 0, connections: 0 });
  });

  it('a redirect to a private address is a result, never followed', async () => {
    const r = await safeFetch(get(`http://public.t.test:${port}/`), { ...base, resolveMap: { 'public.t.test': '127.0.0.1' } });
    expect(r).toMatchObject({ ok: true, status: 302 });
    expect(requests).toBe(1); // the first hop only; /inner was never requested
  });
});
