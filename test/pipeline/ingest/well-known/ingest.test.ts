import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realdataDir } from '../../../../pipeline/fleet/real-402.ts';
import {
  ingestWellKnown,
  mergeDiscovered,
  originOf,
  parseOrigins,
  parseWellKnown,
  wellKnownRecords,
  x402CandidateId,
  type WellKnownIngestResult,
} from '../../../../pipeline/ingest/index.ts';
import type { EdgeOptions } from '../../../../pipeline/probe/safe-fetch.ts';
import { runCli, runCliInProcess } from '../../../helpers/cli.ts';
import { realdataGate } from '../../../helpers/realdata-gate.ts';
import { makeContext, tempDir, testClock, withTestStore } from '../../../helpers/context.ts';

const parse = (doc: unknown, origin = 'https://shop.example') => parseWellKnown(doc, { origin, allowPrivate: false });

describe('well-known documents: dialects (pure)', () => {
  it('resources: "METHOD /path", absolute URLs on the origin and its subdomains, bare paths; other hosts, http and literals skipped', () => {
    const p = parse({
      version: 1,
      resources: [
        'GET /api/a',
        'POST https://shop.example/api/b',
        'GET https://eu.api.shop.example/c',
        '/api/d',
        'GET https://evil.example/steal',
        'GET https://notshop.example/x',
        'GET http://shop.example/plain',
        'GET https://10.0.0.1/x',
        'GET /api/a',
        'FETCH /api/e',
        'GET api/relative',
        42,
        { url: '/api/f', method: 'put' },
        { path: '/api/g', method: 'BREW' },
      ],
    });
    expect(p.dialect).toBe('resources');
    expect(p.resources.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET https://shop.example/api/a',
      'POST https://shop.example/api/b',
      'GET https://eu.api.shop.example/c',
      'GET https://shop.example/api/d',
      'PUT https://shop.example/api/f',
    ]);
    expect(p.skipped).toEqual({ other_host: 3, not_https: 1, duplicate: 1, invalid_resource: 4 });
    expect(p.noted).toEqual({ absolute_url: 2, subdomain_url: 1, method_defaulted: 1 });
    // A document served from an address literal: its private resources are refused here too.
    expect(parse({ resources: ['GET /x'] }, 'https://10.0.0.1').skipped).toEqual({ blocked_address: 1 });
    expect(parseWellKnown({ resources: ['GET /x'] }, { origin: 'http://127.0.0.1:8080', allowPrivate: true }).resources).toHaveLength(1);
  });

  it('endpoints: path, method, stated price and network (kept raw, never priced)', () => {
    const p = parse({
      version: '1.0',
      endpoints: [
        { path: '/scan', method: 'GET', price: '0.018', currency: 'USDC', network: 'base', payTo: '0xabc' },
        { url: 'https://other.example/x', price: '1' },
        { description: 'no path' },
      ],
    });
    expect(p.dialect).toBe('endpoints');
    expect(p.resources).toMatchObject([{ method: 'GET', url: 'https://shop.example/scan', network: 'base' }]);
    expect(p.skipped).toEqual({ other_host: 1, invalid_resource: 1 });
    expect(p.noted).toEqual({ stated_price: 1 });
    const [rec] = wellKnownRecords(p, 'https://shop.example', 'test-secret');
    expect(rec).toMatchObject({
      id: x402CandidateId('GET', 'https://shop.example/scan'),
      type: 'api_endpoint',
      pass_rule: 'x402-mainnet/2',
      registry_price_usd: null,
      registry_networks: ['eip155:8453'],
      listed: true,
    });
    expect(JSON.stringify(rec!.registry_raw)).not.toContain('0xabc'); // payTo is hashed, never stored
  });

  it('documents without resources: index pointer (not followed), free-form pricing, metadata only, not an object', () => {
    expect(parse({ x402Version: 2, name: 'n', resourcesIndex: 'https://elsewhere.example/.well-known/x402' })).toMatchObject({
      dialect: 'index_pointer',
      resources: [],
    });
    expect(parse({ name: 'n', pricing: { train: { amount: 0.01 } } }).dialect).toBe('free_form');
    expect(parse({ name: 'n', description: 'd', api: 'https://api.shop.example' }).dialect).toBe('metadata_only');
    expect(parse([1, 2]).dialect).toBe('not_object');
    expect(parse('text').dialect).toBe('not_object');
  });

  it('a document listing more than the cap keeps the first ones and counts the rest', () => {
    const p = parse({ resources: Array.from({ length: 1005 }, (_, i) => `GET /r/${i}`) });
    expect(p.resources).toHaveLength(1000);
    expect(p.skipped).toEqual({ over_cap: 5 });
  });
});

describe('origins file', () => {
  it('hosts, host:port and https origins; comments and duplicates; bad lines refused with their line number', () => {
    expect(parseOrigins('# sellers\n\ntensorfeed.ai\nhttps://ApiMesh.xyz/\nexample.com:8443\ntensorfeed.ai\n', 'f')).toEqual([
      'https://tensorfeed.ai',
      'https://apimesh.xyz',
      'https://example.com:8443',
    ]);
    expect(originOf('http://a.fleet.test:4000')).toBe('http://a.fleet.test:4000');
    for (const bad of ['https://a.example/path', 'ftp://a.example', 'https://u:p@a.example', 'a.example?x=1', 'two words'])
      expect(() => parseOrigins(`ok.example\n${bad}\n`, 'f')).toThrow(/f:2: not an origin/);
  });
});

/** One server on 127.0.0.1 answering `/.well-known/x402` by Host header; counts connections. */
interface HostServer {
  port: number;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

type Answer = { status?: number; headers?: Record<string, string>; body: string | Buffer };

async function hostServer(byHost: (host: string) => Answer | undefined): Promise<HostServer> {
  const s: HostServer = { port: 0, connections: 0, requests: [], close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    s.requests.push(`${host}${req.url}`);
    const a = req.url === '/.well-known/x402' ? byHost(host) : undefined;
    if (!a) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body);
  });
  server.on('connection', () => s.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  s.port = (server.address() as AddressInfo).port;
  s.close = () => new Promise<void>((r) => server.close(() => r()));
  return s;
}

/** Loopback fleets are private addresses: the tests allow them, mapping each test host to 127.0.0.1. */
const localEdge = (hosts: readonly string[]): Partial<EdgeOptions> => ({
  allowPrivate: true,
  resolveMap: Object.fromEntries(hosts.map((h) => [h, '127.0.0.1'])),
  timeoutMs: 5000,
});

const REAL = [
  ['tensorfeed.ai', 'tensorfeed.ai__well-known_x402.json'],
  ['apimesh.xyz', 'apimesh.xyz__well-known_x402.json'],
  ['x402.printmoneylab.com', 'x402.printmoneylab.com__well-known_x402.json'],
  ['polymarket-scan-api.tatsu77.workers.dev', 'polymarket-scan-api__well-known_x402.json'],
  ['mcp.warpgbm.ai', 'mcp.warpgbm.ai__well-known_x402.json'],
  ['finality.accuracy.wtf', 'finality.accuracy.wtf__well-known_x402.json'],
] as const;
const realFiles = REAL.map(([, f]) => `x402/well-known/${f}`);
const gate = realdataGate('well-known ingest of the six real documents', realFiles);

describe.skipIf(!gate.present)('ingest well-known: the six real documents, served on 127.0.0.1', () => {
  let srv: HostServer;
  beforeAll(async () => {
    const bodies = new Map<string, Buffer>(REAL.map(([h, f]) => [h, readFileSync(join(realdataDir(), 'x402', 'well-known', f))]));
    srv = await hostServer((h) => (bodies.has(h) ? { body: bodies.get(h)! } : undefined));
  });
  afterAll(async () => {
    await srv.close();
  });

  it('counts per dialect; 24 + 21 + 1 resources become services, each recorded under its origin', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir, { now: '2026-11-27T12:00:00Z' });
      const origins = REAL.map(([h]) => `http://${h}:${srv.port}`);
      const r = await ingestWellKnown(ctx, store, { origins, edge: localEdge(REAL.map(([h]) => h)) });
      expect(r.counts).toMatchObject({
        origins: 6,
        read: 6,
        outcomes: { resources: 2, endpoints: 1, index_pointer: 1, free_form: 1, metadata_only: 1 },
        declared: 46,
        inserted: 46,
        skipped: {},
      });
      expect(r.counts.noted).toEqual({ absolute_url: 21, subdomain_url: 21, stated_price: 1 });
      const perRegistry = await store.all<{ registry: string; n: number }>(
        "SELECT registry, count(*)::INTEGER AS n FROM services WHERE registry LIKE 'well-known:%' GROUP BY ALL ORDER BY registry",
      );
      expect(perRegistry).toEqual([
        { registry: `well-known:apimesh.xyz:${srv.port}`, n: 21 },
        { registry: `well-known:polymarket-scan-api.tatsu77.workers.dev:${srv.port}`, n: 1 },
        { registry: `well-known:tensorfeed.ai:${srv.port}`, n: 24 },
      ]);
      const poly = await store.all<{ url: string; method: string; registry_networks: string[]; registry_price_usd: number | null }>(
        "SELECT url, method, registry_networks, registry_price_usd FROM services WHERE host LIKE 'polymarket%'",
      );
      expect(poly).toEqual([
        {
          url: `http://polymarket-scan-api.tatsu77.workers.dev:${srv.port}/scan/liquidity-anomaly`,
          method: 'GET',
          registry_networks: ['eip155:8453'],
          registry_price_usd: null,
        },
      ]);
      const templated = await store.all<{ n: number }>(
        "SELECT count(*)::INTEGER AS n FROM services WHERE templated_url AND host = 'tensorfeed.ai'",
      );
      expect(templated[0]!.n).toBe(2); // /providers/{name} and /series/{source}/{series_id}
      const ops = await store.all<{ n: number }>("SELECT count(*)::INTEGER AS n FROM operations WHERE pass_rule = 'x402-mainnet/2'");
      expect(ops[0]!.n).toBe(46);
      // Resource URLs are never fetched during ingest: only the six documents were requested.
      expect(srv.requests.every((u) => u.endsWith('/.well-known/x402'))).toBe(true);
    });
  }, 30_000);
});

describe('ingest well-known: hostile origins and history', () => {
  let srv: HostServer;
  let doc: Record<string, unknown> = { version: 1, resources: ['GET /a', 'POST /b'] };
  beforeAll(async () => {
    srv = await hostServer((h) => {
      if (h === 'shop.test') return { body: JSON.stringify(doc) };
      if (h === 'big.test') return { body: Buffer.alloc(300 * 1024, 0x20) };
      if (h === 'text.test') return { body: '<html>not json</html>' };
      if (h === 'redirect.test') return { status: 302, headers: { location: 'http://10.0.0.1/.well-known/x402' }, body: '' };
      if (h === 'deep.test') return { body: `${'['.repeat(100)}${']'.repeat(100)}` };
      return undefined;
    });
  });
  afterAll(async () => {
    await srv.close();
  });
  const hosts = ['shop.test', 'big.test', 'text.test', 'redirect.test', 'deep.test', 'gone.test'];
  const origins = () => hosts.map((h) => `http://${h}:${srv.port}`);

  it('too big, not JSON, redirect (never followed), too deep, 404: counted per outcome, nothing stored for them', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir, { now: '2026-11-27T12:00:00Z' });
      const r = await ingestWellKnown(ctx, store, { origins: origins(), edge: localEdge(hosts) });
      expect(r.counts.outcomes).toEqual({ resources: 1, too_large: 2, not_json: 1, redirect: 1, http_status: 1 });
      expect(r.counts).toMatchObject({ origins: 6, read: 1, inserted: 2 });
      expect(srv.requests.filter((u) => u.startsWith('redirect.test'))).toHaveLength(1);
      const run = await store.all<{ kind: string; status: string }>("SELECT kind, status FROM runs WHERE kind = 'ingest_well_known'");
      expect(run).toEqual([{ kind: 'ingest_well_known', status: 'partial' }]);
    });
  });

  it('a document read again delists what it no longer declares; an origin that fails changes nothing', async () => {
    await withTestStore(async (store, dir) => {
      const clock = testClock('2026-11-27T12:00:00Z');
      const ctx = makeContext(dir, { clock });
      const shop = [`http://shop.test:${srv.port}`];
      doc = { version: 1, resources: ['GET /a', 'POST /b'] };
      await ingestWellKnown(ctx, store, { origins: shop, edge: localEdge(hosts) });
      clock.advance(86_400_000);
      doc = { version: 1, resources: ['GET /a'] };
      const second = await ingestWellKnown(ctx, store, { origins: shop, edge: localEdge(hosts) });
      expect(second.counts).toMatchObject({ updated: 1, delisted_missing: 1 });
      clock.advance(86_400_000);
      // The origin is now unreachable (refused at the guard): nothing is delisted.
      const third = await ingestWellKnown(ctx, store, { origins: shop, edge: { ...localEdge(hosts), allowPrivate: false } });
      expect(third.counts).toMatchObject({ read: 0, delisted_missing: 0, outcomes: { blocked_address: 1 } });
      const rows = await store.all<{ url: string; listed: boolean }>('SELECT url, listed FROM services ORDER BY url');
      expect(rows).toEqual([
        { url: `http://shop.test:${srv.port}/a`, listed: true },
        { url: `http://shop.test:${srv.port}/b`, listed: false },
      ]);
      const events = await store.all<{ reason: string; registry: string }>(
        'SELECT reason, registry FROM listing_events ORDER BY event_at, reason',
      );
      expect(events.map((e) => e.reason)).toEqual(['first_seen', 'first_seen', 'missing_from_sweep']);
      expect(new Set(events.map((e) => e.registry))).toEqual(new Set([`well-known:shop.test:${srv.port}`]));
      doc = { version: 1, resources: ['GET /a', 'POST /b'] };
    });
  }, 30_000);

  it('a resource another source already tracks is left to it and counted', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir, { now: '2026-11-27T12:00:00Z' });
      const origin = `http://shop.test:${srv.port}`;
      const [rec] = wellKnownRecords(parse({ resources: ['GET /a'] }, origin), origin, ctx.secret);
      await store.transaction(() =>
        mergeDiscovered(store, [rec!], { registry: 'cdp', protocol: 'x402', now: new Date('2026-11-26T00:00:00Z'), delistMissing: false }),
      );
      const r = await ingestWellKnown(ctx, store, { origins: [origin], edge: localEdge(hosts) });
      expect(r.counts).toMatchObject({ inserted: 1, skipped: { listed_by_other_source: 1 } });
      const owners = await store.all<{ registry: string }>('SELECT registry FROM services ORDER BY registry');
      expect(owners.map((o) => o.registry)).toEqual(['cdp', `well-known:shop.test:${srv.port}`]);
    });
  });
});

/**
 * The address guard on the document fetch. Beneath it every test runs behind the loopback-only guard
 * (test/net/no-egress.mjs): a connect to anything but loopback is refused and fails the test, so a
 * broken guard here could not send a packet out; the loopback server counts what reached it.
 */
describe('ingest well-known: the address guard sends nothing to refused origins', () => {
  let srv: HostServer;
  beforeAll(async () => {
    srv = await hostServer(() => ({ body: JSON.stringify({ resources: ['GET /a'] }) }));
  });
  afterAll(async () => {
    await srv.close();
  });

  it('names resolving to private addresses (static map or DNS) and private literals are refused before connecting', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir, { now: '2026-11-27T12:00:00Z' });
      let r: WellKnownIngestResult = await ingestWellKnown(ctx, store, {
        origins: [`http://evil.example:${srv.port}`, `http://127.0.0.1:${srv.port}`, 'http://169.254.169.254', 'https://10.1.2.3'],
        edge: { allowPrivate: false, resolveMap: { 'evil.example': '127.0.0.1' }, timeoutMs: 5000 },
      });
      expect(r.counts.outcomes).toEqual({ blocked_address: 4 });
      r = await ingestWellKnown(ctx, store, {
        origins: [`http://rebind.example:${srv.port}`, `http://mixed.example:${srv.port}`],
        edge: {
          allowPrivate: false,
          resolveMap: {},
          timeoutMs: 5000,
          resolver: async (h) =>
            h === 'rebind.example'
              ? [{ address: '127.0.0.1', family: 4 }]
              : [
                  { address: '93.184.216.34', family: 4 },
                  { address: '10.1.2.3', family: 4 },
                ],
        },
      });
      expect(r.counts.outcomes).toEqual({ blocked_address: 2 });
      expect({ connections: srv.connections, requests: srv.requests }).toEqual({ connections: 0, requests: [] });
      const n = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM services');
      expect(n[0]!.n).toBe(0);
    });
  });
});

describe('atlas ingest well-known (CLI)', () => {
  it('reads the origins file and prints one line per outcome and reason; a bad line is one stderr line and exit 2', async () => {
    const t = tempDir();
    const srv = await hostServer((h) =>
      h === 'shop.test' ? { body: JSON.stringify({ resources: ['GET /a', 'GET https://x.example/b'] }) } : undefined,
    );
    try {
      const config = join(t.dir, 'atlas.config.json');
      writeFileSync(config, JSON.stringify({ probe: { allowPrivate: true, resolve: { 'shop.test': '127.0.0.1' } } }));
      const origins = join(t.dir, 'origins.txt');
      writeFileSync(origins, `# sellers\nhttp://shop.test:${srv.port}\n`);
      const ok = await runCli(['--data', t.dir, '--config', config, 'ingest', 'well-known', '--origins', origins]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain('well-known: 1 of 1 origin(s) read, 2 resources declared, 1 kept (1 new');
      expect(ok.stderr).toContain('well-known: origins 1 resources');
      expect(ok.stderr).toContain('well-known: skipped 1 other_host');
      writeFileSync(origins, 'shop.test\nhttps://shop.test/path\n');
      const bad = await runCliInProcess(['--data', t.dir, '--config', config, 'ingest', 'well-known', '--origins', origins]);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toContain('origins.txt:2: not an origin');
    } finally {
      await srv.close();
      t.cleanup();
    }
  }, 120_000);
});
