import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { generateSpecs, writeGeneration } from '../serve/fixture.ts';

/** Must equal serve-child.ts CACHED_SEARCH (the baseline serves that answer's bytes). */
const CACHED_SEARCH = '/api/v1/services?scope=index&type=api_endpoint&min_pass_rate=0.6&max_price_usd=0.05&sort=pass_rate&limit=20';

/**
 * `npm run bench -- serve [--services N] [--duration S] [--connections C] [--heap-mb M]`
 * (`--heap-mb` runs the server with `--max-old-space-size=M`, as `NODE_OPTIONS` would.)
 *
 * Generates N (default 100,000) published services, starts the real server in a child process on
 * port 0 (rate limits off) and measures with autocannon, in the same run and with the same settings:
 * - baseline: the same server answering a fixed precomputed string (`/__bench/fixed`: the bytes of
 *   the cached search's answer, so both send the same payload);
 * - cached search: one filtered query repeated (answered from the 5-minute result cache);
 * - conditional GET: the same query with its ETag in If-None-Match (answered 304, no body), also
 *   given as a ratio to the cached 200 path;
 * - uncached filtered search: a filtered query over all N services, different every request (so
 *   every one misses the 5-minute result cache), with the run's connections and with 50;
 * - single-service read: random ids (detail files read from disk through a bounded LRU).
 * Each figure is also given as a ratio to the baseline: of requests/s, and of server CPU time per
 * request (`cpu ratio` = baseline CPU / run CPU), which stays meaningful when other processes load
 * the machine. Plus server start time (load + presort + listen; wall and CPU) and RSS after load,
 * at the end and at peak.
 * Targets (2 cores): cached ratio >= 0.7, uncached p99 < 50 ms (also with 50 connections), start < 5 s,
 * RSS < 800 MB.
 */
interface Result {
  name: string;
  rps: number;
  /** Server CPU time per request (ms): independent of other load on the machine. */
  cpuMs: number;
  bytes: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** 3xx answers (the conditional GET expects only 304s). */
  status3xx: number;
  total: number;
  errors: number;
}

type Autocannon = (opts: Record<string, unknown>) => Promise<{
  requests: { average: number; total: number };
  throughput: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  '3xx': number;
  errors: number;
}>;

function arg(args: string[], name: string, dflt: number): number {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = Number(args[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
  return v;
}

async function startChild(
  dataDir: string,
  now: Date,
  heapMb: number | undefined,
): Promise<{ child: ChildProcess; url: string; startMs: number; startCpuMs: number; wallMs: number; rss: number }> {
  const t0 = performance.now();
  const heap = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
  const child = spawn(
    process.execPath,
    [...heap, '--import', 'tsx', join(PROJECT_ROOT, 'test', 'bench', 'serve-child.ts'), dataDir, now.toISOString()],
    {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const info = JSON.parse(line) as { url: string; start_ms: number; start_cpu_ms: number; rss: number };
  return { child, url: info.url, startMs: info.start_ms, startCpuMs: info.start_cpu_ms, wallMs: performance.now() - t0, rss: info.rss };
}

export async function run(args: string[]): Promise<void> {
  const n = arg(args, 'services', 100_000);
  const duration = arg(args, 'duration', 10);
  const connections = arg(args, 'connections', 10);
  const require = createRequire(import.meta.url);
  const autocannon = require('autocannon') as Autocannon;
  const now = new Date('2026-11-25T12:00:00Z');
  const dataDir = mkdtempSync(join(tmpdir(), 'atlas-bench-serve-'));
  let child: ChildProcess | undefined;
  try {
    const tGen = performance.now();
    const specs = generateSpecs(n);
    writeGeneration(join(dataDir, 'public'), { generation: 'bench', now, services: specs });
    process.stdout.write(`generated ${n} services in ${((performance.now() - tGen) / 1000).toFixed(1)} s\n`);

    const heapMb = args.includes('--heap-mb') ? arg(args, 'heap-mb', 0) : undefined;
    const started = await startChild(dataDir, now, heapMb);
    if (heapMb) process.stdout.write(`server run with --max-old-space-size=${heapMb}\n`);
    child = started.child;
    const url = started.url;
    const ids = specs.map((s) => s.id);

    const measure = async (
      name: string,
      setup: { path?: string; next?: () => string; connections?: number; headers?: Record<string, string> },
    ): Promise<Result> => {
      const requests = setup.next
        ? [{ method: 'GET', setupRequest: (req: { path: string }) => ({ ...req, path: setup.next!() }) }]
        : [{ method: 'GET', path: setup.path, headers: setup.headers }];
      const cpu = async () => ((await (await fetch(`${url}/__bench/cpu`)).json()) as { cpu_us: number }).cpu_us;
      const before = await cpu();
      const r = await autocannon({ url, connections: setup.connections ?? connections, duration, requests });
      const used = (await cpu()) - before;
      return {
        name,
        rps: r.requests.average,
        cpuMs: used / 1000 / Math.max(1, r.requests.total),
        bytes: r.requests.average > 0 ? r.throughput.average / r.requests.average : 0,
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        status3xx: r['3xx'],
        total: r.requests.total,
        errors: r.errors,
      };
    };

    // Warm up JIT and the connection pool on each route briefly.
    await autocannon({ url, connections, duration: 2, requests: [{ method: 'GET', path: '/__bench/fixed' }] });
    await autocannon({
      url,
      connections,
      duration: 2,
      requests: [{ method: 'GET', path: '/api/v1/services?scope=index&sort=name&min_checks=1' }],
    });

    let counter = 0;
    // A new cache key every request with a similar, non-empty result: min_checks cycles through
    // 0..199 and max_price_usd moves by 0.00001 every 200 requests.
    const uncachedPath = () => {
      const k = counter++;
      return `/api/v1/services?scope=index&type=api_endpoint&min_pass_rate=0.6&max_price_usd=${(0.05 + (Math.floor(k / 200) % 100_000) * 0.00001).toFixed(5)}&sort=pass_rate&limit=20&min_checks=${k % 200}`;
    };
    const results: Result[] = [];
    results.push(await measure('baseline (fixed string)', { path: '/__bench/fixed' }));
    results.push(await measure('cached search', { path: CACHED_SEARCH }));
    const etag = (await fetch(`${url}${CACHED_SEARCH}`)).headers.get('etag');
    if (!etag) throw new Error('the cached search answered without an ETag');
    results.push(await measure('conditional GET (304)', { path: CACHED_SEARCH, headers: { 'If-None-Match': etag } }));
    results.push(await measure('uncached filtered search', { next: () => uncachedPath() }));
    results.push(await measure('uncached, 1 connection', { next: uncachedPath, connections: 1 }));
    results.push(await measure('uncached, 50 connections', { next: uncachedPath, connections: 50 }));
    results.push(await measure('single-service read', { next: () => `/api/v1/services/${ids[Math.floor(Math.random() * ids.length)]}` }));

    const conditional = results[2]!;
    const mem = (await (await fetch(`${url}/__bench/mem`)).json()) as { rss: number; max_rss_kb: number };
    const base = results[0]!.rps;
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
    process.stdout.write(
      `services: ${n}, connections: ${connections}, duration: ${duration} s per run; ${cpus().length} CPUs, load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}\n`,
    );
    process.stdout.write(
      `${'run'.padEnd(26)} ${'req/s'.padStart(9)} ${'ratio'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'cpu ms/req'.padStart(11)} ${'cpu ratio'.padStart(9)} ${'bytes'.padStart(7)} ${'errors'.padStart(7)}\n`,
    );
    for (const r of results) {
      process.stdout.write(
        `${r.name.padEnd(26)} ${r.rps.toFixed(0).padStart(9)} ${(r.rps / base).toFixed(2).padStart(6)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${r.cpuMs.toFixed(3).padStart(11)} ${(results[0]!.cpuMs / r.cpuMs).toFixed(2).padStart(9)} ${r.bytes.toFixed(0).padStart(7)} ${String(r === conditional ? r.total - r.status3xx + r.errors : r.non2xx + r.errors).padStart(7)}\n`,
      );
    }
    const cached = results[1]!;
    const uncached = results[3]!;
    const uncached1 = results[4]!;
    const uncached50 = results[5]!;
    process.stdout.write(
      `conditional GET (304) / cached search (200): ${(conditional.rps / cached.rps).toFixed(2)} (requests/s), ${(cached.cpuMs / conditional.cpuMs).toFixed(2)} (server CPU per request)\n`,
    );
    process.stdout.write(
      `server start (load ${n} + presort + listen): ${(started.startMs / 1000).toFixed(2)} s wall, ${(started.startCpuMs / 1000).toFixed(2)} s CPU; process spawn to URL: ${(started.wallMs / 1000).toFixed(2)} s\n`,
    );
    process.stdout.write(`RSS after start: ${mb(started.rss)}; at end: ${mb(mem.rss)}; peak: ${mb(mem.max_rss_kb * 1024)}\n`);
    const checks: [string, boolean][] = [
      [`cached search ratio ${(cached.rps / base).toFixed(2)} >= 0.7 (requests/s)`, cached.rps / base >= 0.7],
      [
        `cached search ratio ${(results[0]!.cpuMs / cached.cpuMs).toFixed(2)} >= 0.7 (server CPU per request)`,
        results[0]!.cpuMs / cached.cpuMs >= 0.7,
      ],
      [`uncached filtered search p99 ${uncached.p99} ms < 50 ms (${connections} connections)`, uncached.p99 < 50],
      [`uncached filtered search p99 ${uncached1.p99} ms < 50 ms (1 connection)`, uncached1.p99 < 50],
      [`uncached filtered search p99 ${uncached50.p99} ms < 50 ms (50 connections)`, uncached50.p99 < 50],
      [`start ${(started.startMs / 1000).toFixed(2)} s < 5 s`, started.startMs < 5000],
      [`peak RSS ${mb(mem.max_rss_kb * 1024)} < 800 MB`, mem.max_rss_kb * 1024 < 800 * 1024 * 1024],
      [`conditional GET answered 304 every time`, conditional.errors === 0 && conditional.status3xx === conditional.total],
      [`no errors or non-2xx answers`, results.every((r) => r === conditional || r.non2xx + r.errors === 0)],
    ];
    for (const [label, ok] of checks) process.stdout.write(`${ok ? 'PASS' : 'MISS'} ${label}\n`);
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
