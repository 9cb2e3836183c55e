import { buildOpenApi } from '../../site/contract/openapi.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../pipeline/core/config.ts';
import type { Context } from '../../pipeline/core/context.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { computeAll } from '../../pipeline/compute/index.ts';
import { staticMcpPage, staticX402Page } from '../../pipeline/fleet/registry-static.ts';
import {
  httpJsonFetcher,
  ingestMcp,
  ingestX402,
  sweepMcpDocument,
  type McpIngestResult,
  type X402IngestResult,
} from '../../pipeline/ingest/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { publish } from '../../pipeline/publish/index.ts';
import { ServiceList } from '../../site/contract/index.ts';
import { createApp } from '../../serve/app.ts';
import { closeDeps, createDeps } from '../../serve/deps.ts';
import { mountPages } from '../../serve/pages/index.ts';
import { makeContext, tempDir, testClock } from '../helpers/context.ts';
import {
  expectMcp,
  expectX402,
  type McpExpected,
  readRealJson,
  REALDATA_FILES,
  realdataDir,
  type X402Expected,
} from '../helpers/realdata.ts';
import { realdataGate } from '../helpers/realdata-gate.ts';
import { serveJson } from '../pipeline/ingest/support.ts';

/**
 * The real public registry data (test/helpers/realdata.ts) end to end: ingest both registries,
 * compute, publish, and answer through the in-process app. Once through a loopback registry that
 * pages the data the way the real registries page (x402 limit/offset with pagination.total; MCP
 * /v0.1/servers cursors with version=latest), once from the dump files exactly as published (a
 * crawler's wrapper; a BOM-prefixed bare array of every version). Every expected figure is derived
 * from the raw files in this test.
 */
const NOW = '2026-01-01T00:00:00.000Z';
const ADDRESS = '198.51.100.7';

interface Run {
  x402: X402IngestResult;
  mcp: McpIngestResult;
}

async function pipeline(ctx: Context, ingest: (ctx: Context) => Promise<Run>): Promise<Run> {
  const run = await ingest(ctx);
  await withStore(ctx.paths.db, async (store) => {
    await computeAll(ctx, store, { scope: 'full' });
    await publish(ctx, store);
  });
  return run;
}

async function openApp(ctx: Context, dir: string) {
  const config = defaultConfig();
  config.serve.rateLimits.anonymousPerMinute = 1_000_000;
  config.serve.rateLimits.keyedPerMinute = 1_000_000;
  const deps = await createDeps({
    clock: ctx.clock,
    config,
    secret: ctx.secret,
    log: silentLogger,
    siteDir: ctx.paths.publicDir,
    inboxDir: join(dir, 'serve-inbox'),
    replicaId: 'test',
    mounts: [mountPages],
    openapi: buildOpenApi,
  });
  const app = createApp(deps);
  const req = (path: string) => Promise.resolve(app.request(path, undefined, { incoming: { socket: { remoteAddress: ADDRESS } } }));
  const json = async (path: string): Promise<Record<string, unknown>> => {
    const res = await req(path);
    expect(res.status, path).toBe(200);
    return res.json();
  };
  return { req, json, close: () => closeDeps(deps) };
}

type App = Awaited<ReturnType<typeof openApp>>;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function checkCounts(run: Run, x: X402Expected, m: McpExpected, mode: 'registry' | 'files'): void {
  const xs = [...x.services.keys()];
  expect(run.x402.counts).toMatchObject({ inserted: x.services.size, seen: x.services.size, rows: x.rows, complete: true });
  expect(run.x402.counts.skipped).toMatchObject({ unknown_type: x.notHttp, duplicate: x.duplicates, invalid_item: 0, invalid_url: 0 });
  expect(run.x402.counts.noted.http_url).toBe(xs.filter((u) => u.startsWith('http://')).length);
  expect(run.x402.counts.noted.testnet_only).toBe([...x.services.values()].filter((s) => s.mainnet === false).length);
  expect(x.notHttp).toBeGreaterThan(0);

  expect(run.mcp.counts).toMatchObject({ inserted: m.services.size, servers: m.names, complete: true });
  expect(run.mcp.counts.skipped).toMatchObject({
    no_remotes: m.noRemotes,
    duplicate_remote: m.duplicateRemotes,
    // A registry asked for version=latest serves no older versions; the dump lists them all.
    older_version: mode === 'files' ? m.olderVersions : 0,
    invalid_item: 0,
  });
  expect(run.mcp.counts.rows).toBe(mode === 'files' ? m.rows : m.names);
}

async function checkServed(app: App, x: X402Expected, m: McpExpected): Promise<void> {
  const xv = [...x.services.values()];
  const mv = [...m.services.values()];
  const total = x.services.size + m.services.size;

  // Every real service is in the index, once, with the URL its registry listed.
  const all: { id: string; url: string; name: string; host: string; type: string }[] = [];
  for (let offset = 0; ; offset += 100) {
    const body = ServiceList.parse(await app.json(`/api/v1/services?scope=index&limit=100&offset=${offset}&sort=name`));
    expect(body.total).toBe(total);
    all.push(...body.items);
    if (body.items.length < 100) break;
  }
  expect(all).toHaveLength(total);
  expect(new Set(all.map((s) => s.id)).size).toBe(total);
  const urls = (list: { url: string }[]) => list.map((s) => s.url).sort();
  expect(urls(all.filter((s) => s.type === 'api_endpoint'))).toEqual([...x.services.keys()].sort());
  expect(urls(all.filter((s) => s.type === 'mcp_server'))).toEqual(urls(mv));

  // ... and readable one by one.
  for (const s of all) {
    const one = await app.json(`/api/v1/services/${s.id}`);
    expect(one.id).toBe(s.id);
    expect(one.url).toBe(s.url);
  }

  // Search parameters on real values.
  const count = async (qs: string) => ServiceList.parse(await app.json(`/api/v1/services?scope=index&limit=1&${qs}`)).total;
  const onBase = xv.filter((s) => s.networks.has('eip155:8453')).length;
  const mainnet = xv.filter((s) => s.mainnet === true).length;
  const testnet = xv.filter((s) => s.mainnet === false).length;
  const cheap = xv.filter((s) => s.microUsd !== null && s.microUsd <= 10_000).length;
  for (const n of [onBase, mainnet, testnet, cheap]) {
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(x.services.size);
  }
  expect(await count('network=base')).toBe(onBase);
  expect(await count('network=eip155:8453')).toBe(onBase);
  expect(await count('mainnet=true')).toBe(mainnet);
  expect(await count('mainnet=false')).toBe(testnet);
  expect(await count('max_price_usd=0.01')).toBe(cheap);

  // host=: the busiest real x402 host.
  const perHost = new Map<string, number>();
  for (const s of [...xv, ...mv]) perHost.set(s.host, (perHost.get(s.host) ?? 0) + 1);
  const busiest = xv.map((s) => s.host).sort((a, b) => perHost.get(b)! - perHost.get(a)! || (a < b ? -1 : 1))[0]!;
  expect(perHost.get(busiest)).toBeGreaterThan(1);
  expect(await count(`host=${busiest}`)).toBe(perHost.get(busiest));

  // q=: a real MCP title finds that server's remotes; every hit holds every word.
  const titled = mv
    .filter((s) => s.title && /^[A-Za-z0-9 ]+$/.test(s.title) && s.title.split(' ').length >= 2)
    .sort((a, b) => (a.name < b.name ? -1 : 1))[0]!;
  const words = titled.title!.toLowerCase().split(' ');
  const hits = ServiceList.parse(await app.json(`/api/v1/services?scope=index&limit=100&q=${encodeURIComponent(titled.title!)}`)).items;
  const wanted = mv.filter((s) => s.name === titled.name).map((s) => s.url);
  expect(hits.map((h) => h.url)).toEqual(expect.arrayContaining(wanted));
  for (const h of hits) for (const w of words) expect(`${h.name} ${h.host} ${h.url}`.toLowerCase()).toContain(w);

  // Pages render real registry text as text: every markup or ampersand fragment of it arrives
  // escaped, and a fragment with markup never arrives raw.
  const byUrl = new Map(all.map((s) => [s.url, s.id]));
  const texts = [
    ...[...x.services].map(([url, s]) => ({ url, text: s.description })),
    ...mv.flatMap((s) => [
      { url: s.url, text: s.title },
      { url: s.url, text: s.description },
    ]),
  ];
  let markup = 0;
  let fragments = 0;
  for (const { url, text } of texts) {
    const frags = (text?.match(/<[^<>\s"']{1,20}(?: [^<>\s"']{1,20})*>|[^\s"'<>]{0,20}&[^\s"'<>]{0,20}/g) ?? []).filter((f) =>
      /\S/.test(f),
    );
    if (frags.length === 0) continue;
    const res = await app.req(`/services/${byUrl.get(url)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const f of frags) {
      fragments++;
      expect(html, f).toContain(escapeHtml(f));
      if (f.includes('<')) {
        markup++;
        expect(html, f).not.toContain(f);
      }
    }
  }
  expect(markup).toBeGreaterThan(0);
  expect(fragments).toBeGreaterThan(markup);
}

const gate = realdataGate('real registry data end to end (test/integration/realdata.test.ts)', Object.values(REALDATA_FILES));

describe.skipIf(!gate.present)('real registry data end to end', () => {
  it('through a loopback registry that pages it like the real registries: all in the index, searchable, readable, safe', async () => {
    const real = realdataDir();
    const xRaw = readRealJson(real, REALDATA_FILES.x402);
    const mRaw = readRealJson(real, REALDATA_FILES.mcp);
    const x = expectX402(xRaw);
    const m = expectMcp(mRaw);
    const items = (xRaw as { resources: unknown[] }).resources;
    const entries = mRaw as unknown[];
    const registry = await serveJson((u) => {
      if (u.pathname === '/platform/v2/x402/discovery/resources') return { body: staticX402Page(items, u.searchParams) };
      if (u.pathname === '/v0.1/servers') return { body: staticMcpPage(entries, u.searchParams) };
      return { status: 404, body: { error: 'not found' } };
    });
    const t = tempDir();
    try {
      const ctx = makeContext(t.dir, { clock: testClock(NOW) });
      const fetcher = httpJsonFetcher({ retries: 0, timeoutMs: 10_000 });
      const run = await pipeline(ctx, (c) =>
        withStore(c.paths.db, async (store) => {
          await migrate(store, c.clock());
          return {
            x402: await ingestX402(c, store, { source: `${registry.url}/platform/v2/x402/discovery/resources`, fetcher }),
            mcp: await ingestMcp(c, store, { source: `${registry.url}/v0.1/servers`, fetcher, delayMs: 0 }),
          };
        }),
      );
      checkCounts(run, x, m, 'registry');
      const x402Pages = registry.requests.filter((r) => r.pathname.includes('discovery'));
      expect(x402Pages.map((r) => Number(r.searchParams.get('offset')))).toEqual(
        Array.from({ length: Math.ceil(x.rows / 100) }, (_, i) => i * 100),
      );
      const mcpPages = registry.requests.filter((r) => r.pathname === '/v0.1/servers');
      expect(mcpPages).toHaveLength(Math.ceil(m.names / 100));
      expect(mcpPages.every((r) => r.searchParams.get('version') === 'latest')).toBe(true);
      expect(mcpPages.slice(1).every((r) => r.searchParams.get('cursor'))).toBe(true);

      const app = await openApp(ctx, t.dir);
      try {
        await checkServed(app, x, m);
      } finally {
        await app.close();
      }
    } finally {
      await registry.close();
      t.cleanup();
    }
  }, 300_000);

  it('from the dump files as published (crawler wrapper; BOM-prefixed array of every version)', async () => {
    const real = realdataDir();
    const x = expectX402(readRealJson(real, REALDATA_FILES.x402));
    const m = expectMcp(readRealJson(real, REALDATA_FILES.mcp));
    // One real /v0/servers page as served (envelope, empty repository fields) reads as a page.
    const page = readRealJson(real, REALDATA_FILES.mcpPage) as { servers: { server: { name: string } }[] };
    const sample = sweepMcpDocument(page, REALDATA_FILES.mcpPage);
    expect(sample.entries.map((e) => e.server.name)).toEqual(page.servers.map((e) => e.server.name));
    expect(sample.entries.every((e) => (e.server.remotes ?? []).length > 0)).toBe(true);
    const t = tempDir();
    try {
      const ctx = makeContext(t.dir, { clock: testClock(NOW) });
      const run = await pipeline(ctx, (c) =>
        withStore(c.paths.db, async (store) => {
          await migrate(store, c.clock());
          return {
            x402: await ingestX402(c, store, { source: join(real, REALDATA_FILES.x402) }),
            mcp: await ingestMcp(c, store, { source: join(real, REALDATA_FILES.mcp) }),
          };
        }),
      );
      checkCounts(run, x, m, 'files');
      const app = await openApp(ctx, t.dir);
      try {
        await checkServed(app, x, m);
      } finally {
        await app.close();
      }
    } finally {
      t.cleanup();
    }
  }, 300_000);
});
