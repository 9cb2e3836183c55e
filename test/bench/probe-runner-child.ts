import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { writeHeapSnapshot } from 'node:v8';
import { fixedClock } from '../../pipeline/core/clock.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { runProbe } from '../../pipeline/probe/index.ts';
import { limitHeapGrowth } from '../../pipeline/core/heap-growth.ts';
import { tuneStoreForSweep } from '../../pipeline/probe/process-memory.ts';
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

// ATLAS_BENCH_MEM=1: a memory breakdown on stderr (process.memoryUsage() at start, after the
// database is open and at the sampled peak of each sweep, plus the kernel's anonymous/file split and
// DuckDB's own accounting at the end of each sweep). Diagnostics only; the figures sent back are the same.
const memOn = !!process.env.ATLAS_BENCH_MEM;
const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)}MB`;
const usage = (m: NodeJS.MemoryUsage) =>
  `rss ${mb(m.rss)} heapTotal ${mb(m.heapTotal)} heapUsed ${mb(m.heapUsed)} external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}`;
const kernel = () => {
  try {
    const st = readFileSync('/proc/self/status', 'utf8');
    const parts = ['RssAnon', 'RssFile', 'VmHWM']
      .map((k) => new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(st))
      .map((m, i) => `${['anon', 'file', 'hwm'][i]} ${m ? mb(Number(m[1]) * 1024) : '?'}`);
    // Anonymous memory by kind of mapping: the main malloc heap ([heap]), 64 MB-aligned mappings
    // (glibc's per-thread malloc arenas) and everything else (V8's pages, DuckDB's own allocator, stacks).
    const by = { heap: 0, arenas: 0, other: 0 };
    let cur: keyof typeof by | null = null;
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const head = /^([0-9a-f]+)-[0-9a-f]+ (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
      if (head) {
        const [, start, , inode, name] = head;
        if (inode !== '0' || (name && name !== '[heap]')) cur = null;
        else if (name === '[heap]') cur = 'heap';
        else cur = BigInt(`0x${start}`) % BigInt(64 * 2 ** 20) === 0n ? 'arenas' : 'other';
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss && cur) by[cur] += Number(rss[1]) * 1024;
    }
    parts.push(`(malloc heap ${mb(by.heap)}, thread arenas ${mb(by.arenas)}, other anon ${mb(by.other)})`);
    return parts.join(' ');
  } catch {
    return '';
  }
};
if (memOn) process.stderr.write(`  [runner at start: ${usage(process.memoryUsage())}; ${kernel()}]\n`);

process.on('message', (m: { concurrency: number; timeoutMs: number; shard: { index: number; count: number } }) => {
  void (async () => {
    if (!store) {
      store = await openStore(ctx.paths.db);
      // As `atlas probe` does (cli/commands/probe.ts); ATLAS_BENCH_UNTUNED=1 leaves both out (the code before).
      if (!process.env.ATLAS_BENCH_UNTUNED) {
        limitHeapGrowth();
        await tuneStoreForSweep(store);
      }
      // ATLAS_BENCH_RUNNER_SQL: statements (separated by ;) run on the prober's database before the first sweep (e.g. DuckDB settings).
      for (const sql of (process.env.ATLAS_BENCH_RUNNER_SQL ?? '').split(';').filter((x) => x.trim())) await store.run(sql);
      if (memOn) process.stderr.write(`  [runner after the database is open: ${usage(process.memoryUsage())}; ${kernel()}]\n`);
    }
    let peakMem = process.memoryUsage();
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      if (m.rss > peakMem.rss) peakMem = m;
    }, 100);
    // ATLAS_BENCH_HEAPSNAP=ms: one heap snapshot that many ms into the run (live objects only: V8 collects first).
    const snapAt = Number(process.env.ATLAS_BENCH_HEAPSNAP ?? 0);
    const snap = snapAt > 0 ? setTimeout(() => process.stderr.write(`  [heap snapshot ${writeHeapSnapshot()}]\n`), snapAt) : null;
    // ATLAS_BENCH_HEAPPROF=file: a sampling allocation profile of the sweep that keeps what V8's
    // major GC collected (objects promoted to the old space and then dropped: what makes the old space
    // grow between full collections), written to that file (.heapprofile, Chrome DevTools format).
    const profFile = process.env.ATLAS_BENCH_HEAPPROF;
    const insp = profFile ? new Session() : null;
    const post = (method: string, params?: object) =>
      new Promise<unknown>((res, rej) => insp!.post(method, params ?? {}, (e, r) => (e ? rej(e) : res(r))));
    // ATLAS_BENCH_HEAPPROF_AT=ms: instead, stop that many ms into the sweep and keep only what is still
    // alive then (what the sweep holds on to, which sets how far V8 lets the old space grow).
    const liveAt = Number(process.env.ATLAS_BENCH_HEAPPROF_AT ?? 0);
    let profDone: Promise<void> | null = null;
    const stopProf = async () => {
      const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
      writeFileSync(profFile!, JSON.stringify(profile));
      insp!.disconnect();
    };
    if (insp) {
      insp.connect();
      await post('HeapProfiler.startSampling', { samplingInterval: 8 * 1024, includeObjectsCollectedByMajorGC: !liveAt });
      if (liveAt) setTimeout(() => (profDone ??= stopProf()), liveAt);
    }
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const s = await runProbe(ctx, store, { concurrency: m.concurrency, timeoutMs: m.timeoutMs, shard: m.shard });
    const cu = process.cpuUsage(c0);
    clearInterval(sampler);
    if (insp) await (profDone ?? stopProf());
    if (snap) clearTimeout(snap);
    if (memOn) {
      const duck = await store.all<{ tag: string; memory_usage_bytes: string | number }>(
        'SELECT tag, memory_usage_bytes FROM duckdb_memory() WHERE memory_usage_bytes > 0 ORDER BY memory_usage_bytes DESC',
      );
      const duckText = duck.map((r) => `${r.tag} ${mb(Number(r.memory_usage_bytes))}`).join(', ');
      process.stderr.write(`  [runner at peak: ${usage(peakMem)}; at the end: ${kernel()}; duckdb buffers: ${duckText || 'none'}]\n`);
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
