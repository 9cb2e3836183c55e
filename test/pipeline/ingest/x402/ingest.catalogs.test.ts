import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../../pipeline/core/clock.ts';
import { startFleet, type Fleet } from '../../../../pipeline/fleet/index.ts';
import { catalogPresence, httpJsonFetcher, ingestX402, presenceLines, type JsonFetcher } from '../../../../pipeline/ingest/index.ts';
import { lastRunAt } from '../../../../pipeline/store/index.ts';
import type { Store } from '../../../../pipeline/store/store.ts';
import { runCli, runCliInProcess } from '../../../helpers/cli.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../../helpers/context.ts';

/**
 * Two x402 catalogs at once, over the fleet's real HTTP servers on 127.0.0.1: the CDP-style Bazaar
 * and the second, Binance-style catalog (cursor-paged), with overlapping but different sets
 * (`splitCatalogs`). The oracle is what the two catalogs serve, read independently with fetch.
 */
const START = '2026-11-25T12:00:00Z';

async function catalogUrls(url: string): Promise<Set<string>> {
  const r = await fetch(`${url}?limit=1000`);
  const page = (await r.json()) as { items: Array<{ resource: string }>; pagination: { total: number } };
  expect(page.items.length).toBe(page.pagination.total);
  return new Set(page.items.map((i) => i.resource));
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x));

async function withFleetDb(fn: (fleet: Fleet, store: Store, dir: string, clock: ReturnType<typeof testClock>) => Promise<void>) {
  const clock = testClock(START);
  const fleet = await startFleet({ clock, registryQuirks: { splitCatalogs: true } });
  const t = tempDir();
  const store = await openTestStore(t.dir);
  try {
    await fn(fleet, store, t.dir, clock);
  } finally {
    store.close();
    t.cleanup();
    await fleet.close();
  }
}

const listedBy = async (store: Store, url: string) =>
  store.all<{ catalog: string; dropped: boolean; listed: boolean }>(
    `SELECT c.catalog, c.dropped_at IS NOT NULL AS dropped, s.listed FROM catalog_listing c JOIN services s ON s.id = c.service_id
     WHERE s.url = $1 ORDER BY c.catalog`,
    [url],
  );

describe('several x402 catalogs at once', () => {
  it('keeps which catalogs list each service and since when; one catalog dropping a service never unlists what another lists', async () => {
    await withFleetDb(async (fleet, store, dir, clock) => {
      const ctx = makeContext(dir, { clock });
      const requested: string[] = [];
      const base = httpJsonFetcher({ retries: 0, timeoutMs: 5000 });
      const fetcher: JsonFetcher = (u) => {
        requested.push(u);
        return base(u);
      };
      const a = await catalogUrls(fleet.x402RegistryUrl);
      const b = await catalogUrls(fleet.x402SecondRegistryUrl);
      const both = [...a].filter((u) => b.has(u));
      expect(both.length).toBeGreaterThan(0);
      expect(minus(a, b).length).toBeGreaterThan(0);
      expect(minus(b, a).length).toBeGreaterThan(0);

      const ra = await ingestX402(ctx, store, { source: fleet.x402RegistryUrl, registry: 'cdp', fetcher });
      const rb = await ingestX402(ctx, store, { source: fleet.x402SecondRegistryUrl, registry: 'binance', fetcher, pageSize: 4 });
      expect(ra.counts).toMatchObject({ seen: a.size, complete: true, delisted_missing: 0 });
      expect(ra.counts.mcp_servers).toBe(1); // the fleet's one `type: "mcp"` item
      expect(rb.counts).toMatchObject({ seen: b.size, inserted: minus(b, a).length, updated: both.length, complete: true });
      // The second catalog pages by cursor after its first page.
      const second = requested.filter((u) => u.startsWith(fleet.x402SecondRegistryUrl));
      expect(second.length).toBe(Math.ceil(b.size / 4));
      expect(new URL(second[0]!).searchParams.get('offset')).toBe('0');
      expect(second.slice(1).every((u) => new URL(u).searchParams.has('cursor'))).toBe(true);

      expect(await catalogPresence(store)).toEqual([
        { listing: ['x402:binance'], dropped: [], services: minus(b, a).length },
        { listing: ['x402:cdp'], dropped: [], services: minus(a, b).length },
        { listing: ['x402:binance', 'x402:cdp'], dropped: [], services: both.length },
      ]);
      const since = await store.all<{ first_seen: string }>('SELECT DISTINCT first_seen::VARCHAR AS first_seen FROM catalog_listing');
      expect(since).toEqual([{ first_seen: '2026-11-25 12:00:00' }]);

      // Past the second catalog's drop: it no longer lists one resource both listed.
      clock.set(new Date(fleet.timeline.catalogDropAt.getTime() + HOUR_MS));
      const b2 = await catalogUrls(fleet.x402SecondRegistryUrl);
      const gone = minus(b, b2);
      expect(gone).toHaveLength(1);
      const ra2 = await ingestX402(ctx, store, { source: fleet.x402RegistryUrl, registry: 'cdp', fetcher });
      // The first catalog's complete sweep leaves the services only the second lists alone.
      expect(ra2.counts).toMatchObject({ delisted_missing: 0, dropped_by_catalog: 0 });
      const rb2 = await ingestX402(ctx, store, { source: fleet.x402SecondRegistryUrl, registry: 'binance', fetcher });
      expect(rb2.counts).toMatchObject({ dropped_by_catalog: 1, still_listed_elsewhere: 1, delisted_missing: 0 });
      expect(await listedBy(store, gone[0]!)).toEqual([
        { catalog: 'binance', dropped: true, listed: true },
        { catalog: 'cdp', dropped: false, listed: true },
      ]);
      const groups = await catalogPresence(store);
      expect(groups).toContainEqual({ listing: ['x402:cdp'], dropped: ['x402:binance'], services: 1 });
      expect(presenceLines(groups)).toContain('catalogs: 1 listed by x402:cdp only; dropped by x402:binance');

      // A resource only the second catalog listed, gone from it: now listed by no catalog, so unlisted.
      const onlyB = fleet.endpoints.find((e) => e.url === minus(b2, a)[0]);
      expect(onlyB).toBeDefined();
      fleet.setListed(onlyB!.name, false);
      const rb3 = await ingestX402(ctx, store, { source: fleet.x402SecondRegistryUrl, registry: 'binance', fetcher });
      expect(rb3.counts).toMatchObject({ dropped_by_catalog: 1, delisted_missing: 1 });
      expect(await listedBy(store, onlyB!.url)).toEqual([{ catalog: 'binance', dropped: true, listed: false }]);
      const events = await store.all(
        'SELECT e.registry, e.reason, e.listed FROM listing_events e JOIN services s ON s.id = e.service_id WHERE s.url = $1 ORDER BY e.event_at',
        [onlyB!.url],
      );
      expect(events).toEqual([
        { registry: 'binance', reason: 'first_seen', listed: true },
        { registry: 'binance', reason: 'missing_from_sweep', listed: false },
      ]);
      // Listed again by it: the row's drop is cleared, its first sighting kept.
      fleet.setListed(onlyB!.name, true);
      const rb4 = await ingestX402(ctx, store, { source: fleet.x402SecondRegistryUrl, registry: 'binance', fetcher });
      expect(rb4.counts.relisted).toBe(1);
      const row = await store.all<{ first_seen: string; dropped_at: string | null }>(
        `SELECT c.first_seen::VARCHAR AS first_seen, c.dropped_at FROM catalog_listing c JOIN services s ON s.id = c.service_id WHERE s.url = $1`,
        [onlyB!.url],
      );
      expect(row).toEqual([{ first_seen: '2026-11-25 12:00:00', dropped_at: null }]);
    });
  }, 120_000);

  it('services discovered before presence was recorded are adopted by their own catalog, so its next sweep can still end them', async () => {
    await withFleetDb(async (fleet, store, dir) => {
      const ctx = makeContext(dir);
      const fetcher = httpJsonFetcher({ retries: 0, timeoutMs: 5000 });
      await ingestX402(ctx, store, { source: fleet.x402RegistryUrl, registry: 'cdp', fetcher });
      // As a database of before migration 024 would be: no presence rows.
      await store.run('DELETE FROM catalog_listing');
      const victim = fleet.endpoints.find((e) => e.protocol === 'x402')!;
      fleet.setListed(victim.name, false);
      const r = await ingestX402(ctx, store, { source: fleet.x402RegistryUrl, registry: 'cdp', fetcher });
      expect(r.counts).toMatchObject({ delisted_missing: 1, dropped_by_catalog: 1 });
      expect(await listedBy(store, victim.url)).toEqual([{ catalog: 'cdp', dropped: true, listed: false }]);
    });
  }, 120_000);

  it("each catalog's last run is its own, so the cycle finds every catalog of one kind due on its own cadence", async () => {
    await withFleetDb(async (fleet, store, dir, clock) => {
      const ctx = makeContext(dir, { clock });
      const fetcher = httpJsonFetcher({ retries: 0, timeoutMs: 5000 });
      await ingestX402(ctx, store, { source: fleet.x402RegistryUrl, registry: 'cdp', fetcher });
      clock.advance(30 * 60_000);
      await ingestX402(ctx, store, { source: fleet.x402SecondRegistryUrl, registry: 'binance', fetcher });
      expect(await lastRunAt(store, 'ingest_x402', 'cdp')).toEqual(new Date(START));
      expect(await lastRunAt(store, 'ingest_x402', 'binance')).toEqual(new Date('2026-11-25T12:30:00Z'));
      expect(await lastRunAt(store, 'ingest_x402')).toEqual(new Date('2026-11-25T12:30:00Z'));
      expect(await lastRunAt(store, 'ingest_x402', 'other')).toBeNull();
    });
  }, 120_000);

  it('atlas ingest registries reads every configured catalog and prints the provenance counts', async () => {
    await withFleetDb(async (fleet, _store, dir) => {
      const config = join(dir, 'atlas.config.json');
      writeFileSync(
        config,
        JSON.stringify({
          registries: [
            { kind: 'x402', source: fleet.x402RegistryUrl, name: 'cdp' },
            { kind: 'x402', source: fleet.x402SecondRegistryUrl, name: 'binance' },
          ],
        }),
      );
      const a = await catalogUrls(fleet.x402RegistryUrl);
      const b = await catalogUrls(fleet.x402SecondRegistryUrl);
      const data = join(dir, 'cli-data');
      const r = await runCli(['--config', config, '--data', data, '--now', START, 'ingest', 'registries'], { timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`^x402 cdp: ${a.size} resources from 1 page\\(s\\)`, 'm'));
      expect(r.stderr).toMatch(/^x402 cdp: kept 1 mcp_item$/m);
      expect(r.stderr).toMatch(new RegExp(`^x402 binance: ${b.size} resources`, 'm'));
      const both = [...a].filter((u) => b.has(u)).length;
      expect(r.stderr).toMatch(new RegExp(`^catalogs: ${both} listed by x402:binance \\+ x402:cdp$`, 'm'));
      expect(r.stderr).toMatch(new RegExp(`^catalogs: ${a.size - both} listed by x402:cdp only$`, 'm'));
      expect(r.stderr).toMatch(new RegExp(`^catalogs: ${b.size - both} listed by x402:binance only$`, 'm'));

      const none = await runCliInProcess(['--config', config, '--data', data, '--now', START, 'ingest', 'registries', '--only', 'nope']);
      expect(none.code).toBe(2);
      expect(none.stderr.trim().split('\n')).toHaveLength(1);
    });
  }, 180_000);
});
