import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { shardOf } from '../../pipeline/probe/index.ts';
import { migrate, openStore, type Store } from '../../pipeline/store/index.ts';

/**
 * `npm run bench -- probe [--size N] [--concurrency N] [--timeout-ms N] [--seed N]`
 *
 * Sweeps a fleet of N endpoints (default 20,000; latency 20–300 ms, 5% hanging past the timeout)
 * twice: with a bare undici loop (probe-bare-child.ts: p-limit at the same concurrency, same agent
 * limits, body dumped) and with `runProbe` (guard, rules, x402 parsing, payment terms, batched DuckDB
 * writes) in this process, interleaved shard by shard so load drift on a shared machine hits both.
 * The fleet, the bare loop and the prober each run in their own process (the prober's as
 * `atlas probe` would), so the peak RSS printed is the prober's own (maxRSS of its process).
 * Prints checks/s, CPU per check, the ratio probe/bare, and the projected time for 100,000 endpoints.
 * Targets: ratio ≥ 0.8, peak RSS < 300 MB, 100k < 10 min.
 */
export interface Endpoint {
  url: string;
  method: 'GET' | 'POST';
  protocol: 'x402' | 'mcp';
}

export function arg(args: string[], name: string, def: number): number {
  const i = args.indexOf(name);
  if (i < 0) return def;
  const n = Number(args[i + 1]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} needs a positive number`);
  return n;
}

/** The fleet in its own process (probe-fleet-child.ts); `latency` in ms, `hangShare` of endpoints never answering. */
export async function startFleetChild(
  size: number,
  seed: number,
  latency: { minMs: number; maxMs: number; hangShare: number; slowMs: number },
) {
  const child = fork(
    fileURLToPath(new URL('./probe-fleet-child.ts', import.meta.url)),
    [size, seed, latency.minMs, latency.maxMs, latency.hangShare, latency.slowMs].map(String),
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const info = await new Promise<{ port: number; endpoints: Endpoint[] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; endpoints: Endpoint[] }));
    child.once('exit', (code) => reject(new Error(`fleet child exited with ${code}`)));
  });
  return {
    ...info,
    close: () =>
      new Promise<void>((r) => {
        if (!child.connected) return r();
        child.once('exit', () => r());
        child.send('close');
      }),
  };
}

async function seed(store: Store, endpoints: Endpoint[], dir: string): Promise<void> {
  const file = join(dir, 'seed.ndjson');
  writeFileSync(
    file,
    endpoints
      .map((e, i) =>
        JSON.stringify({
          id: `cand_b${i}`,
          url: e.url,
          method: e.method,
          host: new URL(e.url).hostname,
          protocol: e.protocol,
          rule: e.protocol === 'mcp' ? 'mcp-reach/3' : 'x402-mainnet/1',
        }),
      )
      .join('\n'),
  );
  const src = `read_json('${file}', format = 'newline_delimited', columns = {id: 'VARCHAR', url: 'VARCHAR', method: 'VARCHAR', host: 'VARCHAR', protocol: 'VARCHAR', rule: 'VARCHAR'})`;
  await store.run(`INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at, protocol)
    SELECT id, 'discovered', CASE WHEN protocol = 'mcp' THEN 'mcp_server' ELSE 'api_endpoint' END, host, 'registry', host, url, method,
           TIMESTAMP '2026-11-01', TIMESTAMP '2026-11-01', TIMESTAMP '2026-11-01', protocol FROM ${src}`);
  await store.run(`INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours, enabled)
    SELECT id, 'primary', 'call', true, url, method, NULL, rule, 24, true FROM ${src}`);
}

/** The bare loop runs in its own process (probe-bare-child.ts), started once and given one shard at a time. */
function startBareChild() {
  const child = fork(fileURLToPath(new URL('./probe-bare-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    run: (job: { endpoints: Endpoint[]; concurrency: number; timeoutMs: number; perHost: number }) =>
      new Promise<{ ms: number; ok: number; failed: number; cpuMs: number }>((resolve, reject) => {
        child.once('message', (m) => resolve(m as { ms: number; ok: number; failed: number; cpuMs: number }));
        child.once('exit', (code) => reject(new Error(`bare child exited with ${code}`)));
        child.send(job);
      }),
    close: () =>
      new Promise<void>((r) => {
        if (!child.connected) return r();
        child.once('exit', () => r());
        child.disconnect();
      }),
  };
}

/** The prober runs in its own process (probe-runner-child.ts), like `atlas probe` would. */
function startRunnerChild(dir: string, now: Date, heapMb: number) {
  // --runner-heap-mb N: cap the prober's V8 old space (what NODE_OPTIONS=--max-old-space-size=N would do for `atlas probe`).
  const heap = heapMb ? [`--max-old-space-size=${heapMb}`] : [];
  // ATLAS_BENCH_RUNNER_ARGS: extra node flags for the prober only (e.g. --heap-prof to find what allocates).
  heap.push(...(process.env.ATLAS_BENCH_RUNNER_ARGS ?? '').split(' ').filter(Boolean));
  const child = fork(fileURLToPath(new URL('./probe-runner-child.ts', import.meta.url)), [dir, now.toISOString()], {
    execArgv: [...heap, '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  type Reply = {
    probed: number;
    ms: number;
    cpuMs: number;
    maxRssBytes: number;
    counts: { stored: number; passed: number; failed: number; payment_terms: number; by_reason: Record<string, number> };
  };
  return {
    run: (job: { concurrency: number; timeoutMs: number; shard: { index: number; count: number } }) =>
      new Promise<Reply>((resolve, reject) => {
        child.once('message', (m) => resolve(m as Reply));
        child.once('exit', (code) => reject(new Error(`probe runner exited with ${code}`)));
        child.send(job);
      }),
    close: () =>
      new Promise<void>((r) => {
        if (!child.connected) return r();
        child.once('exit', () => r());
        child.disconnect();
      }),
  };
}

export async function run(args: string[]): Promise<void> {
  const size = arg(args, '--size', 20_000);
  const concurrency = arg(args, '--concurrency', 64);
  const timeoutMs = arg(args, '--timeout-ms', 2000);
  const seedN = arg(args, '--seed', 7);
  const dir = mkdtempSync(join(tmpdir(), 'atlas-bench-probe-'));
  const fleet = await startFleetChild(size, seedN, { minMs: 20, maxMs: 300, hangShare: 0.05, slowMs: timeoutMs * 5 });
  const bareChild = startBareChild();
  let store: Store | null = null;
  try {
    const mcp = fleet.endpoints.filter((e) => e.protocol === 'mcp').length;
    process.stdout.write(
      `fleet: ${fleet.endpoints.length} endpoints (${fleet.endpoints.length - mcp} x402, ${mcp} MCP), latency 20–300 ms, 5% of generated endpoints hang; ` +
        `concurrency ${concurrency}, timeout ${timeoutMs} ms, 2 per host; node ${process.version}${args.includes('--runner-heap-mb') ? `; prober heap capped at ${arg(args, '--runner-heap-mb', 0)} MB` : ''}\n`,
    );
    const cfg = defaultConfig();
    const now = new Date('2026-11-25T12:10:00Z');
    store = await openStore(join(dir, 'atlas.duckdb'));
    await migrate(store, now);
    await seed(store, fleet.endpoints, dir);
    store.close();
    store = null;
    const heapMb = args.includes('--runner-heap-mb') ? arg(args, '--runner-heap-mb', 0) : 0;
    const runner = startRunnerChild(dir, now, heapMb);
    // Interleaved rounds (bare on shard i, then the probe on the same shard i) so that load drift on a
    // shared machine hits both sides alike; the same endpoints are swept by both.
    const rounds = arg(args, '--rounds', 4);
    let bareMs = 0;
    let bareFailed = 0;
    let probeMs = 0;
    let probePeak = 0;
    let bareCpu = 0;
    let probeCpu = 0;
    const counts = { probed: 0, stored: 0, passed: 0, failed: 0, payment_terms: 0, by_reason: {} as Record<string, number> };
    try {
      for (let i = 0; i < rounds; i++) {
        const part = fleet.endpoints.filter((_, k) => shardOf(`cand_b${k}`, rounds) === i);
        const bare = await bareChild.run({ endpoints: part, concurrency, timeoutMs, perHost: cfg.probe.perHost });
        bareMs += bare.ms;
        bareFailed += bare.failed;
        bareCpu += bare.cpuMs;
        const probe = await runner.run({ concurrency, timeoutMs, shard: { index: i, count: rounds } });
        probeMs += probe.ms;
        probeCpu += probe.cpuMs;
        probePeak = Math.max(probePeak, probe.maxRssBytes);
        const c = probe.counts;
        counts.probed += probe.probed;
        counts.stored += c.stored;
        counts.passed += c.passed;
        counts.failed += c.failed;
        counts.payment_terms += c.payment_terms;
        for (const [k, v] of Object.entries(c.by_reason)) counts.by_reason[k] = (counts.by_reason[k] ?? 0) + v;
        process.stdout.write(
          `  round ${i + 1}/${rounds}: ${part.length} endpoints, bare ${(bare.ms / 1000).toFixed(1)} s, probe ${(probe.ms / 1000).toFixed(1)} s\n`,
        );
      }
    } finally {
      await runner.close();
    }
    const n = fleet.endpoints.length;
    const bareRate = (n * 1000) / bareMs;
    const rate = (counts.probed * 1000) / probeMs;
    const mb = (b: number) => (b / 2 ** 20).toFixed(0);
    process.stdout.write(
      `bare undici: ${n} requests in ${(bareMs / 1000).toFixed(1)} s = ${bareRate.toFixed(1)} req/s (${bareFailed} without answer), CPU ${(bareCpu / n).toFixed(2)} ms/request\n`,
    );
    process.stdout.write(
      `atlas probe: ${counts.probed} checks in ${(probeMs / 1000).toFixed(1)} s = ${rate.toFixed(1)} checks/s; stored ${counts.stored} (${counts.passed} passed, ${counts.failed} failed), ${counts.payment_terms} payment terms; CPU ${(probeCpu / counts.probed).toFixed(2)} ms/check (incl. DuckDB threads); peak RSS ${mb(probePeak)} MB\n`,
    );
    const top = Object.entries(counts.by_reason)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    process.stdout.write(`reasons: ${top}\n`);
    const ratio = rate / bareRate;
    const projectedMin = 100_000 / rate / 60;
    const mark = (okk: boolean) => (okk ? 'ok' : 'MISSED');
    process.stdout.write(
      `ratio probe/bare ${ratio.toFixed(2)} (target >= 0.8: ${mark(ratio >= 0.8)}); peak RSS ${mb(probePeak)} MB (target < 300: ${mark(probePeak < 300 * 2 ** 20)}); ` +
        `projected 100k sweep ${projectedMin.toFixed(1)} min at concurrency ${concurrency} (target < 10: ${mark(projectedMin < 10)})\n`,
    );
    // What the machine could do if the prober had both cores to itself (the measured rate above is
    // shared with the fleet, the bare loop and anything else running): CPU per check vs 2 cores.
    const cpuPerCheck = probeCpu / counts.probed;
    const ceiling = 2000 / cpuPerCheck;
    process.stdout.write(
      `CPU ceiling on 2 cores: ${ceiling.toFixed(0)} checks/s (${cpuPerCheck.toFixed(2)} ms CPU per check) -> 100k in ${(100_000 / ceiling / 60).toFixed(1)} min of CPU; ` +
        `load average at the end ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores\n`,
    );
  } finally {
    store?.close();
    await bareChild.close();
    await fleet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  run(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`${(e as Error).stack}\n`);
    process.exitCode = 1;
  });
}
