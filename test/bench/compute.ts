/**
 * Benchmark of `atlas compute`: 100,000 services, 10,000,000 checks and 1,000,000
 * payment-term observations, generated inside DuckDB (generate_series/range, no per-row JS), then
 * times computeAll (full scope) and a bare `SELECT service_id, count(*) FROM checks GROUP BY service_id`
 * over the same table in the same run. Prints time, ratio and peak RSS.
 * Targets: computeAll < 15 s, ratio < 8 on 2 cores, peak RSS < 2 GB.
 *
 *   npm run bench -- compute [--services N] [--checks-per-service N] [--terms N] [--keep DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeAll } from '../../pipeline/compute/index.ts';
import { fixedClock } from '../../pipeline/core/clock.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { migrate, openStore, type Store } from '../../pipeline/store/index.ts';

export interface BenchOptions {
  services: number;
  checksPerService: number;
  terms: number;
  keep?: string;
  repeat: number;
}

export interface BenchResult {
  services: number;
  checks: number;
  terms: number;
  generate_ms: number;
  compute_first_ms: number;
  compute_ms: number;
  compute_changed_ms: number;
  bare_scan_ms: number;
  ratio: number;
  compute_cpu_ms: number;
  bare_scan_cpu_ms: number;
  cpu_ratio: number;
  load_average: number[];
  peak_rss_mb: number;
  threads: string;
  summary: unknown;
}

const NOW = new Date('2026-11-25T12:00:00.000Z');
const NOW_SQL = `TIMESTAMP '2026-11-25 12:00:00'`;

function parseArgs(args: string[]): BenchOptions {
  const o: BenchOptions = { services: 100_000, checksPerService: 100, terms: 1_000_000, repeat: 3 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = args[i + 1];
    if (a === '--services' && v) {
      o.services = Number(v);
      i++;
    } else if (a === '--checks-per-service' && v) {
      o.checksPerService = Number(v);
      i++;
    } else if (a === '--terms' && v) {
      o.terms = Number(v);
      i++;
    } else if (a === '--keep' && v) {
      o.keep = v;
      i++;
    } else if (a === '--repeat' && v) {
      o.repeat = Math.max(1, Number(v));
      i++;
    }
  }
  return o;
}

/**
 * A steady-state population: every service already on the interval schedule/1 gives it (hourly 10 %,
 * daily 60 %, weekly 30 %, by registry payers), 5 % reviewed (hourly), 25 % MCP servers, the rest
 * discovered x402; a few hosts carry many endpoints; checks spaced by each service's interval back
 * from now (about 10 % failing), oldest first as the probe would have appended them.
 */
async function generate(store: Store, o: BenchOptions): Promise<void> {
  const n = o.services;
  await store.run(`
    CREATE TEMP TABLE gen AS
    SELECT i,
      CASE WHEN i % 20 = 0 THEN 'reviewed' ELSE 'discovered' END AS tier,
      CASE WHEN i % 20 = 0 THEN 'svc_' ELSE 'cand_' END || lpad(i::VARCHAR, 8, '0') AS id,
      CASE WHEN i % 20 = 0 THEN 'x402' WHEN i % 4 = 1 THEN 'mcp' ELSE 'x402' END AS protocol,
      CASE WHEN i % 20 = 0 THEN 1 WHEN i % 10 = 1 THEN 1 WHEN i % 10 <= 6 THEN 24 ELSE 168 END AS hours,
      'h' || (i % ${Math.max(1, Math.floor(n / 5))}) || '.example' AS host
    FROM range(${n}) r(i)`);
  await store.run(`
    INSERT INTO services (id, tier, type, name, name_source, host, url, method, protocol, listed, active, monitoring_since,
      first_seen_at, approved_at, registry_payers_30d, registry_price_usd, registry_networks, created_at, updated_at)
    SELECT id, tier, CASE WHEN protocol = 'mcp' THEN 'mcp_server' ELSE 'api_endpoint' END, id,
      CASE WHEN tier = 'reviewed' THEN 'atlas' ELSE 'registry' END, host, 'https://' || host || '/' || id, 'GET', protocol,
      i % 97 <> 0, true, ${NOW_SQL} - to_hours(hours * ${o.checksPerService} + 1),
      CASE WHEN tier = 'discovered' THEN ${NOW_SQL} - to_hours(hours * ${o.checksPerService} + 1) END,
      CASE WHEN tier = 'reviewed' THEN ${NOW_SQL} - to_hours(hours * ${o.checksPerService} + 1) END,
      CASE hours WHEN 1 THEN 150 WHEN 24 THEN 20 ELSE 2 END,
      CASE WHEN protocol = 'x402' THEN 0.01 END,
      CASE WHEN protocol = 'x402' THEN ['eip155:8453'] ELSE [] END,
      ${NOW_SQL} - INTERVAL 200 DAY, ${NOW_SQL} - INTERVAL 200 DAY
    FROM gen`);
  await store.run(`
    INSERT INTO operations (service_id, id, kind, is_primary, url, method, pass_rule, interval_hours)
    SELECT id, 'primary', 'call', true, 'https://' || host || '/' || id, 'GET',
      CASE WHEN tier = 'reviewed' THEN 'reviewed/1' WHEN protocol = 'mcp' THEN 'mcp-reach/3' ELSE 'x402-mainnet/1' END, hours
    FROM gen`);
  await store.run(`
    INSERT INTO interval_changes SELECT id, 'primary', ${NOW_SQL} - to_hours(hours * ${o.checksPerService} + 1), NULL, hours, 'schedule/1',
      CASE WHEN tier = 'reviewed' THEN 'reviewed_fixed' ELSE 'new_until_third_probe' END FROM gen`);
  // daily services that started as new are now in the 5-99 band: same interval, no change
  await store.run(`
    INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms)
    SELECT id, 'primary', slot, slot + INTERVAL 7 SECOND, CASE WHEN ok THEN 402 ELSE 503 END, ok, CASE WHEN ok THEN 'ok' ELSE 'not_402' END,
      CASE WHEN tier = 'reviewed' THEN 'reviewed/1' WHEN protocol = 'mcp' THEN 'mcp-reach/3' ELSE 'x402-mainnet/1' END,
      50 + (hash(id, k) % 400)
    FROM (
      SELECT g.id, g.tier, g.protocol, k,
        time_bucket(to_hours(g.hours), ${NOW_SQL} - to_hours(g.hours * k)) AS slot,
        hash(g.id, k) % 10 <> 0 AS ok
      FROM gen g CROSS JOIN range(${o.checksPerService}) r(k)
    )
    ORDER BY slot`);
  // payment-term observations of discovered x402 services, spread evenly; one service in ten changes
  // its terms twice (a price change at its 6th observation, a network added at its 11th)
  await store.run(`
    CREATE TEMP TABLE x AS SELECT row_number() OVER (ORDER BY i) - 1 AS j, id, hours FROM gen WHERE tier = 'discovered' AND protocol = 'x402'`);
  const [xs] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM x');
  const per = Math.ceil(o.terms / Number(xs!.n));
  await store.run(`
    INSERT INTO payment_terms (service_id, operation, slot, observed_at, x402_version, offers, terms_hash, networks, schemes, assets, pay_to_hashes, amounts, timeouts, min_price_usd)
    SELECT id, 'primary', t, t + INTERVAL 7 SECOND, 2, '[]', 'h' || v::VARCHAR,
      CASE WHEN v = 2 THEN ['eip155:137', 'eip155:8453'] ELSE ['eip155:8453'] END, ['exact'],
      CASE WHEN v = 2 THEN ['eip155:137|0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', 'eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913']
        ELSE ['eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913'] END,
      ['payto-a'],
      CASE WHEN v = 2 THEN ['exact|eip155:137|0x3c499c542cef5e3811e1192ce70d8cc03d5c3359=20000', 'exact|eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913=20000']
        ELSE ['exact|eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913=' || (10000 * (v + 1))::VARCHAR] END,
      [60], 0.01
    FROM (
      SELECT x.id, CASE WHEN x.j % 10 <> 0 THEN 0 WHEN k < ${per} - 10 THEN 2 WHEN k < ${per} - 5 THEN 1 ELSE 0 END AS v,
        time_bucket(to_hours(x.hours), ${NOW_SQL} - to_hours(x.hours * k)) AS t
      FROM x CROSS JOIN range(${per}) r(k)
      WHERE x.j * ${per} + k < ${o.terms}
    )
    ORDER BY t`);
  await store.run('DROP TABLE x; DROP TABLE gen; CHECKPOINT');
}

/** Last measured CPU time (user + system, all threads of this process) of a timed call, in ms. */
let lastCpuMs = 0;

export async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const c = process.cpuUsage();
  const t = performance.now();
  const r = await fn();
  const d = process.cpuUsage(c);
  lastCpuMs = (d.user + d.system) / 1000;
  return [r, performance.now() - t];
}

export async function run(args: string[] = []): Promise<BenchResult> {
  const o = parseArgs(args);
  const dir = o.keep ?? mkdtempSync(join(tmpdir(), 'atlas-bench-compute-'));
  const paths = resolvePaths(dir);
  const store = await openStore(paths.db);
  try {
    await migrate(store, NOW);
    const [, genMs] = await timed(() => generate(store, o));
    const [[counts]] = await timed(() =>
      store.all<{ s: number; c: number; t: number }>(
        'SELECT (SELECT count(*) FROM services)::BIGINT AS s, (SELECT count(*) FROM checks)::BIGINT AS c, (SELECT count(*) FROM payment_terms)::BIGINT AS t',
      ),
    );
    const bareSql = 'SELECT service_id, count(*) FROM checks GROUP BY service_id';
    const ctxAt = (at: Date) => ({
      clock: fixedClock(at),
      paths,
      config: defaultConfig(),
      log: silentLogger,
      secret: 'bench-secret-0123456789',
    });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // The first full compute on a fresh database (reads every column it needs for the first time).
    const [, firstMs] = await timed(() => computeAll(ctxAt(NOW), store, { scope: 'full' }));
    // Then bare scans and full computes, interleaved so both see the same machine load; medians.
    const bare: number[] = [];
    const full: number[] = [];
    const bareCpu: number[] = [];
    const fullCpu: number[] = [];
    let summary: unknown = null;
    for (let r = 0; r < o.repeat; r++) {
      bare.push((await timed(() => store.run(bareSql)))[1]);
      bareCpu.push(lastCpuMs);
      const at = new Date(NOW.getTime() + (r + 1) * 60_000);
      const [s, ms] = await timed(() => computeAll(ctxAt(at), store, { scope: 'full' }));
      full.push(ms);
      fullCpu.push(lastCpuMs);
      summary = s;
    }
    const bareMs = median(bare);
    const computeMs = median(full);
    const later = new Date(NOW.getTime() + (o.repeat + 5) * 60_000);
    const [, changedMs] = await timed(() => computeAll(ctxAt(later), store, { scope: 'changed' }));
    const [threads] = await store.all<{ v: string }>("SELECT current_setting('threads')::VARCHAR AS v");
    const result: BenchResult = {
      services: Number(counts!.s),
      checks: Number(counts!.c),
      terms: Number(counts!.t),
      generate_ms: Math.round(genMs),
      compute_first_ms: Math.round(firstMs),
      compute_ms: Math.round(computeMs),
      compute_changed_ms: Math.round(changedMs),
      bare_scan_ms: Math.round(bareMs * 10) / 10,
      ratio: Math.round((computeMs / bareMs) * 100) / 100,
      compute_cpu_ms: Math.round(median(fullCpu)),
      bare_scan_cpu_ms: Math.round(median(bareCpu)),
      cpu_ratio: Math.round((median(fullCpu) / median(bareCpu)) * 100) / 100,
      load_average: loadavg().map((x) => Math.round(x * 10) / 10),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      threads: threads?.v ?? '?',
      summary,
    };
    process.stdout.write(
      [
        `compute benchmark: ${result.services} services, ${result.checks} checks, ${result.terms} payment-term observations (DuckDB threads ${result.threads})`,
        `  generate (not timed against targets): ${result.generate_ms} ms`,
        `  computeAll full, first run:     ${result.compute_first_ms} ms`,
        `  computeAll full, median of ${o.repeat}:    ${result.compute_ms} ms   (target < 15000 ms)`,
        `  computeAll changed (nothing new): ${result.compute_changed_ms} ms`,
        `  bare GROUP BY scan, median of ${o.repeat}: ${result.bare_scan_ms} ms (interleaved with the full computes)`,
        `  ratio (median full / median bare): ${result.ratio}   (target < 8)`,
        `  CPU time (user+sys, all threads), medians: full ${result.compute_cpu_ms} ms, bare ${result.bare_scan_cpu_ms} ms, ratio ${result.cpu_ratio}`,
        `  machine load average (1/5/15 min): ${result.load_average.join(' / ')} on ${result.threads} DuckDB threads`,
        `  peak RSS:           ${result.peak_rss_mb} MB (target < 2048 MB)`,
        `  steps of the last full run (ms): ${JSON.stringify((summary as { steps_ms?: unknown }).steps_ms)}`,
        `  rows: ${JSON.stringify(summary && { ...(summary as Record<string, unknown>), steps_ms: undefined, run_id: undefined })}`,
        '',
      ].join('\n'),
    );
    return result;
  } finally {
    store.close();
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  run(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`bench compute failed: ${(e as Error)?.stack ?? e}\n`);
    process.exitCode = 1;
  });
}
