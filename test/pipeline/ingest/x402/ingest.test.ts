import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_DATA } from '../../../../pipeline/core/paths.ts';
import { httpJsonFetcher, ingestX402, x402CandidateId } from '../../../../pipeline/ingest/index.ts';
import { isMainnet } from '../../../../site/contract/networks.ts';
import { runCli, runCliInProcess } from '../../../helpers/cli.ts';
import { makeContext, tempDir, testClock, withTestStore } from '../../../helpers/context.ts';
import { dumpIngestTables, serveJson, x402Item } from '../support.ts';

const SAMPLE = join(PROJECT_DATA, 'samples', 'x402-registry.json');
const noRetry = httpJsonFetcher({ retries: 0, timeoutMs: 5000 });

/** A registry of `urls` that pages by offset/limit, with quirks switchable per test. */
function registry(urls: () => string[], quirks: { cap?: number; total?: boolean; hidden?: Set<string>; repeatPastEnd?: boolean } = {}) {
  return (u: URL) => {
    const all = urls();
    const limit = Math.min(Number(u.searchParams.get('limit') ?? 100), quirks.cap ?? 1000);
    const offset = Number(u.searchParams.get('offset') ?? 0);
    let slice = all.slice(offset, offset + limit);
    if (slice.length === 0 && quirks.repeatPastEnd) slice = all.slice(-3); // paging past the end repeats rows
    // Rows filtered after paging make short pages mid-run.
    const items = slice.filter((x) => !quirks.hidden?.has(x)).map((x) => x402Item(x));
    return { body: { x402Version: 2, items, pagination: { limit, offset, ...(quirks.total === false ? {} : { total: all.length }) } } };
  };
}

describe('x402 registry ingest', () => {
  it('loads the sample snapshot; a second run gives the same rows and ids', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir);
      const a = await ingestX402(ctx, store, { source: SAMPLE });
      expect(a.counts).toMatchObject({
        pages: 4,
        duplicates: 5,
        invalid_url: 1,
        unknown_type: 0,
        mcp_servers: 1,
        decoy_prices: 1,
        complete: true,
      });
      expect(a.counts.inserted).toBeGreaterThanOrEqual(60);
      const first = await dumpIngestTables(store);
      const b = await ingestX402(ctx, store, { source: SAMPLE });
      expect(b.counts).toMatchObject({ inserted: 0, updated: a.counts.inserted, delisted_missing: 0 });
      expect(await dumpIngestTables(store)).toEqual(first);

      const stats = await store.all<Record<string, number | string>>(`
        SELECT count(*)::INT AS n, count(DISTINCT host)::INT AS hosts, count(*) FILTER (templated_url)::INT AS templated,
               count(*) FILTER (x402_version = 1)::INT AS v1, count(*) FILTER (x402_version = 2)::INT AS v2,
               count(*) FILTER (registry_price_usd IS NULL)::INT AS unpriced, count(*) FILTER (registry_price_usd >= 1000)::INT AS decoys,
               count(*) FILTER (list_contains(registry_networks, 'eip155:84532'))::INT AS testnet,

               count(*) FILTER (method = 'POST')::INT AS post
        FROM services WHERE tier = 'discovered' AND protocol = 'x402'`);
      expect(stats[0]).toMatchObject({ decoys: 1 });
      // Test-network tokens are not dollars: every endpoint without a mainnet offer is unpriced; of
      // those with one, a single item offers no known stablecoin.
      // An item whose mainnet offers are all `upto` states only a maximum (registry_max_prices), no price.
      const prices = await store.all<{ networks: string[]; price: number | null; max: number | null }>(
        `SELECT s.registry_networks AS networks, s.registry_price_usd AS price, m.max_price_usd AS max
         FROM services s LEFT JOIN registry_max_prices m ON m.service_id = s.id WHERE s.tier = 'discovered' AND s.protocol = 'x402'`,
      );
      const noMainnet = prices.filter((r) => !r.networks.some(isMainnet));
      expect(noMainnet.length).toBeGreaterThan(0);
      expect(noMainnet.filter((r) => r.price !== null || r.max !== null)).toEqual([]);
      const maxOnly = prices.filter((r) => r.networks.some(isMainnet) && r.price === null && r.max !== null);
      expect(maxOnly.length).toBeGreaterThan(0);
      expect(prices.filter((r) => r.networks.some(isMainnet) && r.price === null && r.max === null)).toHaveLength(1);
      expect(Number(stats[0]!.unpriced)).toBe(noMainnet.length + maxOnly.length + 1);
      for (const k of ['templated', 'v1', 'v2', 'testnet', 'post']) expect(Number(stats[0]![k])).toBeGreaterThan(0);
      const ops = await store.all(
        "SELECT DISTINCT kind, is_primary, pass_rule, interval_hours, id FROM operations WHERE service_id LIKE 'cand_%'",
      );
      // The sample's one `type: "mcp"` item is the MCP server it names, reached with mcp-reach/3.
      expect(ops).toEqual(
        expect.arrayContaining([
          { kind: 'call', is_primary: true, pass_rule: 'x402-mainnet/2', interval_hours: 24, id: 'primary' },
          { kind: 'call', is_primary: true, pass_rule: 'mcp-reach/3', interval_hours: 24, id: 'primary' },
        ]),
      );
      expect(ops).toHaveLength(2);
      const mcp = await store.all("SELECT type, protocol, url, remote_type FROM services WHERE tier = 'discovered' AND protocol = 'mcp'");
      expect(mcp).toEqual([
        { type: 'mcp_server', protocol: 'mcp', url: 'https://tools.mcp-over-x402.example/mcp', remote_type: 'streamable-http' },
      ]);
      const ic = await store.all("SELECT DISTINCT from_hours, to_hours, rule, reason FROM interval_changes WHERE service_id LIKE 'cand_%'");
      expect(ic).toEqual([{ from_hours: null, to_hours: 24, rule: 'schedule/1', reason: 'new_until_third_probe' }]);
      const runs = await store.all<{ status: string }>("SELECT status FROM runs WHERE kind = 'ingest_x402'");
      expect(runs).toEqual([{ status: 'ok' }, { status: 'ok' }]);
    });
  }, 60_000);

  it('stores hostile registry text sanitized', async () => {
    await withTestStore(async (store, dir) => {
      const s = await serveJson(() => ({
        body: {
          items: [
            x402Item('https://evil.example/x', {
              serviceName: `Safe\u202Egnp.exe\u0007 <script>alert(1)</script>${'N'.repeat(10_240)}`,
              description: 'desc\u0000\u001b\u200Bok',
              tags: ['<script>', 'A\u202EB'],
            }),
          ],
          pagination: { limit: 100, offset: 0, total: 1 },
        },
      }));
      try {
        await ingestX402(makeContext(dir), store, { source: `${s.url}/discovery/resources`, fetcher: noRetry });
        const [row] = await store.all<{ name: string; description: string; tags: string[]; raw: string }>(
          "SELECT name, description, tags, registry_raw::VARCHAR AS raw FROM services WHERE host = 'evil.example'",
        );
        // A 10 kB serviceName is dropped (soft-dropped metadata, counted), so the host names the service.
        expect(row!.name).toBe('evil.example');
        expect(row!.raw).not.toContain('NNNN');
        expect(row!.description).toBe('descok');
        expect(row!.tags).toEqual(['script', 'ab']);
        expect(row!.raw).not.toMatch(/\\u202e|\\u0007|\\u0000|\\u200b/i);
        expect(row!.raw.length).toBeLessThan(8000);
      } finally {
        await s.close();
      }
    });
  }, 30_000);

  it('survives paging quirks: capped limit, short pages mid-run, rows repeated past the end — each resource once', async () => {
    const urls = Array.from({ length: 27 }, (_, i) => `https://q${i}.example/r`);
    const hidden = new Set([urls[11]!, urls[12]!]); // page 2 comes back short
    for (const total of [true, false]) {
      await withTestStore(async (store, dir) => {
        const s = await serveJson(registry(() => urls, { cap: 10, total, hidden, repeatPastEnd: true }));
        try {
          const r = await ingestX402(makeContext(dir), store, { source: `${s.url}/discovery/resources`, fetcher: noRetry, pageSize: 100 });
          const got = (await store.all<{ url: string }>("SELECT url FROM services WHERE tier = 'discovered' ORDER BY url")).map(
            (x) => x.url,
          );
          expect(got).toEqual(urls.filter((u) => !hidden.has(u)).sort());
          expect(r.counts.complete).toBe(true);
          const offsets = s.requests.map((q) => q.searchParams.get('offset'));
          // Stepped by the echoed limit (10), not the requested one (100) nor the rows received.
          expect(offsets.slice(0, 3)).toEqual(['0', '10', '20']);
          // No type filter: http and mcp items are both read.
          expect(s.requests[0]!.searchParams.has('type')).toBe(false);
          if (total) expect(offsets).toEqual(['0', '10', '20']);
          else {
            expect(offsets).toEqual(['0', '10', '20', '30']); // the 4th page repeated rows: stop
            expect(r.counts.duplicates).toBe(3);
          }
        } finally {
          await s.close();
        }
      });
    }
  }, 60_000);

  it('a malformed page or a failure mid-sweep leaves the database unchanged and records a failed run', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir);
      const urls = Array.from({ length: 25 }, (_, i) => `https://m${i}.example/r`);
      let mode: 'ok' | 'malformed' | 'http500' = 'ok';
      const good = registry(() => urls, { cap: 10 });
      const s = await serveJson((u) => {
        if (mode !== 'ok' && u.searchParams.get('offset') === '10') {
          return mode === 'malformed' ? { body: { items: 'oops', pagination: { total: 'many' } } } : { status: 500, body: {} };
        }
        return good(u);
      });
      try {
        await ingestX402(ctx, store, { source: `${s.url}/r`, fetcher: noRetry });
        urls.splice(3, 5); // the next sweep would delist these
        const before = await dumpIngestTables(store);
        mode = 'malformed';
        await expect(ingestX402(ctx, store, { source: `${s.url}/r`, fetcher: noRetry })).rejects.toMatchObject({
          code: 'source_failed',
          message: expect.stringMatching(/page at offset 10: not a discovery\/resources page \(items: /),
        });
        expect(await dumpIngestTables(store)).toEqual(before);
        mode = 'http500';
        await expect(ingestX402(ctx, store, { source: `${s.url}/r`, fetcher: noRetry })).rejects.toMatchObject({
          code: 'source_failed',
          message: expect.stringMatching(/HTTP 500/),
        });
        expect(await dumpIngestTables(store)).toEqual(before);
        const runs = await store.all<{ status: string; error: string | null }>(
          "SELECT status, error FROM runs WHERE kind = 'ingest_x402' ORDER BY started_at, status",
        );
        expect(runs.map((r) => r.status).sort()).toEqual(['failed', 'failed', 'ok']);
        // A malformed snapshot file fails the same way.
        const file = join(dir, 'bad.json');
        writeFileSync(file, JSON.stringify([{ items: [x402Item('https://new.example/x')] }, { pagination: {} }]));
        await expect(ingestX402(ctx, store, { source: file })).rejects.toMatchObject({
          code: 'source_failed',
          message: expect.stringContaining('page 2'),
        });
        expect(await dumpIngestTables(store)).toEqual(before);
      } finally {
        await s.close();
      }
    });
  }, 60_000);

  it('records delisting and relisting with times from the injected clock; an incomplete sweep delists nothing', async () => {
    await withTestStore(async (store, dir) => {
      const clock = testClock('2026-11-01T00:00:00Z');
      const ctx = makeContext(dir, { clock });
      let urls = ['https://a.example/1', 'https://b.example/2', 'https://c.example/3'];
      const s = await serveJson(registry(() => urls, { cap: 2 }));
      const src = `${s.url}/platform/v2/x402/discovery/resources`;
      const gone = x402CandidateId('GET', 'https://b.example/2');
      const row = async () =>
        (
          await store.all(`SELECT listed, first_seen_at, last_seen_at, unlisted_at, monitoring_since FROM services WHERE id = '${gone}'`)
        )[0];
      try {
        await ingestX402(ctx, store, { source: src, fetcher: noRetry });
        clock.set('2026-11-02T06:00:00Z');
        urls = ['https://a.example/1', 'https://c.example/3'];
        const r2 = await ingestX402(ctx, store, { source: src, fetcher: noRetry });
        expect(r2.counts.delisted_missing).toBe(1);
        expect(await row()).toEqual({
          listed: false,
          first_seen_at: '2026-11-01 00:00:00',
          last_seen_at: '2026-11-01 00:00:00',
          unlisted_at: '2026-11-02 06:00:00',
          monitoring_since: '2026-11-01 00:00:00',
        });
        // Incomplete sweep (page cap): seen rows are refreshed, nothing is delisted.
        clock.set('2026-11-03T00:00:00Z');
        urls = ['https://b.example/2', 'https://c.example/3', 'https://d.example/4'];
        const r3 = await ingestX402(ctx, store, { source: src, fetcher: noRetry, maxPages: 1 });
        expect(r3.counts).toMatchObject({ complete: false, delisted_missing: 0, relisted: 1 });
        expect((await store.all("SELECT listed FROM services WHERE url = 'https://a.example/1'"))[0]).toEqual({ listed: true });
        expect(await row()).toMatchObject({
          listed: true,
          unlisted_at: null,
          last_seen_at: '2026-11-03 00:00:00',
          first_seen_at: '2026-11-01 00:00:00',
        });
        expect(
          await store.all(`SELECT event_at, listed, registry, reason FROM listing_events WHERE service_id = '${gone}' ORDER BY event_at`),
        ).toEqual([
          { event_at: '2026-11-01 00:00:00', listed: true, registry: 'cdp', reason: 'first_seen' },
          { event_at: '2026-11-02 06:00:00', listed: false, registry: 'cdp', reason: 'missing_from_sweep' },
          { event_at: '2026-11-03 00:00:00', listed: true, registry: 'cdp', reason: 'relisted' },
        ]);
        // Another registry's sweep never delists this registry's services.
        const other = await ingestX402(ctx, store, { source: src, registry: 'other', fetcher: noRetry, maxPages: 1 });
        expect(other.counts.delisted_missing).toBe(0);
      } finally {
        await s.close();
      }
    });
  }, 30_000);

  it('the CLI ingests a snapshot file into a fresh data folder and prints a one-line summary', async () => {
    const t = tempDir();
    try {
      const r = await runCli(['--data', t.dir, '--now', '2026-11-25T12:00:00Z', 'ingest', 'x402', '--source', SAMPLE]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^x402 cdp: \d+ resources from 4 page\(s\)/m);
      const bad = await runCliInProcess(['--data', t.dir, 'ingest', 'x402', '--source', join(t.dir, 'missing.json')]);
      expect(bad.code).toBe(2);
    } finally {
      t.cleanup();
    }
  }, 120_000);
});
