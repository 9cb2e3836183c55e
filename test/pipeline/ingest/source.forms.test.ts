import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  httpJsonFetcher,
  ingestMcp,
  ingestX402,
  normalizeX402Item,
  parseDocument,
  reasonLines,
  sweepMcpDocument,
  sweepMcpUrl,
  sweepX402Document,
  sweepX402Url,
} from '../../../pipeline/ingest/index.ts';
import { runCli } from '../../helpers/cli.ts';
import { makeContext, tempDir, withTestStore } from '../../helpers/context.ts';
import { mcpEntry, serveJson, x402Item } from './support.ts';

/**
 * The forms registries and their mirrors really serve (docs/notes/ingest.md, "File and mirror
 * forms"): bare arrays, crawler dumps, every-version dumps, JSON Lines, a BOM, gzip; and the quirks
 * of real items, each counted by reason.
 */
const BOM = '\uFEFF';
const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** A v1 item as the CDP registry returned them in late 2025 (v1 network name, maxAmountRequired, method in outputSchema). */
function v1Item(url: string, over: { network?: string; amount?: string; type?: string; method?: string } = {}): Record<string, unknown> {
  return {
    resource: url,
    type: over.type ?? 'http',
    x402Version: 1,
    lastUpdated: '2025-12-31T00:31:53.757Z',
    accepts: [
      {
        scheme: 'exact',
        network: over.network ?? 'base',
        maxAmountRequired: over.amount ?? '10000',
        asset: USDC_BASE,
        payTo: '0x83240485b70e5c820e5f180533fc6156470cfd0e',
        resource: url,
        outputSchema: over.method ? { input: { type: 'http', method: over.method } } : undefined,
      },
    ],
  };
}

function mcpVersion(name: string, version: string, meta: { isLatest?: boolean; publishedAt: string; status?: string }, url?: string) {
  return {
    server: { name, version, description: `${name} ${version}`, ...(url ? { remotes: [{ type: 'streamable-http', url }] } : {}) },
    _meta: {
      'io.modelcontextprotocol.registry/official': {
        status: meta.status ?? 'active',
        publishedAt: meta.publishedAt,
        updatedAt: meta.publishedAt,
        ...(meta.isLatest === undefined ? {} : { isLatest: meta.isLatest }),
      },
    },
  };
}

describe('registry document forms', () => {
  it('decodes gzip by its magic bytes (whatever the name), drops a BOM, and reads JSON Lines by name or by content', () => {
    const doc = { items: [x402Item('https://a.example/x')] };
    const text = BOM + JSON.stringify(doc);
    expect(parseDocument(Buffer.from(text), 'x.json')).toEqual(doc);
    expect(parseDocument(gzipSync(Buffer.from(text)), 'x.json')).toEqual(doc);
    const lines = `${BOM}${JSON.stringify({ a: 1 })}\n\n${JSON.stringify({ b: 2 })}\n`;
    expect(parseDocument(Buffer.from(lines), 'https://mirror.example/all')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseDocument(gzipSync(Buffer.from(lines)), 'dump.jsonl.gz')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(() => parseDocument(Buffer.from('{"a":1}\n{oops'), 'x.json')).toThrow(/x\.json: not JSON/);
    expect(() => parseDocument(Buffer.from([0x1f, 0x8b, 0, 1, 2]), 'x.json')).toThrow(/gzip data could not be read/);
    expect(() => parseDocument(gzipSync(Buffer.alloc(4096, 32)), 'x.json', { maxBytes: 1024 })).toThrow(/gzip/);
  });

  it('x402: a bare item array, a crawler dump (partial or not) and pages; rows of an unknown type are skipped before de-duplication', () => {
    const url = 'https://api.example/brain-chat';
    // The real dump lists a URL as `http` and again as `object`: whichever comes first, the http row is the service.
    const items = [v1Item(url, { type: 'object' }), v1Item(url), v1Item('https://b.example/y'), v1Item('https://b.example/y'), 'junk'];
    const bare = sweepX402Document(items, 'f');
    expect(bare).toMatchObject({ pages: 1, rows: 5, unknown_type: 1, duplicates: 1, invalid_item: 1, complete: true });
    expect(bare.items.map((i) => [i.raw.resource, i.raw.type])).toEqual([
      [url, 'http'],
      ['https://b.example/y', 'http'],
    ]);
    const dump = sweepX402Document({ resources: items, total: 5, crawledAt: '2025-12-31T00:34:27Z', partial: false }, 'f');
    expect(dump).toMatchObject({ pages: 1, rows: 5, unknown_type: 1, duplicates: 1, complete: true });
    expect(sweepX402Document({ resources: items, partial: true }, 'f').complete).toBe(false);
    const pages = sweepX402Document([{ items: [v1Item(url)] }, { resources: [v1Item('https://c.example/')] }], 'f');
    expect(pages).toMatchObject({ pages: 2, rows: 2 });
    // What is not a registry fails the source instead of emptying the index.
    expect(() => sweepX402Document([{ a: 1 }, 2], 'f')).toThrow(/not an x402 registry/);
    expect(() => sweepX402Document({ error: 'rate limited' }, 'f')).toThrow(/not a discovery\/resources page/);
    expect(() => sweepX402Document([{ items: [] }, { pagination: {} }], 'f')).toThrow(/page 2/);
  });

  it('x402: counts the quirks of the items it keeps', () => {
    const q = (raw: unknown, pageVersion: number | null = null) => {
      const n = normalizeX402Item(raw, { pageVersion, secret: 's' });
      if (!n.ok) throw new Error(n.reason);
      return { quirks: [...n.quirks].sort(), record: n.record };
    };
    const plain = q(v1Item('https://a.example/x', { method: 'post' }));
    expect(plain.quirks).toEqual(['method_from_output_schema', 'v1_network_name']);
    expect(plain.record).toMatchObject({ method: 'POST', registry_networks: ['eip155:8453'], registry_price_usd: 0.01, x402_version: 1 });
    expect(q(v1Item('http://a.example/x', { network: 'base-sepolia', amount: '' })).quirks).toEqual([
      'empty_amount',
      'http_url',
      'method_defaulted',
      'testnet_only',
      'v1_network_name',
    ]);
    const caip = q(v1Item('https://a.example/x', { network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', amount: '$0.01', method: 'GET' }));
    expect(caip.quirks).toEqual(['caip2_in_v1_body', 'method_from_output_schema', 'non_numeric_amount']);
    expect(caip.record.registry_price_usd).toBeNull();
    const caip19 = v1Item('https://a.example/x', { method: 'GET' });
    (caip19.accepts as Record<string, unknown>[])[0]!.asset = `eip155:8453/erc20:${USDC_BASE}`;
    expect(q(caip19).quirks).toEqual(['caip19_asset', 'method_from_output_schema', 'v1_network_name']);
    expect(q(caip19).record.registry_price_usd).toBe(0.01);
    // Only on the offer's own chain: a CAIP-19 id of another chain is not this offer's address.
    (caip19.accepts as Record<string, unknown>[])[0]!.asset = `eip155:1/erc20:${USDC_BASE}`;
    expect(q(caip19).record.registry_price_usd).toBeNull();
    expect(q({ resource: 'https://a.example/x', accepts: [{ scheme: 'exact' }, 7] }, 2).quirks).toEqual([
      'invalid_accept',
      'method_defaulted',
      'no_accepts',
    ]);
    expect(q(x402Item('https://a.example/x', { extensions: { bazaar: { info: { input: { method: 'GET' } } } } })).quirks).toEqual([]);
  });

  it('mcp: a dump of every version keeps the isLatest one, else the one published last', () => {
    const doc = [
      mcpVersion('io.a/one', '1.0.0', { isLatest: false, publishedAt: '2025-12-01T00:00:00Z' }, 'https://one.example/old'),
      mcpVersion('io.a/one', '0.9.0', { isLatest: true, publishedAt: '2025-09-01T00:00:00Z' }, 'https://one.example/mcp'),
      mcpVersion('io.a/two', '1.0.0', { publishedAt: '2025-09-01T00:00:00Z' }, 'https://two.example/old'),
      mcpVersion('io.a/two', '1.1.0', { publishedAt: '2025-10-01T00:00:00Z' }, 'https://two.example/mcp'),
      mcpVersion('io.a/two', '1.0.1', { publishedAt: '2025-09-15T00:00:00Z' }, 'https://two.example/mid'),
      { server: { description: 'no name' } },
    ];
    const s = sweepMcpDocument(doc, 'f');
    expect(s).toMatchObject({ pages: 1, rows: 6, invalid_item: 1, older_version: 3, complete: true });
    expect(s.entries.map((e) => [e.server.name, e.server.version])).toEqual([
      ['io.a/one', '0.9.0'],
      ['io.a/two', '1.1.0'],
    ]);
    expect(sweepMcpDocument([{ servers: doc.slice(0, 2) }, { servers: doc.slice(2) }], 'f')).toMatchObject({ pages: 2, older_version: 3 });
    expect(() => sweepMcpDocument([{ a: 1 }], 'f')).toThrow(/not an MCP registry/);
    expect(() => sweepMcpDocument([{ servers: [] }, { a: 1 }], 'f')).toThrow(/page 2/);
  });

  it('reasonLines prints one line per reason, largest first, and says when nothing was skipped', () => {
    expect(reasonLines('x402 cdp', { not_http: 2, duplicate: 0, invalid_url: 5 }, { http_url: 40 })).toEqual([
      'x402 cdp: skipped 5 invalid_url',
      'x402 cdp: skipped 2 not_http',
      'x402 cdp: kept 40 http_url',
    ]);
    expect(reasonLines('mcp official', {}, {})).toEqual(['mcp official: skipped nothing']);
  });
});

describe('ingesting the forms', () => {
  it('x402: a gzip, BOM-prefixed crawler dump; skips and quirks land in the run counts', async () => {
    await withTestStore(async (store, dir) => {
      const file = join(dir, 'bazaar.json');
      const items = [
        v1Item('https://a.example/x', { method: 'POST' }),
        v1Item('https://a.example/x', { type: 'object' }),
        v1Item('http://b.example/'),
      ];
      writeFileSync(file, gzipSync(Buffer.from(BOM + JSON.stringify({ resources: items, total: 3, partial: false }))));
      const r = await ingestX402(makeContext(dir), store, { source: file });
      expect(r.counts).toMatchObject({ inserted: 2, rows: 3, not_http: 1, complete: true });
      expect(r.counts.skipped).toMatchObject({ unknown_type: 1, duplicate: 0, invalid_item: 0, invalid_url: 0 });
      expect(r.counts.noted).toEqual({ v1_network_name: 2, method_from_output_schema: 1, method_defaulted: 1, http_url: 1 });
      const runs = await store.all<{ counts: string }>("SELECT counts::VARCHAR AS counts FROM runs WHERE kind = 'ingest_x402'");
      expect(JSON.parse(runs[0]!.counts)).toMatchObject({ skipped: { unknown_type: 1 }, noted: { http_url: 1 } });
      const rows = await store.all<{ method: string; url: string }>('SELECT method, url FROM services ORDER BY url');
      expect(rows).toEqual(
        [
          { method: 'POST', url: 'https://a.example/x' },
          { method: 'GET', url: 'http://b.example/' },
        ].sort((a, b) => (a.url < b.url ? -1 : 1)),
      );
    });
  });

  it('x402: a mirror URL that serves the whole registry as one bare array is read once', async () => {
    const items = [v1Item('https://a.example/x'), v1Item('https://b.example/y')];
    const srv = await serveJson(() => ({ body: items }));
    try {
      const s = await sweepX402Url(httpJsonFetcher({ retries: 0 }), `${srv.url}/bazaar.json`, { pageSize: 1, maxPages: 10 });
      expect(s).toMatchObject({ pages: 1, rows: 2, complete: true });
      expect(srv.requests).toHaveLength(1);
    } finally {
      await srv.close();
    }
  });

  it('x402: without a total, a page of only rows of an unknown type is not taken for the registry repeating itself', async () => {
    const rows = [v1Item('https://a.example/'), v1Item('https://b.example/', { type: 'object' }), v1Item('https://c.example/')];
    const srv = await serveJson((u) => {
      const offset = Number(u.searchParams.get('offset'));
      return { body: { x402Version: 1, items: rows.slice(offset, offset + 1), pagination: { limit: 1, offset } } };
    });
    try {
      const s = await sweepX402Url(httpJsonFetcher({ retries: 0 }), `${srv.url}/discovery/resources`, { pageSize: 1, maxPages: 10 });
      expect(s).toMatchObject({ rows: 3, unknown_type: 1, complete: true });
      expect(s.items.map((i) => i.raw.resource)).toEqual(['https://a.example/', 'https://c.example/']);
    } finally {
      await srv.close();
    }
  });

  it('mcp: a mirror URL serving a gzip, BOM-prefixed JSON Lines dump (no Content-Encoding) is read once, latest versions kept', async () => {
    const lines = [
      mcpVersion('io.a/one', '0.1.0', { isLatest: false, publishedAt: '2025-09-01T00:00:00Z' }, 'https://one.example/old'),
      mcpVersion('io.a/one', '1.0.0', { isLatest: true, publishedAt: '2025-12-01T00:00:00Z' }, 'https://one.example/mcp'),
    ];
    const body = gzipSync(Buffer.from(`${BOM}${lines.map((l) => JSON.stringify(l)).join('\n')}\n`));
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/servers.jsonl.gz`;
      const s = await sweepMcpUrl(httpJsonFetcher({ retries: 0 }), url, { pageSize: 100, maxPages: 10, delayMs: 0 });
      expect(s).toMatchObject({ pages: 1, rows: 2, older_version: 1, complete: true });
      expect(s.entries.map((e) => e.server.version)).toEqual(['1.0.0']);
      expect(seen).toHaveLength(1);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('mcp: a JSON Lines dump of every version with deprecated and deleted entries; each reason is counted', async () => {
    await withTestStore(async (store, dir) => {
      const file = join(dir, 'servers.jsonl');
      const entries = [
        mcpVersion('io.a/one', '1.0.0', { isLatest: true, publishedAt: '2025-12-01T00:00:00Z' }, 'https://one.example/mcp'),
        mcpVersion('io.a/one', '0.1.0', { isLatest: false, publishedAt: '2025-09-01T00:00:00Z' }, 'https://one.example/old'),
        mcpVersion(
          'io.a/old',
          '1.0.0',
          { isLatest: true, publishedAt: '2025-10-01T00:00:00Z', status: 'deprecated' },
          'https://old.example/sse',
        ),
        mcpVersion('io.a/plain', '1.0.0', { isLatest: true, publishedAt: '2025-10-01T00:00:00Z' }, 'http://plain.example/mcp'),
        mcpVersion('io.a/host', '1.0.0', { isLatest: true, publishedAt: '2025-10-01T00:00:00Z' }, 'https://{host}/mcp'),
        mcpVersion(
          'io.a/gone',
          '1.0.0',
          { isLatest: true, publishedAt: '2025-10-01T00:00:00Z', status: 'deleted' },
          'https://gone.example/mcp',
        ),
        mcpVersion('io.a/pkg', '1.0.0', { isLatest: true, publishedAt: '2025-10-01T00:00:00Z' }),
        mcpEntry('io.a/twice', 'https://t.example/mcp', 'active', '2025-10-01T00:00:00Z', {
          remotes: [
            { type: 'streamable-http', url: 'https://t.example/mcp', headers: [{ name: 'Authorization', isRequired: true }] },
            { type: 'sse', url: 'https://t.example/mcp' },
          ],
        }),
      ];
      writeFileSync(file, `${BOM}${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
      const r = await ingestMcp(makeContext(dir), store, { source: file });
      expect(r.counts).toMatchObject({ servers: 7, inserted: 2, deleted: 1, deprecated: 1, complete: true });
      expect(r.counts.skipped).toMatchObject({
        older_version: 1,
        no_remotes: 1,
        duplicate_remote: 1,
        withdrawn_untracked: 2,
        not_https: 1,
        unfilled_placeholder: 1,
        invalid_item: 0,
      });
      expect(r.counts.noted).toEqual({ remote_headers: 1 });
      const rows = await store.all<{ mcp_server_name: string; mcp_status: string; listed: boolean }>(
        'SELECT mcp_server_name, mcp_status, listed FROM services ORDER BY mcp_server_name',
      );
      expect(rows).toEqual([
        { mcp_server_name: 'io.a/one', mcp_status: 'active', listed: true },
        { mcp_server_name: 'io.a/twice', mcp_status: 'active', listed: true },
      ]);
    });
  }, 30_000);

  it('the CLI prints one line per skip reason after the summary', async () => {
    const t = tempDir();
    try {
      const file = join(t.dir, 'bazaar.json');
      writeFileSync(
        file,
        JSON.stringify([v1Item('https://a.example/x'), v1Item('https://a.example/x', { type: 'object' }), v1Item('https://a.example/x')]),
      );
      const r = await runCli(['--data', t.dir, '--now', '2026-11-25T12:00:00Z', 'ingest', 'x402', '--source', file]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^x402 cdp: 1 resources from 1 page\(s\)/m);
      expect(r.stderr).toMatch(/^x402 cdp: skipped 1 duplicate$/m);
      expect(r.stderr).toMatch(/^x402 cdp: skipped 1 unknown_type$/m);
      expect(r.stderr).toMatch(/^x402 cdp: kept 1 v1_network_name$/m);
    } finally {
      t.cleanup();
    }
  }, 120_000);
});
