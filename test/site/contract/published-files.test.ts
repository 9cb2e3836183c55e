import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import {
  Checksums,
  Manifest,
  monitoringAsOfMs,
  monitoringDaysAt,
  PUBLISHED_JSON_FILES,
  publishedJsonKind,
  RunLog,
  ServiceDetail,
  ServiceDetailFile,
} from '../../../site/contract/index.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { withServedTree } from '../../pipeline/publish/daily-world.ts';
import { parseWith } from '../../pipeline/publish/read-tree.ts';
import { seedChangesAndReports, seedRaw } from '../../pipeline/publish/seed.ts';

const NOW = '2026-11-25T12:00:00Z';

/**
 * A plain static file server: the bytes of `root/<path>` as they are, 404 for anything else. No
 * Atlas code, no rewriting (what a static host or a CDN bucket does). Loopback only.
 */
async function staticServer(root: string): Promise<{ base: string; server: Server }> {
  const top = resolve(root);
  const server = createServer((req, res) => {
    const path = resolve(top, `.${decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)}`);
    if (!path.startsWith(`${top}${sep}`)) {
      res.writeHead(404).end();
      return;
    }
    readFile(path).then(
      (bytes) => res.writeHead(200, { 'content-length': bytes.length }).end(bytes),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Every regular file under `root`, generation-relative and `/`-separated. */
function walk(root: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const d of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isDirectory()) out.push(...walk(root, rel));
    else out.push(rel);
  }
  return out;
}

describe('publishedJsonKind (site/contract/published-files.ts)', () => {
  it('maps each published JSON path to one kind and nothing else', () => {
    const cases: [string, string | null][] = [
      ['api/v1/services/svc_r0000001.json', 'service'],
      ['api/v1/services/cand_x-1_a.json', 'service'],
      ['index/summaries/0.json', 'index-bucket'],
      ['index/summaries/1fa.json', 'index-bucket'],
      ['index/buckets.json', 'index-layout'],
      ['index/moderation.json', 'moderation'],
      ['api/v1/reports/2026-11-16.json', 'report'],
      ['api/v1/reports/current.json', 'report'],
      ['api/v1/reports/index.json', 'reports'],
      ['manifest.json', 'manifest'],
      ['checksums.json', 'checksums'],
      ['openapi.json', 'openapi'],
      ['server.json', 'server-json'],
      // Not published JSON files (or not at that path): no schema claims them.
      ['api/v1/services/other.json', null],
      ['api/v1/services/svc_r0000001.html', null],
      ['api/v1/reports/last-week.json', null],
      ['index/summaries/XY.json', null],
      ['nested/manifest.json', null],
      ['checksums.json.sig', null],
    ];
    for (const [path, kind] of cases) expect(publishedJsonKind(path)?.kind ?? null, path).toBe(kind);
    // Every path matches at most one entry.
    for (const [path] of cases) expect(PUBLISHED_JSON_FILES.filter((k) => k.path.test(path)).length, path).toBeLessThanOrEqual(1);
  });
});

describe('a generation served by a plain static file server', () => {
  it('every JSON file, fetched over the socket as it is, parses under its published-file schema; the API answers are those of a full publish', async () => {
    const { dir, cleanup } = tempDir('atlas-static-host-');
    const store = await openTestStore(dir);
    let server: Server | null = null;
    try {
      await seedRaw(store, new Date(NOW), 30, 3);
      await seedChangesAndReports(store, new Date(NOW));
      const clock = testClock(NOW);
      const ctx = makeContext(dir, { clock });
      await computeAll(ctx, store, { scope: 'full' });
      const first = await publish(ctx, store);
      // An hour later, one service changed and compute ran again: a generation that mixes files
      // shared from the first (their render's instants) with files rendered now.
      clock.advance(3_600_000);
      await store.run('UPDATE evidence SET passed_30d = passed_30d - 1 WHERE service_id = $1', ['svc_r0000003']);
      await computeAll(ctx, store, { scope: 'changed' });
      clock.advance(60_000);
      const gen = await publish(ctx, store);
      expect(gen.incremental).toMatchObject({ previous: first.generation });
      expect(gen.incremental.rendered).toBeLessThan(30);
      expect(gen.incremental.rendered).toBeGreaterThan(0);

      const served = await staticServer(gen.dir);
      server = served.server;
      const fetched = async (path: string): Promise<unknown> => {
        const res = await fetch(`${served.base}/${path}`);
        expect(res.status, path).toBe(200);
        return JSON.parse(await res.text());
      };

      // The file list from the generation's own checksums (fetched like the rest), cross-checked
      // against a walk of the folder.
      const checksums = Checksums.parse(await fetched('checksums.json'));
      const listed = ['checksums.json', ...checksums.files.map((f) => f.path)].filter((p) => p.endsWith('.json')).sort();
      const onDisk = walk(gen.dir)
        .filter((p) => p.endsWith('.json'))
        .sort();
      expect(listed).toEqual(onDisk);

      const perKind: Record<string, number> = {};
      const failures: string[] = [];
      const bodies = new Map<string, unknown>();
      for (const path of listed) {
        const kind = publishedJsonKind(path);
        if (!kind) {
          failures.push(`${path}: no published-file schema`);
          continue;
        }
        const body = await fetched(path);
        bodies.set(path, body);
        const r = kind.schema.safeParse(body);
        if (r.success) perKind[kind.kind] = (perKind[kind.kind] ?? 0) + 1;
        else failures.push(`${path}: ${JSON.stringify(r.error.issues.slice(0, 3))}`);
      }
      expect(failures).toEqual([]);
      expect(Object.values(perKind).reduce((a, b) => a + b, 0)).toBe(onDisk.length);
      const buckets = readdirSync(join(gen.dir, 'index', 'summaries')).length;
      expect(perKind).toEqual({
        service: 30,
        'index-bucket': buckets,
        'index-layout': 1,
        moderation: 1,
        report: 2,
        reports: 1,
        stats: 1,
        status: 1,
        roadmap: 1,
        fields: 1,
        changes: 1,
        health: 1,
        'run-log': 1,
        manifest: 1,
        checksums: 1,
        'signing-key': 1,
        openapi: 1,
        'server-json': 1,
      });

      // A service file is the whole single-service object as of its own render: apart from the
      // file-only directory.scope it is a valid API answer. A shared file holds the first
      // generation's instants, a rendered one this generation's.
      const manifest = Manifest.parse(bodies.get('manifest.json'));
      const dataAsOf = RunLog.parse(bodies.get('run-log.json')).data_as_of;
      const firstAt = parseWith(Manifest, join(first.dir, 'manifest.json')).generated_at;
      const renderedAt = new Map<string, string>();
      for (const [path, body] of bodies) {
        if (publishedJsonKind(path)?.kind !== 'service') continue;
        const file = ServiceDetailFile.parse(body);
        const { scope: _scope, ...directory } = file.directory;
        expect(ServiceDetail.safeParse({ ...file, directory }).success, path).toBe(true);
        const at = monitoringAsOfMs(file.data_as_of, file.generated_at);
        expect(file.evidence.monitoring_days).toBe(monitoringDaysAt(Date.parse(file.evidence.monitoring_since), at));
        renderedAt.set(file.id, file.generated_at);
      }
      expect(firstAt).not.toBe(manifest.generated_at);
      expect(renderedAt.get('svc_r0000003')).toBe(manifest.generated_at);
      const sharedIds = [...renderedAt].filter(([, at]) => at === firstAt).map(([id]) => id);
      expect(sharedIds).toHaveLength(30 - gen.incremental.rendered);
      expect([...renderedAt.values()].filter((at) => at === manifest.generated_at)).toHaveLength(gen.incremental.rendered);
      const sharedId = sharedIds[0]!;

      // What the server answers from the mixed generation is what it answers from a full publish of
      // the same instant, byte for byte: the render instants are replaced, in the answer's places.
      const full = await publish(ctx, store, { out: join(dir, 'full'), full: true });
      const fullCtx = { ...ctx, paths: { ...ctx.paths, publicDir: join(dir, 'full') } };
      const ids = [...renderedAt.keys()];
      const answers = (c: typeof ctx) =>
        withServedTree(c, async (get) => {
          const out = new Map<string, string>();
          for (const id of ids) out.set(id, await (await get(`/api/v1/services/${id}`)).text());
          return out;
        });
      const mixed = await answers(ctx);
      const whole = await answers(fullCtx);
      expect(full.incremental.rendered).toBe(30);
      for (const id of ids) expect(mixed.get(id), id).toBe(whole.get(id));
      const shared = JSON.parse(mixed.get(sharedId)!) as ServiceDetail;
      expect(shared.generated_at).toBe(manifest.generated_at);
      expect(shared.data_as_of).toBe(dataAsOf);
      expect(shared.evidence.monitoring_days).toBe(
        monitoringDaysAt(Date.parse(shared.evidence.monitoring_since), monitoringAsOfMs(dataAsOf, manifest.generated_at)),
      );
      // The answer's members in the order it has always had: the two instants last.
      expect(Object.keys(shared).slice(-2)).toEqual(['generated_at', 'data_as_of']);
      expect(readFileSync(join(gen.dir, `api/v1/services/${sharedId}.json`), 'utf8')).toContain(`"generated_at":"${firstAt}"`);
    } finally {
      await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
      store.close();
      cleanup();
    }
  }, 60_000);
});
