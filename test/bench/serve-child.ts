/**
 * The server process of `npm run bench -- serve` (spawned by test/bench/serve.ts): the real
 * startServer over the generated tree with rate limits off, plus two bench-only routes mounted the
 * same way as any other: `/__bench/fixed` (the baseline: a fixed precomputed string through the
 * same app and middleware) and `/__bench/mem` (RSS now and at peak). Prints one JSON line.
 */
import type { Hono } from 'hono';
import { fixedClock } from '../../pipeline/core/clock.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import type { AppDeps } from '../../serve/deps.ts';
import { markHeadersFinished } from '../../serve/middleware/finished-headers.ts';
import { startServer } from '../../serve/server.ts';

const [dataDir, nowIso] = process.argv.slice(2);
if (!dataDir || !nowIso) throw new Error('usage: serve-child <data dir> <now>');

/**
 * The baseline body: the cached search's own JSON, computed once at start, so baseline and search
 * send the same bytes and the ratio measures the server's work, not the payload.
 */
const CACHED_SEARCH = '/api/v1/services?scope=index&type=api_endpoint&min_pass_rate=0.6&max_price_usd=0.05&sort=pass_rate&limit=20';
let fixed = '';
const benchRoutes = (app: Hono, _deps: AppDeps) => {
  // The cheapest answer this server can give: the same headers as a search, set in one object.
  const headers = { 'Content-Type': 'application/json; charset=utf-8', 'X-API-Status': 'preview' };
  app.get('/__bench/fixed', (c) => {
    markHeadersFinished(c);
    return new Response(fixed, { status: 200, headers });
  });
  app.get('/__bench/mem', (c) => c.json({ rss: process.memoryUsage().rss, max_rss_kb: process.resourceUsage().maxRSS }));
  // Server CPU time so far (µs): per-request CPU is robust to other load on the machine.
  app.get('/__bench/cpu', (c) => {
    const u = process.cpuUsage();
    return c.json({ cpu_us: u.user + u.system });
  });
};

const config = defaultConfig();
config.serve.rateLimits.enabled = false;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const server = await startServer(
  { clock: fixedClock(new Date(nowIso)), config, paths: resolvePaths(dataDir), log: silentLogger, secret: 'bench-secret-0123456789abcdef' },
  { port: 0, host: '127.0.0.1', replicaId: 'bench', watchIntervalMs: 60_000, extraMounts: [benchRoutes] },
);
const startMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const startCpuMs = (cpu.user + cpu.system) / 1000;
fixed = await (await fetch(`${server.url}${CACHED_SEARCH}`)).text();
process.stdout.write(
  `${JSON.stringify({ url: server.url, start_ms: startMs, start_cpu_ms: startCpuMs, rss: process.memoryUsage().rss })}\n`,
);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
