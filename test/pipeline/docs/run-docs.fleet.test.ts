import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../pipeline/core/clock.ts';
import { runDocs } from '../../../pipeline/docs/index.ts';
import { defaultConfig } from '../../../pipeline/core/config.ts';
import { startFleet } from '../../../pipeline/fleet/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';

/**
 * The documentation feed against the fleet's documentation pages (docs.fleet.test/<name>), which
 * change at timeline.docsChangeAt: unchanged, cosmetic, price, typo, failing.
 */
describe('atlas docs against fleet documentation pages', () => {
  it('records only real changes, flags the price change, not the typo fix; a failing page is a failed check', async () => {
    const epoch = new Date('2026-11-02T00:00:00Z');
    const clock = testClock(epoch);
    const t = tempDir();
    const fleet = await startFleet({ clock, epoch });
    const store = await openTestStore(t.dir, epoch);
    try {
      const base = defaultConfig();
      const ctx = makeContext(t.dir, { clock, config: { probe: { ...base.probe, allowPrivate: true, resolve: fleet.resolve } } });
      expect(fleet.docs.map((d) => d.behaviour).sort()).toEqual([
        'docs-cosmetic',
        'docs-failing',
        'docs-price',
        'docs-typo',
        'docs-unchanged',
      ]);
      for (const d of fleet.docs) {
        const id = `svc_${d.name}`;
        await store.run(
          `INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at, protocol, documentation_urls)
           VALUES ($1, 'reviewed', 'api_endpoint', $1, 'atlas', 'api.example', 'https://api.example/v1/x', 'GET', $2::TIMESTAMP, $2::TIMESTAMP, $2::TIMESTAMP, 'x402', [$3])`,
          [id, epoch.toISOString(), d.url],
        );
        await store.run(
          `INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours)
           VALUES ($1, 'docs', 'documentation', false, $2, 'GET', [200], 'reviewed/1', 24)`,
          [id, d.url],
        );
      }

      clock.set(new Date(epoch.getTime() + 3_600_000));
      const first = await runDocs(ctx, store, { timeoutMs: 5000 });
      expect(first.kind).toBe('docs');
      expect(await store.all(`SELECT count(*)::INTEGER AS n FROM doc_snapshots`)).toEqual([{ n: 5 }]);
      expect(await store.all(`SELECT count(*)::INTEGER AS n FROM changes`)).toEqual([{ n: 0 }]);

      // Next day, before the scripted change: nothing new.
      clock.set(new Date(epoch.getTime() + DAY_MS + 3_600_000));
      await runDocs(ctx, store, { timeoutMs: 5000 });
      expect(await store.all(`SELECT count(*)::INTEGER AS n FROM doc_snapshots`)).toEqual([{ n: 5 }]);

      // After timeline.docsChangeAt.
      clock.set(new Date(fleet.timeline.docsChangeAt.getTime() + DAY_MS + 3_600_000));
      await runDocs(ctx, store, { timeoutMs: 5000 });
      const changes = await store.all<{ service_id: string; needs_review: boolean; review_terms: string[] }>(
        `SELECT service_id, needs_review, review_terms FROM changes ORDER BY service_id`,
      );
      expect(changes.map((c) => [c.service_id, c.needs_review])).toEqual([
        ['svc_search', true],
        ['svc_tools', false],
      ]);
      expect(changes[0]!.review_terms).toEqual(expect.arrayContaining(['price:$0.01', 'price:$0.02']));
      const failing = await store.all<{ passed: boolean; status: number }>(
        `SELECT passed, status FROM checks WHERE service_id = 'svc_translate' ORDER BY slot DESC LIMIT 1`,
      );
      expect(failing).toEqual([{ passed: false, status: 500 }]);
      const checks = await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM checks WHERE operation = 'docs'`);
      expect(checks[0]!.n).toBe(15);
      const runs = await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM runs WHERE kind = 'docs'`);
      expect(runs[0]!.n).toBe(3);
    } finally {
      store.close();
      await fleet.close();
      t.cleanup();
    }
  }, 60_000);
});
