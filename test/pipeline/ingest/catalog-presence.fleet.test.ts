import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../pipeline/core/config.ts';
import { runCycle } from '../../../pipeline/cycle/index.ts';
import { fleetConfig, startFleet } from '../../../pipeline/fleet/index.ts';
import { withStore } from '../../../pipeline/store/index.ts';
import { verifyGeneration } from '../../../pipeline/verify/index.ts';
import { startServer } from '../../../serve/index.ts';
import { ChangeList, ServiceDetail, ServiceList } from '../../../site/contract/index.ts';
import { makeContext, tempDir, testClock } from '../../helpers/context.ts';

/**
 * Catalog presence end to end over the fleet's two x402 catalogs on 127.0.0.1 (pipeline/fleet/catalogs.ts,
 * quirk splitCatalogs): a cycle lists, probes, computes and publishes; then the second catalog drops
 * a live endpoint both listed (timeline.catalogDropAt; x402-v2, it passes) while it keeps listing dead
 * ones, and the next cycle publishes again. The oracle is independent of Atlas: the catalogs' own HTTP
 * answers before and after the drop, and the fleet's scripted verdict of each endpoint. The published
 * fields, the search filters, the single-service history and the change feed must agree with it, and
 * `atlas verify` must find no mismatch.
 */
const START = '2026-11-20T10:02:00Z';
const DROP = '2026-11-20T12:30:00Z';
const SECOND = '2026-11-20T13:02:00Z';

async function catalogUrls(url: string): Promise<Set<string>> {
  const page = (await (await fetch(`${url}?limit=1000`)).json()) as { items: Array<{ resource: string }> };
  return new Set(page.items.map((i) => i.resource));
}

describe('catalog presence over the fleet', () => {
  it('a catalog drops a live endpoint and keeps dead ones: both fields, both filters, the history and the feed, verified', async () => {
    const t = tempDir();
    const clock = testClock(START);
    const fleet = await startFleet({
      clock,
      slowMs: 5_000,
      sseIntervalMs: 50,
      registryQuirks: { splitCatalogs: true },
      timeline: { catalogDropAt: new Date(DROP) },
    });
    try {
      const config = parseConfig({
        ...fleetConfig(fleet),
        probe: { ...fleetConfig(fleet).probe, timeoutMs: 2_500 },
        registries: [
          { kind: 'x402', source: fleet.x402RegistryUrl, name: 'cdp', enabled: true },
          { kind: 'x402', source: fleet.x402SecondRegistryUrl, name: 'binance', enabled: true },
        ],
      });
      const ctx = makeContext(t.dir, { clock, config });
      // No reviewed listings: only the two catalogs' services (and no request beyond loopback).
      ctx.paths.listings = join(t.dir, 'listings');
      mkdirSync(ctx.paths.listings);
      const cdpBefore = await catalogUrls(fleet.x402RegistryUrl);
      const bnbBefore = await catalogUrls(fleet.x402SecondRegistryUrl);
      const first = await withStore(ctx.paths.db, (s) => runCycle(ctx, s, { force: true }));
      expect(first.steps.filter((s) => s.status === 'failed')).toEqual([]);

      clock.set(SECOND);
      const cdpAfter = await catalogUrls(fleet.x402RegistryUrl);
      const bnbAfter = await catalogUrls(fleet.x402SecondRegistryUrl);
      const droppedUrls = [...bnbBefore].filter((u) => !bnbAfter.has(u));
      expect(droppedUrls).toHaveLength(1);
      expect(cdpAfter).toEqual(cdpBefore);
      const second = await withStore(ctx.paths.db, (s) => runCycle(ctx, s, { force: true }));
      expect(second.steps.filter((s) => s.status === 'failed')).toEqual([]);

      // `atlas verify` over every published service of the last generation recomputes both fields.
      const verified = await withStore(ctx.paths.db, (s) => verifyGeneration(s, ctx.paths.publicDir), { readOnly: true });
      expect(verified.mismatches).toEqual([]);

      // The oracle: listed now by either catalog; dropped by one that listed it; the scripted verdict
      // of the latest check (every discovered service was probed once, in the first cycle).
      const probedAt = await withStore(
        ctx.paths.db,
        (s) =>
          s.all<{ url: string; at: string }>(
            `SELECT s.url, atlas_iso(max(c.checked_at)) AS at FROM checks c JOIN services s ON s.id = c.service_id GROUP BY s.url`,
          ),
        { readOnly: true },
      );
      const passedOf = new Map(
        probedAt.map((r) => {
          const e = fleet.endpointByUrl(r.url);
          if (!e) throw new Error(`no fleet endpoint for ${r.url}`);
          return [r.url, e.expectedAt(new Date(r.at)).passed];
        }),
      );
      const listedNow = (u: string) => cdpAfter.has(u) || bnbAfter.has(u);
      const dropped = (u: string) => droppedUrls.includes(u);

      const server = await startServer(ctx, { port: 0, host: '127.0.0.1', watchIntervalMs: 60_000 });
      try {
        const get = async (q: string) =>
          ServiceList.parse(await (await fetch(`${server.url}/api/v1/services?scope=index&limit=100&${q}`)).json());
        const all = (await get('tier=discovered')).items;
        expect(all.length).toBe(new Set([...cdpBefore, ...bnbBefore]).size);
        for (const s of all) {
          const passed = passedOf.get(s.url);
          expect(passed, s.url).not.toBeUndefined();
          expect(s.registry_listing?.listed_but_failing, s.url).toBe(listedNow(s.url) && !passed);
          expect(s.registry_listing?.passing_but_unlisted, s.url).toBe(Boolean(passed) && dropped(s.url));
        }
        // The filters return exactly the services whose published field is true (and false).
        const lbf = (await get('listed_but_failing=true')).items.map((s) => s.url).sort();
        const pbu = (await get('passing_but_unlisted=true')).items.map((s) => s.url).sort();
        expect(lbf).toEqual(
          all
            .filter((s) => listedNow(s.url) && !passedOf.get(s.url))
            .map((s) => s.url)
            .sort(),
        );
        expect(lbf.length).toBeGreaterThan(0);
        expect(pbu).toEqual(droppedUrls);
        expect((await get('passing_but_unlisted=false')).total).toBe(all.length - 1);
        // The dead endpoints the second catalog keeps are among the listed-but-failing.
        const keptDead = [...bnbAfter].filter((u) => passedOf.get(u) === false);
        expect(keptDead.length).toBeGreaterThan(0);
        for (const u of keptDead) expect(lbf).toContain(u);

        const droppedSvc = all.find((s) => s.url === droppedUrls[0])!;
        const deadSvc = all.find((s) => s.url === keptDead[0])!;
        const detail = async (id: string) => ServiceDetail.parse(await (await fetch(`${server.url}/api/v1/services/${id}`)).json());
        const dd = await detail(droppedSvc.id);
        expect(dd.catalog_history).toEqual([
          {
            kind: 'x402',
            name: 'binance',
            listed_at: new Date(START).toISOString(),
            unlisted_at: new Date(SECOND).toISOString(),
            unlisted_reason: 'missing_from_sweep',
          },
          { kind: 'x402', name: 'cdp', listed_at: new Date(START).toISOString(), unlisted_at: null, unlisted_reason: null },
        ]);
        expect(dd.registry_listing).toMatchObject({ listed: true, listed_but_failing: false, passing_but_unlisted: true });
        const page = await (await fetch(`${server.url}/services/${droppedSvc.id}`)).text();
        expect(page).toContain('Passing but unlisted</dt><dd>yes');
        expect(page).toContain('a complete sweep no longer listed it');
        const dead = await detail(deadSvc.id);
        expect(dead.registry_listing).toMatchObject({ listed: true, listed_but_failing: true, passing_but_unlisted: false });

        // The change feed: the drop, and every first listing of the first sweep.
        const feed = ChangeList.parse(await (await fetch(`${server.url}/api/v1/changes?days=1`)).json());
        const unlisted = feed.items.filter((c) => c.kind === 'catalog_unlisted');
        expect(unlisted).toEqual([
          {
            kind: 'catalog_unlisted',
            catalog: { kind: 'x402', name: 'binance', reason: 'missing_from_sweep' },
            id: `catalog-unlisted-x402-binance-${droppedSvc.id}-${Date.parse(SECOND)}`,
            service_id: droppedSvc.id,
            service_name: droppedSvc.name,
            url: droppedSvc.url,
            detected_at: new Date(SECOND).toISOString(),
            summary: 'unlisted by x402:binance (missing_from_sweep)',
            added_lines: 0,
            removed_lines: 0,
            needs_review: false,
            review_terms: [],
            diff: [],
          },
        ]);
        expect(feed.items.filter((c) => c.kind === 'catalog_listed')).toHaveLength(cdpBefore.size + bnbBefore.size);

        if (process.env.ATLAS_SHOW_FILE) {
          const pick = (s: (typeof all)[number]) => ({ id: s.id, url: s.url, registry_listing: s.registry_listing });
          writeFileSync(
            process.env.ATLAS_SHOW_FILE,
            JSON.stringify(
              {
                verify: { checked: verified.checked, mismatches: verified.mismatches },
                dropped_live: { ...pick(droppedSvc), catalog_history: dd.catalog_history },
                kept_dead: { ...pick(deadSvc), catalog_history: dead.catalog_history },
                listed_but_failing_true: lbf,
                passing_but_unlisted_true: pbu,
                feed_unlisted: unlisted,
                feed_listed_example: feed.items.filter((c) => c.kind === 'catalog_listed' && c.service_id === droppedSvc.id),
              },
              null,
              2,
            ),
          );
        }
      } finally {
        await server.close();
      }
    } finally {
      await fleet.close();
      t.cleanup();
    }
  }, 120_000);
});
