/**
 * Publish timing on a synthetic database (not a test; run by hand):
 *   npx tsx test/pipeline/publish/bench-publish.ts [services=100000] [days=10] [--keep DIR] [--no-pages] [--show]
 * Seeds raw rows (test/pipeline/publish/seed.ts), runs compute once, then times `publish` (with and
 * without HTML pages) and reports wall time, per-step times and peak RSS as one JSON line.
 * --keep DIR: keep the data folder in DIR and reuse it when it already holds a database.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeAll } from '../../../pipeline/compute/index.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { readIndex } from './read-tree.ts';
import { seedChangesAndReports, seedRaw } from './seed.ts';

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 100_000);
  const days = Number(process.argv[3] ?? 10);
  const show = process.argv.includes('--show');
  const now = new Date('2026-11-25T12:00:00Z');
  const keepAt = process.argv.indexOf('--keep');
  const kept = keepAt > 0 ? process.argv[keepAt + 1] : undefined;
  const { dir, cleanup } = kept ? { dir: kept, cleanup: () => undefined } : tempDir('atlas-bench-publish-');
  if (kept) mkdirSync(kept, { recursive: true });
  const reuse = kept !== undefined && existsSync(join(kept, 'atlas.duckdb'));
  const store = await openTestStore(dir, now);
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  try {
    let t = performance.now();
    if (!reuse) {
      await seedRaw(store, now, n, days);
      await seedChangesAndReports(store, now);
    }
    const seedMs = performance.now() - t;
    const ctx = makeContext(dir, { now: now.toISOString() });
    t = performance.now();
    if (!reuse) await computeAll(ctx, store, { scope: 'full' });
    const computeMs = performance.now() - t;
    const [c] = await store.all<{ n: string }>('SELECT count(*) AS n FROM checks');
    const [sv] = await store.all<{ n: string }>('SELECT count(*) AS n FROM services');
    const rssBefore = process.memoryUsage().rss;
    peak = rssBefore;
    const withPages = !process.argv.includes('--no-pages');
    t = performance.now();
    let cpu = process.cpuUsage();
    const r = withPages ? await publish(ctx, store, {}) : null;
    const publishMs = performance.now() - t;
    const cpuPages = process.cpuUsage(cpu);
    const t2 = performance.now();
    cpu = process.cpuUsage();
    const second = await publish(ctx, store, { pages: false });
    const publishNoPagesMs = performance.now() - t2;
    const cpuNoPages = process.cpuUsage(cpu);
    const cpuMs = (c: NodeJS.CpuUsage) => ({ user: Math.round(c.user / 1000), system: Math.round(c.system / 1000) });
    console.log(
      JSON.stringify({
        services: Number(sv?.n),
        checks: Number(c?.n),
        seed_ms: Math.round(seedMs),
        compute_ms: Math.round(computeMs),
        // CPU time of this process (JS and DuckDB threads): less sensitive to a busy machine than wall time.
        publish_ms: r ? Math.round(publishMs) : null,
        publish_cpu_ms: r ? cpuMs(cpuPages) : null,
        publish_steps: r?.steps ?? null,
        publish_without_pages_ms: Math.round(publishNoPagesMs),
        publish_without_pages_cpu_ms: cpuMs(cpuNoPages),
        publish_without_pages_steps: second.steps,
        pages: r?.pages ?? false,
        load_average: (await import('node:os')).loadavg().map((x) => Math.round(x * 10) / 10),
        rss_before_mb: Math.round(rssBefore / 2 ** 20),
        peak_rss_mb: Math.round(peak / 2 ** 20),
        counts: second.counts,
        invalid: second.invalid,
      }),
    );
    if (show) {
      const first = readIndex(`${dir}/public/current`)[1]!;
      console.log(JSON.stringify(first, null, 1));
      console.log(readFileSync(`${dir}/public/current/api/v1/services/${first.summary.id}.json`, 'utf8').slice(0, 4000));
    }
  } finally {
    clearInterval(timer);
    store.close();
    cleanup();
  }
}

await main();
