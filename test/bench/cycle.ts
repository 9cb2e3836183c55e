import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { slotStart } from '../../pipeline/core/slots.ts';
import { dueOffsetMs } from '../helpers/due-offset.ts';
import { migrate, openStore } from '../../pipeline/store/index.ts';
import { arg, type Endpoint, startFleetChild } from './probe.ts';

/**
 * `npm run bench -- cycle [--size N] [--cycles N] [--concurrency N] [--timeout-ms N] [--start ISO] [--seed N] [--spread MIN]`
 *
 * The steady cycle: N services (default 100,000) served by the fleet (its own process; latency
 * 5–60 ms, nothing hanging), scheduled by schedule/1 over registry usage, and `atlas cycle` run every
 * five simulated minutes (default 288 cycles = one simulated day; each runs as fast as it can), each
 * in a fresh process as cron starts it, with an injected clock. Prints per cycle its wall time, its
 * peak RSS (the cycle process's maxRSS) and what it did (checks probed, compute scope, publish), then
 * the max and p95 over the run. Targets: every cycle under 60 s wall and 1.5 GB peak RSS.
 *
 * The schedule mix comes from the rule, not from the bench: every service is discovered, has three
 * passing checks already (past "new until the third probe") and registry payers that put it on
 * hourly (>= 100 payers: 5%), daily (5..99: 35%) or weekly (< 5: 60%) — registry usage is
 * long-tailed, so most endpoints have few payers. Slots are epoch-aligned; with `--spread 5` (the
 * default, config probe.spreadMinutes) each operation falls due at its own fixed offset in its slot
 * (docs/notes/compute.md, "When a check is due"), so each five-minute cycle probes about 1/12 of the
 * hourly, 1/288 of the daily and 1/2016 of the weekly operations; `--spread 0` gives the old
 * behaviour, every daily operation due at 00:00 UTC and every hourly one on the hour. The seeded
 * checks fill the last three slots of each operation whose due instant (slot start plus the
 * operation's offset) is before `--start` (default 2026-11-27T00:00:00Z, a Friday: weekly slots,
 * aligned to Thursday 00:00 as the epoch, are not all due at once), each at its offset in its slot
 * plus 90 s, as the cycle that found it due would have stored it; none is after `--start`.
 */
const MIX = [
  { share: 0.05, payers: 150, hours: 1 },
  { share: 0.35, payers: 20, hours: 24 },
  { share: 0.6, payers: 2, hours: 168 },
] as const;

/** Services, operations and three passing checks per operation (the slot before `start` and the two before it). */
export async function seed(dir: string, endpoints: Endpoint[], start: Date, spread: number): Promise<void> {
  const file = join(dir, 'seed.ndjson');
  const lines: string[] = [];
  let k = 0;
  for (const m of MIX) {
    const n = Math.round(endpoints.length * m.share);
    for (let j = 0; j < n && k < endpoints.length; j++, k++) {
      const e = endpoints[k]!;
      // The latest seeded check is the one of the last slot whose due instant (slot start + the
      // operation's offset) is before `start`, stored 90 s after it: never a check from the future.
      const offMs = dueOffsetMs(`cand_c${k}`, 'primary', m.hours, spread);
      const slot = slotStart(new Date(start.getTime() - offMs - 90_000 - 1), m.hours).getTime();
      lines.push(
        JSON.stringify({
          id: `cand_c${k}`,
          url: e.url,
          method: e.method,
          host: new URL(e.url).hostname,
          protocol: e.protocol,
          rule: e.protocol === 'mcp' ? 'mcp-reach/3' : 'x402-mainnet/1',
          payers: m.payers,
          hours: m.hours,
          slot0: new Date(slot).toISOString(),
          off_s: offMs / 1000,
        }),
      );
    }
  }
  writeFileSync(file, lines.join('\n'));
  const src = `read_json('${file}', format = 'newline_delimited', columns = {id: 'VARCHAR', url: 'VARCHAR', method: 'VARCHAR', host: 'VARCHAR', protocol: 'VARCHAR', rule: 'VARCHAR', payers: 'BIGINT', hours: 'INTEGER', slot0: 'TIMESTAMP', off_s: 'BIGINT'})`;
  const store = await openStore(join(dir, 'atlas.duckdb'));
  try {
    await migrate(store, start);
    await store.run(
      `INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at, protocol, registry_payers_30d, last_seen_at)
      SELECT id, 'discovered', CASE WHEN protocol = 'mcp' THEN 'mcp_server' ELSE 'api_endpoint' END, host, 'registry', host, url, method,
             TIMESTAMP '2026-10-01', TIMESTAMP '2026-10-01', TIMESTAMP '2026-10-01', protocol, payers, $1::TIMESTAMP FROM ${src}`,
      [start.toISOString()],
    );
    await store.run(`INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours, enabled)
      SELECT id, 'primary', 'call', true, url, method, NULL, rule, hours, true FROM ${src}`);
    await store.run(`INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms, ttfb_ms, run_id, url, method, bytes, detail)
      SELECT id, 'primary', slot0 - to_hours(hours * k), slot0 - to_hours(hours * k) + to_seconds(off_s + 90),
             CASE WHEN protocol = 'mcp' THEN 200 ELSE 402 END, true, 'ok', rule, 40, 20, 'seed', url, method, 0, NULL
      FROM ${src}, range(3) r(k)`);
  } finally {
    store.close();
  }
}

interface CycleReport {
  ms: number;
  maxRssBytes: number;
  steps: Array<{
    step: string;
    status: string;
    ms: number | null;
    probed?: number;
    scope?: string;
    compute_steps?: Record<string, number>;
    services?: number;
    error?: string;
  }>;
}

function runOneCycle(dir: string, at: Date, concurrency: number, timeoutMs: number, spread: number): Promise<CycleReport> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./cycle-child.ts', import.meta.url)),
        dir,
        at.toISOString(),
        String(concurrency),
        String(timeoutMs),
        String(spread),
      ],
      { maxBuffer: 16 * 2 ** 20 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`cycle at ${at.toISOString()} failed: ${stderr || err.message}`));
        const last = stdout.trim().split('\n').pop() ?? '';
        try {
          resolve(JSON.parse(last) as CycleReport);
        } catch {
          reject(new Error(`cycle at ${at.toISOString()}: no report (${stdout.slice(-300)})`));
        }
      },
    );
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? 0;
};

export async function run(args: string[]): Promise<void> {
  const size = arg(args, '--size', 100_000);
  const cycles = arg(args, '--cycles', 288);
  const concurrency = arg(args, '--concurrency', 256);
  const timeoutMs = arg(args, '--timeout-ms', 2000);
  const seedN = arg(args, '--seed', 11);
  const spread = arg(args, '--spread', 5);
  const si = args.indexOf('--start');
  const start = new Date(si >= 0 ? args[si + 1]! : '2026-11-27T00:00:00Z');
  if (Number.isNaN(start.getTime())) throw new Error('--start needs an ISO instant');
  const dir = mkdtempSync(join(tmpdir(), 'atlas-bench-cycle-'));
  const fleet = await startFleetChild(size, seedN, { minMs: 5, maxMs: 60, hangShare: 0, slowMs: 2000 });
  try {
    const t0 = performance.now();
    await seed(dir, fleet.endpoints, start, spread);
    process.stdout.write(
      `cycle: ${size} services (5% hourly, 35% daily, 60% weekly by schedule/1 over registry payers), fleet latency 5–60 ms, ` +
        `concurrency ${concurrency}, timeout ${timeoutMs} ms, spread ${spread} min, ${cycles} five-minute cycles from ${start.toISOString()}; seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s; node ${process.version}\n`,
    );
    const walls: number[] = [];
    const rss: number[] = [];
    const mb = (b: number) => (b / 2 ** 20).toFixed(0);
    for (let i = 0; i < cycles; i++) {
      const at = new Date(start.getTime() + i * 5 * 60_000);
      const r = await runOneCycle(dir, at, concurrency, timeoutMs, spread);
      walls.push(r.ms);
      rss.push(r.maxRssBytes);
      const did = r.steps
        .filter((s) => s.status !== 'skipped')
        .map((s) => {
          const extra =
            s.step === 'probe'
              ? ` ${s.probed}`
              : s.step === 'compute'
                ? ` ${s.scope} ${JSON.stringify(s.compute_steps ?? {})}`
                : s.step === 'publish'
                  ? ` ${s.services ?? ''}`
                  : '';
          return `${s.step}${extra}${s.status === 'failed' ? ' FAILED' : ''} ${s.ms ?? '?'}ms`;
        })
        .join(', ');
      process.stdout.write(
        `  ${at.toISOString().slice(11, 16)} ${(r.ms / 1000).toFixed(1)} s, peak RSS ${mb(r.maxRssBytes)} MB: ${did}; load ${os.loadavg()[0]!.toFixed(1)}\n`,
      );
      for (const s of r.steps) if (s.error) process.stdout.write(`    ${s.step}: ${s.error}\n`);
    }
    const mark = (ok: boolean) => (ok ? 'ok' : 'MISSED');
    // The first cycle starts from an empty public folder: its publish renders every service. It is
    // reported on its own; the steady cycles are the ones after it (each still counted, midnight too).
    const line = (name: string, w: number[], r: number[]) => {
      if (!w.length) return;
      const maxWall = Math.max(...w);
      const maxRss = Math.max(...r);
      process.stdout.write(
        `${name}: ${w.length}; wall max ${(maxWall / 1000).toFixed(1)} s, p95 ${(p95(w) / 1000).toFixed(1)} s, median ${(median(w) / 1000).toFixed(1)} s (target < 60: ${mark(maxWall < 60_000)}); ` +
          `peak RSS max ${mb(maxRss)} MB, p95 ${mb(p95(r))} MB (target < 1536: ${mark(maxRss < 1.5 * 2 ** 30)})\n`,
      );
    };
    line('all cycles', walls, rss);
    line('steady cycles (after the first, which publishes every service from nothing)', walls.slice(1), rss.slice(1));
    process.stdout.write(`load average at the end ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores\n`);
  } finally {
    await fleet.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
