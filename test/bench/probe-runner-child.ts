import { writeHeapSnapshot } from 'node:v8';
import { fixedClock } from '../../pipeline/core/clock.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { runProbe } from '../../pipeline/probe/index.ts';
import { openStore, type Store } from '../../pipeline/store/index.ts';

/**
 * The prober under measurement, in a process of its own (like `atlas probe`), so the peak RSS it
 * reports (`process.resourceUsage().maxRSS`) is the prober's alone. Args: dataDir nowIso.
 * Each IPC message { concurrency, timeoutMs, shard } runs one `runProbe` and answers
 * { probed, ms, cpuMs, maxRssBytes, counts }.
 */
const [dir, nowIso] = process.argv.slice(2) as [string, string];
const now = new Date(nowIso);
const cfg = defaultConfig();
cfg.probe.allowPrivate = true;
cfg.probe.resolve = { '*.fleet.test': '127.0.0.1' };
const ctx = { clock: fixedClock(now), paths: resolvePaths(dir), config: cfg, log: silentLogger, secret: 'bench-secret-0123456789' };
let store: Store | null = null;

process.on('message', (m: { concurrency: number; timeoutMs: number; shard: { index: number; count: number } }) => {
  void (async () => {
    if (!store) {
      store = await openStore(ctx.paths.db);
      // ATLAS_BENCH_RUNNER_SQL: statements (separated by ;) run on the prober's database before the first sweep (e.g. DuckDB settings).
      for (const sql of (process.env.ATLAS_BENCH_RUNNER_SQL ?? '').split(';').filter((x) => x.trim())) await store.run(sql);
      if (process.env.ATLAS_BENCH_MEM)
        process.stderr.write(`  [runner rss before the first sweep ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)}MB]\n`);
    }
    let peakMem = process.memoryUsage();
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      if (m.rss > peakMem.rss) peakMem = m;
    }, 100);
    // ATLAS_BENCH_HEAPSNAP=ms: one heap snapshot that many ms into the run (live objects only: V8 collects first).
    const snapAt = Number(process.env.ATLAS_BENCH_HEAPSNAP ?? 0);
    const snap = snapAt > 0 ? setTimeout(() => process.stderr.write(`  [heap snapshot ${writeHeapSnapshot()}]\n`), snapAt) : null;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const s = await runProbe(ctx, store, { concurrency: m.concurrency, timeoutMs: m.timeoutMs, shard: m.shard });
    const cu = process.cpuUsage(c0);
    clearInterval(sampler);
    if (snap) clearTimeout(snap);
    if (process.env.ATLAS_BENCH_MEM) {
      const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)}MB`;
      process.stderr.write(
        `  [runner memory at peak: rss ${mb(peakMem.rss)} heapTotal ${mb(peakMem.heapTotal)} heapUsed ${mb(peakMem.heapUsed)} external ${mb(peakMem.external)} arrayBuffers ${mb(peakMem.arrayBuffers)}]\n`,
      );
    }
    process.send!({
      probed: s.counts.probed,
      ms: performance.now() - t0,
      cpuMs: (cu.user + cu.system) / 1000,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      counts: s.counts,
    });
  })().catch((e) => {
    process.stderr.write(`${(e as Error).stack}\n`);
    process.exit(1);
  });
});
process.on('disconnect', () => {
  store?.close();
  process.exit(0);
});
