import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../pipeline/core/clock.ts';
import { parseConfig } from '../../../pipeline/core/config.ts';
import { runCycle } from '../../../pipeline/cycle/index.ts';
import { type DECLARED_CASES, fleetConfig, startFleet, writeFleetListings } from '../../../pipeline/fleet/index.ts';
import { ingestListings, ingestX402 } from '../../../pipeline/ingest/index.ts';
import { migrate, withStore } from '../../../pipeline/store/index.ts';
import { verifyGeneration } from '../../../pipeline/verify/index.ts';
import { ChangeList, ServiceDetailFile } from '../../../site/contract/index.ts';
import { makeContext, tempDir, testClock } from '../../helpers/context.ts';

/**
 * Declared against observed payment terms (rule declared-terms/1) end to end on real parts: the
 * fleet on loopback whose first catalog lists other terms than the live 402 for the sellers of
 * pipeline/fleet/declared.ts (quirk declaredTerms) → `runCycle` (ingest the catalogs and the fleet's
 * listings, real probes, compute, publish, verify) → the published files. A second cycle after
 * timeline.priceChangeAt brings one seller back into agreement. `atlas verify` recomputes the
 * published field from the raw rows and finds no mismatch.
 *
 * I27_SHOW=<file>: also writes the published fields and the change-feed entries there (the note).
 */
const START = '2026-11-01T00:05:00Z';

type Cases = typeof DECLARED_CASES;

describe('declared against observed terms over the fleet', () => {
  it('publishes the differences per seller, dated, in the change feed, and verify agrees', async () => {
    const t = tempDir('atlas-declared-');
    const clock = testClock(START);
    const fleet = await startFleet({ clock, slowMs: 3_000, sseIntervalMs: 50, registryQuirks: { declaredTerms: true } });
    try {
      const config = parseConfig({ ...fleetConfig(fleet, { registries: true }), probe: { ...fleetConfig(fleet).probe, timeoutMs: 1_000 } });
      const ctx = makeContext(t.dir, { clock, config });
      ctx.paths.listings = join(t.dir, 'listings');
      writeFleetListings(fleet, ctx.paths.listings, { approvedAt: new Date('2026-10-20T00:00:00Z') });

      const cycle = async () => {
        const r = await withStore(ctx.paths.db, (s) => runCycle(ctx, s, { force: true }));
        expect(r.steps.filter((s) => s.status === 'failed')).toEqual([]);
        return r;
      };
      // Day 0: the catalogs and listings are read (the new services are first checked in their next
      // daily slot); day 1: a cycle checks them; day 11, past the fleet's priceChangeAt (epoch + 10 days): `summarize`'s catalog now lists the live price
      const read = clock().toISOString();
      await withStore(ctx.paths.db, async (s) => {
        await migrate(s, clock());
        await ingestX402(ctx, s, { source: fleet.x402RegistryUrl, registry: 'fleet-x402' });
        await ingestListings(ctx, s, ctx.paths.listings);
      });
      clock.set(new Date(fleet.epoch.getTime() + DAY_MS));
      const first = clock().toISOString();
      await cycle();
      clock.set(new Date(fleet.epoch.getTime() + 11 * DAY_MS));
      const second = clock().toISOString();
      await cycle();

      const ids = await withStore(ctx.paths.db, (s) =>
        s.all<{ id: string; url: string; tier: string }>('SELECT id, url, tier FROM services ORDER BY id'),
      );
      const idOf = (name: string) => ids.find((r) => r.url === fleet.endpoint(name).url && r.tier === 'discovered')!.id;
      const gen = join(ctx.paths.publicDir, 'current');
      const detail = (id: string) =>
        ServiceDetailFile.parse(JSON.parse(readFileSync(join(gen, 'api', 'v1', 'services', `${id}.json`), 'utf8')));

      const shown: Record<string, unknown> = {};
      const want: Record<keyof Cases, string[]> = {
        ocr: ['price'],
        news: ['network'],
        geo: ['asset'],
        stocks: ['scheme'],
        fx: ['pay_to'],
        summarize: [],
      };
      for (const [name, dims] of Object.entries(want)) {
        const d = detail(idOf(name));
        shown[name] = {
          id: d.id,
          declared_terms: d.declared_terms,
          declared_sources: d.declared_sources,
          declared_differences: d.declared_differences,
        };
        expect(d.declared_terms, name).toMatchObject({
          rule: 'declared-terms/1',
          differs: dims.length > 0,
          dimensions: dims,
          sources_compared: 1,
        });
        expect(
          d.declared_sources.map((s) => [s.kind, s.name, s.compared, s.differing]),
          name,
        ).toEqual([['catalog', 'fleet-x402', true, dims]]);
        const events = d.declared_differences;
        if (name === 'summarize') {
          // listed at half the price until the catalog caught up with the live 402 at the second read
          expect(events).toEqual([
            expect.objectContaining({ source: 'fleet-x402', dimension: 'price', began_at: first, ended_at: second }),
          ]);
          expect((events[0]!.declared_value as number) * 2).toBeCloseTo(events[0]!.observed_value as number, 9);
        } else {
          expect(events, name).toEqual([
            expect.objectContaining({ source_kind: 'catalog', source: 'fleet-x402', dimension: dims[0], began_at: first, ended_at: null }),
          ]);
          expect(d.declared_terms!.since).toBe(first);
          expect(events[0]!.declared_since).toBe(read);
        }
      }
      // pay_to values are never published, not even hashed
      expect((shown.fx as { declared_differences: Array<{ declared_value: unknown }> }).declared_differences[0]!.declared_value).toBeNull();
      // a seller whose catalog lists exactly what it asks: compared, no difference
      const agree = detail(idOf('embed'));
      expect(agree.declared_terms).toMatchObject({ differs: false, dimensions: [], since: null });
      expect(agree.declared_differences).toEqual([]);
      // an MCP server declares nothing: nothing compared
      expect(detail(ids.find((r) => r.url === fleet.endpoint('docs-mcp').url)!.id).declared_terms).toBeNull();
      // our listing of the weather API: its price and networks claims against its live 402
      const weather = detail('svc_fleet-weather');
      shown['svc_fleet-weather'] = {
        declared_terms: weather.declared_terms,
        declared_sources: weather.declared_sources,
        declared_differences: weather.declared_differences,
      };
      expect(weather.declared_sources[0]).toMatchObject({ kind: 'listing', price_usd: 0.01, networks: ['eip155:8453'], compared: true });
      expect(weather.declared_sources[0]!.checked).toEqual({
        price_usd: { source_url: fleet.docs.find((x) => x.name === 'weather')!.url, checked_at: '2026-10-20' },
        networks: { source_url: fleet.docs.find((x) => x.name === 'weather')!.url, checked_at: '2026-10-20' },
      });

      // The change feed carries every event that began or ended in its 90 days.
      const feed = ChangeList.parse(JSON.parse(readFileSync(join(gen, 'api', 'v1', 'changes.json'), 'utf8')));
      const fromCatalog = feed.declared_differences.filter((c) => c.source === 'fleet-x402');
      expect(fromCatalog.map((c) => [c.service_id, c.dimension, c.ended_at]).sort()).toEqual(
        [
          [idOf('ocr'), 'price', null],
          [idOf('news'), 'network', null],
          [idOf('geo'), 'asset', null],
          [idOf('stocks'), 'scheme', null],
          [idOf('fx'), 'pay_to', null],
          [idOf('summarize'), 'price', second],
        ].sort(),
      );
      shown.change_feed = feed.declared_differences;

      // The search index record carries the field the terms_mismatch filter reads.
      // `atlas verify` recomputes declared_terms (and every other figure) from the raw rows.
      const verified = await withStore(ctx.paths.db, (s) => verifyGeneration(s, ctx.paths.publicDir), { readOnly: true });
      expect(verified.mismatches).toEqual([]);
      expect(verified.checked.services).toBe(ids.length);
      shown.verify = { checked: verified.checked, mismatches: verified.mismatches, computed_at: verified.computed_at };
      if (process.env.I27_SHOW) writeFileSync(process.env.I27_SHOW, `${JSON.stringify(shown, null, 2)}\n`);
    } finally {
      await fleet.close();
      t.cleanup();
    }
  }, 120_000);
});
