import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { HOUR_MS } from '../../pipeline/core/clock.ts';
import { parseConfig } from '../../pipeline/core/config.ts';
import { runCycle } from '../../pipeline/cycle/index.ts';
import { withStore } from '../../pipeline/store/index.ts';
import { verifyGeneration } from '../../pipeline/verify/index.ts';
import { ServiceList, Stats } from '../../site/contract/index.ts';
import { startServer } from '../../serve/index.ts';
import { fleetConfig, startFleet, writeFleetListings } from '../../pipeline/fleet/index.ts';
import { makeContext, tempDir, testClock } from '../helpers/context.ts';

/**
 * The whole flow on real parts: fleet on loopback → `runCycle` (ingest both fleet registries and
 * fleet listings, real HTTP probes, SQL compute, publish, verify) three times an hour apart → `atlas serve`
 * on a real port → HTTP requests whose figures must equal what the database says.
 */
describe('fleet → cycle → serve', () => {
  it('serves the figures the database holds', async () => {
    const t = tempDir();
    const clock = testClock('2026-11-20T10:02:00Z');
    const fleet = await startFleet({ clock, slowMs: 5_000, sseIntervalMs: 50 });
    try {
      const config = parseConfig({ ...fleetConfig(fleet, { registries: true }), probe: { ...fleetConfig(fleet).probe, timeoutMs: 1_500 } });
      const ctx = makeContext(t.dir, { clock, config });
      ctx.paths.listings = join(t.dir, 'listings');
      writeFleetListings(fleet, ctx.paths.listings, { approvedAt: new Date('2026-11-01T00:00:00Z') });

      for (let i = 0; i < 3; i++) {
        const result = await withStore(ctx.paths.db, (s) => runCycle(ctx, s, { force: true, snapshot: i === 2 }));
        expect(result.steps.filter((s) => s.status === 'failed')).toEqual([]);
        clock.advance(HOUR_MS);
      }
      clock.advance(-HOUR_MS + 10 * 60_000); // serve ten minutes after the last cycle

      const db = await withStore(ctx.paths.db, async (s) => ({
        services: await s.all<{ n: number }>('SELECT count(*)::INT AS n FROM services'),
        perService: await s.all<{ service_id: string; n: number; p: number }>(
          'SELECT service_id, count(*)::INT AS n, count(*) FILTER (WHERE passed)::INT AS p FROM checks GROUP BY service_id',
        ),
        directory: await s.all<{ n: number }>('SELECT count(*)::INT AS n FROM directory_current WHERE in_directory'),
        checks: await s.all<{ n: number }>('SELECT count(*)::INT AS n FROM checks'),
        cycles: await s.all<{ counts: string }>("SELECT counts::VARCHAR AS counts FROM runs WHERE kind = 'cycle' ORDER BY started_at"),
      }));

      // Each cycle verified a sample of what it published (pipeline/verify) and found no mismatch.
      expect(db.cycles).toHaveLength(3);
      for (const c of db.cycles) {
        expect(JSON.parse(c.counts)).toMatchObject({
          publish: 'ok',
          verify: 'ok',
          verified: Math.min(50, db.services[0]!.n),
          mismatches: 0,
        });
      }
      // And `atlas verify` over every published service of the last generation, read-only, finds none.
      const verified = await withStore(ctx.paths.db, (s) => verifyGeneration(s, ctx.paths.publicDir), { readOnly: true });
      expect(verified.mismatches).toEqual([]);
      expect(verified.checked.services).toBe(db.services[0]!.n);
      const byService = new Map(db.perService.map((r) => [r.service_id, r]));

      const server = await startServer(ctx, { port: 0, host: '127.0.0.1', watchIntervalMs: 60_000 });
      try {
        const all: Array<{ id: string; evidence: { checks_30d: number; passed_30d: number } }> = [];
        let total = 0;
        for (let offset = 0; ; offset += 100) {
          const res = await fetch(`${server.url}/api/v1/services?scope=index&limit=100&offset=${offset}&sort=name`);
          expect(res.status).toBe(200);
          expect(res.headers.get('x-api-status')).toBe('preview');
          const body = ServiceList.parse(await res.json());
          total = body.total;
          all.push(...body.items);
          if (body.items.length < 100) break;
        }
        expect(total).toBe(db.services[0]!.n);
        expect(all).toHaveLength(total);
        expect(new Set(all.map((s) => s.id)).size).toBe(total);
        for (const s of all) {
          const row = byService.get(s.id);
          expect(s.evidence.checks_30d, s.id).toBe(row?.n ?? 0);
          expect(s.evidence.passed_30d, s.id).toBe(row?.p ?? 0);
        }

        const dir = ServiceList.parse(await (await fetch(`${server.url}/api/v1/services?limit=1`)).json());
        expect(dir.total).toBe(db.directory[0]!.n);
        expect(dir.total).toBeGreaterThan(0);

        const stats = Stats.parse(await (await fetch(`${server.url}/api/v1/stats`)).json());
        expect(JSON.stringify(stats)).toContain('checks_24h_by_kind');

        const one = all.find((s) => (byService.get(s.id)?.n ?? 0) > 0)!;
        const detail = await fetch(`${server.url}/api/v1/services/${one.id}`);
        expect(detail.status).toBe(200);
        const missing = await fetch(`${server.url}/api/v1/services/svc_does-not-exist`);
        expect(missing.status).toBe(404);
        expect(await missing.json()).toMatchObject({ error: expect.any(String), message: expect.any(String), api_status: 'preview' });
      } finally {
        await server.close();
      }
      expect(db.checks[0]!.n).toBeGreaterThan(50);
    } finally {
      await fleet.close();
      t.cleanup();
    }
  }, 300_000);
});
