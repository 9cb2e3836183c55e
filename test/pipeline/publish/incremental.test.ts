import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import {
  DAILY_DAYS,
  dayRange,
  INDEX_BUCKETS_FILE,
  type IndexBuckets,
  ServiceDetailFile,
  bucketFile,
} from '../../../site/contract/index.ts';
import { defaultDirectoryList } from '../../../site/pages/index.ts';
import { staticDirectoryList } from '../../../pipeline/publish/static-list.ts';
import { FINGERPRINTS_FILE, generationDir, publish, pruneGenerations, verifyTree } from '../../../pipeline/publish/index.ts';
import { DetailCache } from '../../../serve/site/details.ts';
import { loadGeneration } from '../../../serve/site/load.ts';
import { summaryOf } from '../../../serve/search/present.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { apartFromRenderInstants, parseWith, readIndex } from './read-tree.ts';
import { seedChangesAndReports, seedRaw } from './seed.ts';

const NOW = '2026-11-25T12:00:00Z';

/**
 * Files that name their own generation or the run that made it (the generation id, the publish
 * run in the run log and status): they differ between any two publishes, whatever the data.
 */
const GENERATION_FILES = new Set([
  'manifest.json',
  'checksums.json',
  'checksums.json.sig',
  'healthz.json',
  'run-log.json',
  'api/v1/status.json',
  'status.html',
]);

/** Every regular file of a generation, relative path → absolute path. */
function files(root: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isDirectory()) for (const [k, v] of files(root, rel)) out.set(k, v);
    else out.set(rel, join(root, rel));
  }
  return out;
}

const ino = (p: string) => statSync(p).ino;

async function setup(n = 30) {
  const { dir, cleanup } = tempDir('atlas-incremental-');
  const store = await openTestStore(dir);
  await seedRaw(store, new Date(NOW), n, 3);
  await seedChangesAndReports(store, new Date(NOW));
  const clock = testClock(NOW);
  const ctx = makeContext(dir, { clock });
  await computeAll(ctx, store, { scope: 'full' });
  return { dir, cleanup, store, clock, ctx };
}

/** One service changed through the store: its evidence, its payment-term summary, or its directory membership. */
async function changeEvidence(store: Store, id: string) {
  await store.run('UPDATE evidence SET passed_30d = passed_30d - 1 WHERE service_id = $1', [id]);
}
async function changeTerms(store: Store, id: string) {
  await store.run('UPDATE terms_summary SET changes_30d = changes_30d + 1, changes_90d = changes_90d + 1 WHERE service_id = $1', [id]);
}
async function changeMembership(store: Store, id: string) {
  await store.run(
    'UPDATE directory SET in_directory = NOT in_directory WHERE service_id = $1 AND evaluated_at = (SELECT max(evaluated_at) FROM directory WHERE service_id = $1)',
    [id],
  );
}

describe('incremental publish', () => {
  it('re-renders exactly the services whose evidence, terms or membership changed; the rest are hard links', async () => {
    const { cleanup, store, clock, ctx } = await setup();
    try {
      const first = await publish(ctx, store);
      expect(first.incremental).toEqual({ previous: null, rendered: 30, linked: 0 });
      const a = generationDir(ctx.paths.publicDir, first.generation);

      clock.advance(5 * 60_000);
      await changeEvidence(store, 'svc_r0000003');
      await changeTerms(store, 'cand_x0000004');
      await changeMembership(store, 'cand_m0000005');
      const second = await publish(ctx, store);
      expect(second.incremental.previous).toBe(first.generation);
      expect(second.incremental.rendered).toBe(3);
      const b = second.dir;

      const changed = ['svc_r0000003', 'cand_x0000004', 'cand_m0000005'];
      for (const id of changed) {
        for (const rel of [`api/v1/services/${id}.json`, `services/${id}.html`]) {
          expect(ino(join(b, rel))).not.toBe(ino(join(a, rel)));
          expect(readFileSync(join(b, rel), 'utf8')).not.toBe(readFileSync(join(a, rel), 'utf8'));
        }
      }
      expect(parseWith(ServiceDetailFile, join(b, 'api/v1/services/svc_r0000003.json')).evidence.passed_30d).toBe(
        parseWith(ServiceDetailFile, join(a, 'api/v1/services/svc_r0000003.json')).evidence.passed_30d - 1,
      );
      const ids = readdirSync(join(b, 'api/v1/services')).map((f) => f.replace(/\.json$/, ''));
      expect(ids).toHaveLength(30);
      for (const id of ids.filter((x) => !changed.includes(x))) {
        expect(ino(join(b, `api/v1/services/${id}.json`))).toBe(ino(join(a, `api/v1/services/${id}.json`)));
        expect(ino(join(b, `services/${id}.html`))).toBe(ino(join(a, `services/${id}.html`)));
      }
      // 27 details + 27 pages shared, and every index bucket without a changed service; a bucket
      // holding one was written anew.
      const layout = JSON.parse(readFileSync(join(b, INDEX_BUCKETS_FILE), 'utf8')) as IndexBuckets;
      expect(layout.bits).toBe(1);
      const bucketOfId = (id: string) => createHash('md5').update(id).digest().readUInt32BE(0) >>> (32 - layout.bits);
      const touched = new Set(changed.map(bucketOfId));
      let linkedBuckets = 0;
      for (let n = 0; n < layout.counts.length; n++) {
        const rel = bucketFile(n, layout.bits);
        if (touched.has(n)) expect(ino(join(b, rel))).not.toBe(ino(join(a, rel)));
        else {
          expect(ino(join(b, rel))).toBe(ino(join(a, rel)));
          linkedBuckets += 1;
        }
      }
      expect(touched.size).toBeGreaterThan(0);
      expect(second.incremental.linked).toBe(54 + linkedBuckets);

      // A file holds the instants of the render that wrote it (site/contract/service-file.ts): a shared
      // one the first generation's, a re-rendered one this generation's.
      expect(parseWith(ServiceDetailFile, join(b, 'api/v1/services/svc_r0000000.json')).generated_at).toBe(new Date(NOW).toISOString());
      expect(parseWith(ServiceDetailFile, join(b, 'api/v1/services/svc_r0000003.json')).generated_at).toBe('2026-11-25T12:05:00.000Z');

      // index.html's list, read from the first page's buckets only, is the default list over every record.
      const records = readIndex(b);
      const at = new Date('2026-11-25T12:05:00Z');
      const keys = records
        .filter((r) => r.in_directory)
        .map((r) => ({
          id: r.summary.id,
          bucket: bucketOfId(r.summary.id),
          checks_30d: r.summary.evidence.checks_30d,
          monitoring_since: r.summary.evidence.monitoring_since,
        }));
      const listed = await staticDirectoryList(b, at, null, keys);
      expect(listed).toEqual(defaultDirectoryList(records, at, null));
      expect(listed.total).toBeGreaterThan(0);
      expect(listed.total).toBe(second.counts.in_directory);
      // A key that disagrees with its record is refused rather than put the page out of order.
      const wrong = keys.map((k, i) => (i === 0 ? { ...k, checks_30d: k.checks_30d + 1 } : k));
      await expect(staticDirectoryList(b, at, null, wrong)).rejects.toThrow(/is not the one listed/);

      // The server's loader reads the mixed generation like any other.
      const site = await loadGeneration(b, new Date(NOW));
      expect(site.rows).toHaveLength(30);
      expect(site.generation).toBe(second.generation);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('gives the same bytes as a full publish of the same data, and passes verify --tree', async () => {
    const { dir, cleanup, store, clock, ctx } = await setup();
    try {
      await publish(ctx, store);
      clock.advance(5 * 60_000);
      await changeEvidence(store, 'cand_x0000001');
      await changeMembership(store, 'svc_r0000006');
      const inc = await publish(ctx, store);
      expect(inc.incremental.rendered).toBe(2);
      const full = await publish(ctx, store, { out: join(dir, 'full-tree'), full: true });
      expect(full.incremental).toEqual({ previous: null, rendered: 30, linked: 0 });

      const x = files(inc.dir);
      const y = files(full.dir);
      expect([...x.keys()].sort()).toEqual([...y.keys()].sort());
      const differing = [...x.keys()].filter((p) => !readFileSync(x.get(p)!).equals(readFileSync(y.get(p)!)));
      // The shared service files differ in the instants of their own render only (site/contract/service-file.ts).
      const sharedDetails = differing.filter((p) => p.startsWith('api/v1/services/'));
      expect(sharedDetails).toHaveLength(28);
      for (const p of sharedDetails)
        expect(apartFromRenderInstants(readFileSync(x.get(p)!, 'utf8'))).toBe(apartFromRenderInstants(readFileSync(y.get(p)!, 'utf8')));
      expect(differing.filter((p) => !GENERATION_FILES.has(p) && !sharedDetails.includes(p))).toEqual([]);
      expect(x.has(FINGERPRINTS_FILE)).toBe(true);

      const v = await verifyTree(inc.dir);
      expect(v.problems).toEqual([]);
      expect(v.ok).toBe(true);
    } finally {
      store.close();
      cleanup();
    }
  }, 180_000); // two whole publishes and verify --tree: over a minute on a loaded machine

  it('shares the whole index when nothing changed; --full shares nothing; a generation two days old shares nothing', async () => {
    const { cleanup, store, clock, ctx } = await setup(12);
    try {
      const first = await publish(ctx, store, { pages: false });
      clock.advance(60_000);
      const same = await publish(ctx, store, { pages: false });
      expect(same.incremental).toEqual({ previous: first.generation, rendered: 0, linked: 13 });
      expect(ino(join(same.dir, 'index/summaries/0.json'))).toBe(ino(join(first.dir, 'index/summaries/0.json')));
      expect((await verifyTree(same.dir)).ok).toBe(true);

      clock.advance(60_000);
      const forced = await publish(ctx, store, { pages: false, full: true });
      expect(forced.incremental).toEqual({ previous: null, rendered: 12, linked: 0 });

      // A generation more than a UTC day older cannot be shared from: its series are two days behind.
      clock.advance(2 * 86_400_000);
      const later = await publish(ctx, store, { pages: false });
      expect(later.incremental).toEqual({ previous: null, rendered: 12, linked: 0 });
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  // Each detail part is hashed from its own SELECT (pipeline/publish/sql.ts, detailParts): a change to
  // any one part's input, for one service, renders that service and no other.
  it.each([
    ['operations', `UPDATE operations SET method = 'POST' WHERE service_id = $1 AND is_primary`, 'svc_r0000003'],
    [
      'latest checks',
      `UPDATE checks SET latency_ms = latency_ms + 1 WHERE service_id = $1 AND checked_at = (SELECT max(checked_at) FROM checks WHERE service_id = $1)`,
      'cand_m0000005',
    ],
    ['interval history', `UPDATE interval_changes SET reason = 'payers_5_to_99' WHERE service_id = $1`, 'cand_x0000004'],
    ['term changes', `INSERT INTO terms_changes VALUES ($1, TIMESTAMP '2026-11-25 11:00:00', ['price'])`, 'cand_x0000007'],
    ['latest terms', `UPDATE payment_terms SET x402_version = 1 WHERE service_id = $1`, 'cand_x0000010'],
  ])(
    'a change to one service’s %s renders that service alone',
    async (_part, sql, id) => {
      const { dir, cleanup, store, clock, ctx } = await setup(12);
      try {
        const first = await publish(ctx, store, { pages: false });
        const before = readFileSync(join(first.dir, `api/v1/services/${id}.json`), 'utf8');
        await store.run(sql, [id]);
        clock.advance(60_000);
        const inc = await publish(ctx, store, { pages: false });
        expect(inc.incremental).toMatchObject({ previous: first.generation, rendered: 1 });
        const after = readFileSync(join(inc.dir, `api/v1/services/${id}.json`), 'utf8');
        expect(after).not.toBe(before);
        const full = await publish(ctx, store, { pages: false, out: join(dir, 'full-tree'), full: true });
        expect(after).toBe(readFileSync(join(full.dir, `api/v1/services/${id}.json`), 'utf8'));
      } finally {
        store.close();
        cleanup();
      }
    },
    60_000,
  );

  it('seals a shared file from the previous list only when that list names it in canonical form; any other is read again', async () => {
    const { cleanup, store, clock, ctx } = await setup(6);
    try {
      const first = await publish(ctx, store);
      const list = join(first.dir, 'checksums.json');
      const lines = readFileSync(list, 'utf8').split('\n');
      // One shared detail file's line made non-canonical (a size with a leading zero), one dropped.
      const details = lines.map((l, i) => [l, i] as const).filter(([l]) => l.startsWith('{"path":"api/v1/services/'));
      const [zeroed, zi] = details[0]!;
      const [dropped, di] = details[1]!;
      lines[zi] = zeroed.replace(/"bytes":(\d+)/, '"bytes":0$1');
      lines.splice(di, 1);
      writeFileSync(list, lines.join('\n'));
      clock.advance(60_000);
      const second = await publish(ctx, store);
      expect(second.incremental.rendered).toBe(0);
      // Both files are still links, sealed from their bytes as read: the new list holds their true lines.
      const text = readFileSync(join(second.dir, 'checksums.json'), 'utf8');
      expect(text).toContain(zeroed);
      expect(text).toContain(dropped.replace(/,$/, ''));
      expect((await verifyTree(second.dir)).ok).toBe(true);
      // With no list at all, every shared file is read: the generation still verifies.
      unlinkSync(join(second.dir, 'checksums.json'));
      clock.advance(60_000);
      const third = await publish(ctx, store);
      expect(third.incremental.linked).toBeGreaterThan(0);
      expect((await verifyTree(third.dir)).ok).toBe(true);
    } finally {
      cleanup();
    }
  }, 60_000);

  it('a check that changes only the daily series (older than the latest-checks window) re-renders its service', async () => {
    const { dir, cleanup, store, clock, ctx } = await setup(12);
    try {
      await publish(ctx, store, { pages: false });
      // svc_r* is checked hourly: its latest checks come from the last 49 hours. A late-loaded check
      // 60 hours back is in the daily series only (batches from probe buckets can arrive late).
      await store.run(
        `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms)
         SELECT service_id, operation, slot, checked_at + INTERVAL 7 SECOND, status, passed, reason, rule, 999
         FROM checks WHERE service_id = 'svc_r0000003' AND checked_at < TIMESTAMP '2026-11-23 00:00:00' ORDER BY checked_at DESC LIMIT 1`,
      );
      clock.advance(60_000);
      const inc = await publish(ctx, store, { pages: false });
      expect(inc.incremental.rendered).toBe(1);
      const full = await publish(ctx, store, { pages: false, out: join(dir, 'full-tree'), full: true });
      const rel = 'api/v1/services/svc_r0000003.json';
      expect(readFileSync(join(inc.dir, rel), 'utf8')).toBe(readFileSync(join(full.dir, rel), 'utf8'));
      const day = parseWith(ServiceDetailFile, join(inc.dir, rel)).daily_checks.find((d) => d.day === '2026-11-22');
      expect(day?.checks).toBeGreaterThan(0);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('shares files across UTC midnight; what the server answers is what a full publish gives', async () => {
    const { dir, cleanup, store, clock, ctx } = await setup(12);
    try {
      // A check on the first day of the series at 23:58 (the day that leaves the series at midnight).
      // The two instants are 6 minutes apart so that no hourly service's recent-checks window (the
      // last 49 hours) loses a check between them: only the day moves.
      clock.set('2026-11-25T23:58:00Z');
      const [first] = dayRange(clock(), DAILY_DAYS);
      await store.run(
        `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms)
         SELECT service_id, operation, slot - INTERVAL 29 DAY, $1::TIMESTAMP, status, passed, reason, rule, latency_ms
         FROM checks WHERE service_id = 'cand_x0000004' ORDER BY checked_at LIMIT 1`,
        [`${first}T12:00:00Z`],
      );
      const before = await publish(ctx, store);
      const beforeDetail = parseWith(ServiceDetailFile, join(before.dir, 'api/v1/services/cand_x0000004.json'));
      expect(beforeDetail.daily_checks[0]).toMatchObject({ day: first, checks: 1 });

      // 00:00:04: one service checked since midnight; the others share their files.
      clock.set('2026-11-26T00:00:04Z');
      await store.run(
        `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms)
         SELECT service_id, operation, TIMESTAMP '2026-11-26 00:00:00', TIMESTAMP '2026-11-26 00:00:02', status, passed, reason, rule, latency_ms
         FROM checks WHERE service_id = 'svc_r0000006' ORDER BY checked_at DESC LIMIT 1`,
      );
      const after = await publish(ctx, store);
      expect(after.incremental.previous).toBe(before.generation);
      expect(after.incremental.rendered).toBe(1);
      expect(ino(join(after.dir, 'api/v1/services/cand_x0000004.json'))).toBe(ino(join(before.dir, 'api/v1/services/cand_x0000004.json')));
      expect(ino(join(after.dir, 'api/v1/services/svc_r0000006.json'))).not.toBe(
        ino(join(before.dir, 'api/v1/services/svc_r0000006.json')),
      );
      expect((await verifyTree(after.dir)).ok).toBe(true);

      // The same instant published in full: every other file is byte-identical, and every service
      // the server answers (the file's series re-windowed) is the same object.
      const full = await publish(ctx, store, { out: join(dir, 'full-tree'), full: true });
      const x = files(after.dir);
      const y = files(full.dir);
      expect([...x.keys()].sort()).toEqual([...y.keys()].sort());
      // The shared services' files hold the series of the day before; the rest must be equal.
      const shared = new Set([...x.keys()].filter((p) => /^(api\/v1\/services|services)\//.test(p) && !p.includes('svc_r0000006')));
      const differing = [...x.keys()].filter((p) => !readFileSync(x.get(p)!).equals(readFileSync(y.get(p)!)));
      expect(differing.filter((p) => !GENERATION_FILES.has(p) && !shared.has(p))).toEqual([]);
      // A shared page keeps the chart of the day it was rendered, and says which days it shows.
      expect(readFileSync(join(after.dir, 'services/cand_x0000004.html'), 'utf8')).toContain(`${first} to 2026-11-25`);
      expect(readFileSync(join(full.dir, 'services/cand_x0000004.html'), 'utf8')).toContain('to 2026-11-26');

      const siteA = await loadGeneration(after.dir, clock());
      const siteB = await loadGeneration(full.dir, clock());
      const cacheA = new DetailCache();
      const cacheB = new DetailCache();
      for (const row of siteB.rows) {
        const a = await cacheA.get(siteA, row.id);
        const b = await cacheB.get(siteB, row.id);
        expect(a).toEqual(b);
        expect(a?.daily_checks.at(-1)?.day).toBe('2026-11-26');
      }
      const served = await cacheA.get(siteA, 'cand_x0000004');
      expect(served?.daily_checks).toHaveLength(DAILY_DAYS);
      expect(served?.daily_checks.some((d) => d.day === first)).toBe(false);
      expect((await cacheA.get(siteA, 'svc_r0000006'))?.daily_checks.at(-1)).toMatchObject({ day: '2026-11-26', checks: 1 });
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('renders everything, with a warning, when the previous generation is out of step with its fingerprints', async () => {
    const { cleanup, store, clock, ctx } = await setup(12);
    const warnings: string[] = [];
    try {
      const first = await publish(ctx, store, { pages: false });
      // Drop one record from the previous index: its fingerprint still says "unchanged".
      const path = join(first.dir, 'index/summaries/0.json');
      const lines = readFileSync(path, 'utf8').split('\n');
      writeFileSync(path, [...lines.slice(0, 2), ...lines.slice(3)].join('\n'));
      clock.advance(60_000);
      await changeEvidence(store, 'svc_r0000009'); // so the index is written, not linked
      const again = await publish({ ...ctx, log: { ...ctx.log, warn: (m: string) => warnings.push(m) } }, store, { pages: false });
      expect(again.incremental).toEqual({ previous: null, rendered: 12, linked: 0 });
      expect(warnings.join('\n')).toMatch(/sharing with generation .* failed .*rendering every service/);
      expect((await verifyTree(again.dir)).ok).toBe(true);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('a detail file missing from the previous generation makes it render everything; a missing page is rendered alone', async () => {
    const { cleanup, store, clock, ctx } = await setup(12);
    const warnings: string[] = [];
    const log = { ...ctx.log, warn: (m: string) => warnings.push(m) };
    try {
      const first = await publish(ctx, store);
      // A page gone: the service is still shared, its page written again from its detail.
      unlinkSync(join(first.dir, 'services/svc_r0000003.html'));
      clock.advance(60_000);
      const second = await publish({ ...ctx, log }, store);
      expect(second.incremental.previous).toBe(first.generation);
      expect(second.incremental.rendered).toBe(0);
      expect(readFileSync(join(second.dir, 'services/svc_r0000003.html'), 'utf8')).toContain('svc_r0000003');
      expect(ino(join(second.dir, 'services/svc_r0000000.html'))).toBe(ino(join(first.dir, 'services/svc_r0000000.html')));
      expect(warnings).toEqual([]);
      // A detail file gone: the links made on the worker thread are not trusted; everything is rendered.
      unlinkSync(join(second.dir, 'api/v1/services/svc_r0000006.json'));
      clock.advance(60_000);
      const third = await publish({ ...ctx, log }, store);
      expect(third.incremental).toMatchObject({ previous: null, rendered: 12 });
      expect(warnings.join('\n')).toMatch(/could not be linked from the previous generation.*rendering every service/);
      expect((await verifyTree(third.dir)).ok).toBe(true);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('a service removed or no longer valid leaves no file behind, though every previous file was linked first', async () => {
    const { cleanup, store, clock, ctx } = await setup(12);
    try {
      const first = await publish(ctx, store);
      await store.run(`DELETE FROM services WHERE id = 'svc_r0000000'`);
      await store.run(`UPDATE services SET type = 'bogus' WHERE id = 'svc_r0000003'`);
      clock.advance(60_000);
      const second = await publish({ ...ctx, log: { ...ctx.log, warn: () => undefined } }, store);
      expect(second.incremental.previous).toBe(first.generation);
      expect(second.invalid).toBe(1);
      for (const id of ['svc_r0000000', 'svc_r0000003']) {
        expect(existsSync(join(second.dir, `api/v1/services/${id}.json`))).toBe(false);
        expect(existsSync(join(second.dir, `services/${id}.html`))).toBe(false);
        expect(existsSync(join(first.dir, `api/v1/services/${id}.json`))).toBe(true); // the older generation keeps its own
      }
      expect(readdirSync(join(second.dir, 'api/v1/services')).filter((f) => f.includes('.atlas-tmp'))).toEqual([]);
      expect((await verifyTree(second.dir)).ok).toBe(true);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('a changed service is written over its link: the previous generation keeps its own bytes', async () => {
    const { cleanup, store, clock, ctx } = await setup(12);
    try {
      const first = await publish(ctx, store);
      const before = readFileSync(join(first.dir, 'api/v1/services/svc_r0000006.json'), 'utf8');
      const page = readFileSync(join(first.dir, 'services/svc_r0000006.html'), 'utf8');
      await changeEvidence(store, 'svc_r0000006');
      clock.advance(60_000);
      const second = await publish(ctx, store);
      expect(second.incremental.rendered).toBe(1);
      expect(readFileSync(join(first.dir, 'api/v1/services/svc_r0000006.json'), 'utf8')).toBe(before);
      expect(readFileSync(join(first.dir, 'services/svc_r0000006.html'), 'utf8')).toBe(page);
      expect(readFileSync(join(second.dir, 'api/v1/services/svc_r0000006.json'), 'utf8')).not.toBe(before);
      expect(ino(join(second.dir, 'api/v1/services/svc_r0000006.json'))).not.toBe(
        ino(join(first.dir, 'api/v1/services/svc_r0000006.json')),
      );
      expect((await verifyTree(first.dir)).ok).toBe(true);
      expect((await verifyTree(second.dir)).ok).toBe(true);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('pruning the generation a newer one shares files with leaves the newer one whole', async () => {
    const { cleanup, store, clock, ctx } = await setup(12);
    try {
      const first = await publish(ctx, store);
      clock.advance(60_000);
      await changeEvidence(store, 'svc_r0000000');
      const second = await publish(ctx, store);
      expect(second.incremental.linked).toBeGreaterThan(0);
      expect(await pruneGenerations(ctx.paths.publicDir, 1)).toEqual([first.generation]);
      expect(existsSync(first.dir)).toBe(false);
      const v = await verifyTree(ctx.paths.publicDir);
      expect(v.problems).toEqual([]);
      expect(v.ok).toBe(true);
      const site = await loadGeneration(second.dir, new Date(NOW));
      expect(site.rows).toHaveLength(12);

      // And the next publish shares from the survivor.
      clock.advance(60_000);
      const third = await publish(ctx, store);
      expect(third.incremental).toMatchObject({ previous: second.generation, rendered: 0 });
      expect((await verifyTree(third.dir)).ok).toBe(true);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('a compute that changes nothing but the time shares every service: monitoring_days is added by the server, counted to data_as_of', async () => {
    const { cleanup, store, clock, ctx } = await setup(12);
    try {
      const first = await publish(ctx, store, { pages: false });
      // Five minutes on, compute runs again (no new checks, nothing to re-evaluate): every
      // service's monitoring_days in the store moved, and no published byte depends on it.
      clock.advance(5 * 60_000);
      await computeAll(ctx, store, { scope: 'changed' });
      clock.advance(60_000);
      const second = await publish(ctx, store, { pages: false });
      expect(second.incremental).toMatchObject({ previous: first.generation, rendered: 0 });

      const days = new Map(
        (await store.all<{ id: string; d: number }>('SELECT service_id AS id, monitoring_days AS d FROM evidence')).map((r) => [
          r.id,
          Number(r.d),
        ]),
      );
      const before = await loadGeneration(first.dir, new Date(NOW));
      const after = await loadGeneration(second.dir, new Date(NOW));
      expect(after.dataAsOf).toBe(new Date(Date.parse(NOW) + 5 * 60_000).toISOString());
      expect(after.rows).toHaveLength(12);
      for (const row of after.rows) {
        // The server's figure is the store's (the same rule at the same instant, both copies)...
        expect(summaryOf(row).evidence.monitoring_days).toBe(days.get(row.id));
        expect(row.monitoringDays).toBe(days.get(row.id));
        // ...and it moved by five minutes (0.003 day, rounded) since the first generation.
        const was = summaryOf(before.byId.get(row.id)!).evidence.monitoring_days;
        expect(Math.round((summaryOf(row).evidence.monitoring_days - was) * 1000)).toBeGreaterThanOrEqual(3);
        expect(Object.keys(summaryOf(row).evidence).indexOf('monitoring_days')).toBe(
          Object.keys(summaryOf(row).evidence).indexOf('monitoring_since') + 1,
        );
      }
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);

  it('the server loads the index from its buckets and refuses a layout out of step with them', async () => {
    const { cleanup, store, ctx } = await setup(40);
    try {
      const r = await publish(ctx, store, { pages: false });
      const layoutPath = join(r.dir, INDEX_BUCKETS_FILE);
      const layout = JSON.parse(readFileSync(layoutPath, 'utf8')) as IndexBuckets;
      expect(layout.bits).toBe(2); // 40 services: 4 buckets of 10 on average
      expect(layout.counts.reduce((a, b) => a + b, 0)).toBe(40);
      const site = await loadGeneration(r.dir, new Date(NOW));
      expect(site.rows.map((x) => x.id).sort()).toEqual(
        readIndex(r.dir)
          .map((x) => x.summary.id)
          .sort(),
      );

      const n = layout.counts.findIndex((c) => c > 0);
      writeFileSync(layoutPath, JSON.stringify({ ...layout, counts: layout.counts.map((c, i) => (i === n ? c + 1 : c)) }));
      await expect(loadGeneration(r.dir, new Date(NOW))).rejects.toThrow(/records, .*buckets\.json says/);
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);
});
