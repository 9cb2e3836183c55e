import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { computeAll } from '../../../pipeline/compute/index.ts';
import {
  ChangeList,
  Fields,
  Health,
  INDEX_BUCKETS_FILE,
  IndexBuckets,
  Manifest,
  missingFieldDocs,
  Report,
  ReportList,
  Roadmap,
  ServiceDetailFile,
  Stats,
  Status,
  bucketBits,
} from '../../../site/contract/index.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { currentDir, parseWith, readIndex, readJson } from './read-tree.ts';
import { seedChangesAndReports, seedRaw } from './seed.ts';

const NOW = new Date('2026-11-25T12:00:00Z');

describe('publish (raw rows → compute → publish)', () => {
  it('writes a complete generation whose every body parses with its contract schema', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openTestStore(dir, NOW);
    try {
      await seedRaw(store, NOW, 60, 12);
      await seedChangesAndReports(store, NOW);
      const ctx = makeContext(dir, { now: NOW.toISOString() });
      await computeAll(ctx, store, { scope: 'full' });
      const r = await publish(ctx, store, { batchSize: 7 }); // small batches: exercise the id-range batching
      expect(r.invalid).toBe(0);

      const gen = currentDir(ctx.paths.publicDir);
      expect(gen.endsWith(join('generations', r.generation))).toBe(true);
      const manifest = parseWith(Manifest, join(gen, 'manifest.json'));
      expect(manifest.generation).toBe(r.generation);
      expect(manifest.api_version).toBe('0.1.0-preview');

      // The index: every tracked service, with the directory flag, in its bucket (by id within one).
      const records = readIndex(gen);
      expect(records).toHaveLength(60);
      expect(manifest.counts.services).toBe(60);
      const ids = records.map((x) => x.summary.id);
      expect(new Set(ids).size).toBe(60);
      const layout = parseWith(IndexBuckets, join(gen, INDEX_BUCKETS_FILE));
      expect(layout.bits).toBe(bucketBits(60));
      for (let bucket = 0, k = 0; bucket < layout.counts.length; k += layout.counts[bucket]!, bucket++) {
        const inBucket = ids.slice(k, k + layout.counts[bucket]!);
        expect([...inBucket].sort()).toEqual(inBucket);
        for (const id of inBucket) expect(createHash('md5').update(id).digest().readUInt32BE(0) >>> (32 - layout.bits)).toBe(bucket);
      }
      const inDir = records.filter((x) => x.in_directory).length;
      expect(inDir).toBeGreaterThan(0);
      expect(inDir).toBeLessThan(60); // unlisted services (i % 13 = 0) are out
      expect(manifest.counts.in_directory).toBe(inDir);
      const dbIn = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM directory_current WHERE in_directory');
      expect(inDir).toBe(Number(dbIn[0]!.n));
      for (const x of records) {
        if (x.in_directory) expect(x.search.criteria_except_fresh).toBe(true);
        expect(x.summary.links).toEqual({ page: `/services/${x.summary.id}`, api: `/api/v1/services/${x.summary.id}` });
      }

      // One detail file per service; receiving addresses never published.
      const detailFiles = readdirSync(join(gen, 'api', 'v1', 'services'));
      expect(detailFiles).toHaveLength(60);
      for (const f of detailFiles) {
        const text = readFileSync(join(gen, 'api', 'v1', 'services', f), 'utf8');
        expect(text).not.toMatch(/pay_to_hash|"h1"/);
        const d = parseWith(ServiceDetailFile, join(gen, 'api', 'v1', 'services', f));
        expect(d).not.toHaveProperty('referral_id');
        expect(d.daily_checks).toHaveLength(30);
        expect(d.recent_checks.length).toBeLessThanOrEqual(48);
        expect(d.directory.criteria.length).toBe(6);
      }
      const reviewed = parseWith(ServiceDetailFile, join(gen, 'api', 'v1', 'services', 'svc_r0000000.json'));
      expect(reviewed.recent_checks).toHaveLength(48);
      expect(reviewed.operations.map((o) => o.id)).toEqual(['primary', 'docs']);
      expect(reviewed.claims.map((c) => c.topic).sort()).toEqual(['networks', 'price_usd']);
      expect(reviewed.claims.every((c) => c.source === 'operator' && c.source_url?.startsWith('https://'))).toBe(true);
      expect(reviewed.claims.map((c) => c.checked_at)).toEqual(['2026-11-20', '2026-11-20']);
      expect(reviewed.registry_text).toBeNull();
      const x402 = parseWith(ServiceDetailFile, join(gen, 'api', 'v1', 'services', 'cand_x0000001.json'));
      expect(x402.payment_terms).not.toBeNull();
      expect(x402.payment_terms!.changes_30d).toBe(1);
      expect(x402.terms_changes).toHaveLength(1);
      expect(x402.terms_changes[0]!.kinds).toContain('price');
      expect(x402.current_terms!.offers[0]).toEqual({
        scheme: 'exact',
        network: 'eip155:8453',
        asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        amount: '2000',
        max_timeout_seconds: 60,
        price_kind: 'exact',
        currency: 'USD',
      });
      expect([x402.current_terms!.min_price_usd, x402.current_terms!.max_price_usd]).toEqual([0.002, null]);
      expect(x402.registry_text).toMatchObject({ third_party_text: true, name: 'Service 1' });
      expect(x402.interval_history[0]).toMatchObject({ from_hours: null, to_hours: 24, rule: 'schedule/1' });

      // The other resources.
      const stats = parseWith(Stats, join(gen, 'api', 'v1', 'stats.json'));
      expect(stats.totals.services).toBe(60);
      parseWith(Status, join(gen, 'api', 'v1', 'status.json'));
      const health = parseWith(Health, join(gen, 'healthz.json'));
      expect(health.latest_monitoring_run?.kind).toBe('probe');
      expect(health.status).toBe('ok');
      const roadmap = parseWith(Roadmap, join(gen, 'api', 'v1', 'roadmap.json'));
      expect(roadmap.note).toMatch(/planned, not promised, no dates/i);
      const fields = parseWith(Fields, join(gen, 'api', 'v1', 'fields.json'));
      expect(fields.fields.length).toBeGreaterThan(200);
      expect(missingFieldDocs()).toEqual([]);
      const changes = parseWith(ChangeList, join(gen, 'api', 'v1', 'changes.json'));
      expect(changes.items.map((c) => c.id)).toEqual(['chg_1']); // the 120-day-old change is outside 90 days
      const reports = parseWith(ReportList, join(gen, 'api', 'v1', 'reports', 'index.json'));
      expect(reports.items.map((i) => i.id)).toEqual(['2026-11-16']);
      const week = parseWith(Report, join(gen, 'api', 'v1', 'reports', '2026-11-16.json'));
      expect(week.corrections).toHaveLength(1);
      expect(week.report).toEqual({ week: '2026-11-16', figures: { checks: 10 } }); // corrections never change figures
      expect(parseWith(Report, join(gen, 'api', 'v1', 'reports', 'current.json')).status).toBe('provisional');
      const openapi = readJson(join(gen, 'openapi.json')) as { info: { version: string } };
      expect(openapi.info.version).toBe('0.1.0-preview');

      // The HTML pages are always written (only an explicit `pages: false` leaves them out).
      expect(r.pages).toBe(true);
      expect(existsSync(join(gen, 'index.html'))).toBe(true);

      // A runs row of kind publish.
      const runs = await store.all<{ status: string; counts: string }>(
        `SELECT status, counts::VARCHAR AS counts FROM runs WHERE kind = 'publish'`,
      );
      expect(runs).toHaveLength(1);
      expect(runs[0]!.status).toBe('ok');
      expect(JSON.parse(runs[0]!.counts).services).toBe(60);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);
});
