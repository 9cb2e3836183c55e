import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { migrateCluster, openCluster } from '../../pipeline/cluster/index.ts';
import { mulberry32 } from '../../pipeline/fleet/prng.ts';
import { tempDir } from '../helpers/context.ts';
import { postgresGate, startTestPostgres } from '../helpers/postgres.ts';
import { writeGeneration } from '../serve/fixture.ts';
import { type ServeProcess, startServeProcess } from '../serve/serve-process.ts';

/**
 * `npm run bench -- writes [--requests 3000] [--connections 12]`
 *
 * The replica write path (issue 26): writes per second and latency through PostgreSQL
 * (`cluster.postgres` set) against the file inbox (append + fsync per record), under the same
 * client load, with one replica and with three (the file mode's three replicas share one data
 * folder and follow each other's logs). Real `atlas serve` processes; a real PostgreSQL from the
 * test helper (fsync on). Rate limits on (the daily limits and per-minute windows are part of the
 * write path), with addresses spread over X-Forwarded-For so none reaches a limit. The mix: 20% new
 * keys, 55% outcome reports, 10% repeats of an earlier report (200), 15% feedback. Each connection
 * sends its next write as soon as the last is answered; requests go round-robin over the replicas.
 * Prints one line per run and the PostgreSQL / file ratios.
 */
interface RunResult {
  name: string;
  ok: number;
  other: number;
  /** Answers other than 200/201 by status (the file mode's 401s: a key another replica has not followed yet). */
  otherByStatus: Record<number, number>;
  seconds: number;
  p50: number;
  p99: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

async function drive(urls: string[], requests: number, connections: number): Promise<Omit<RunResult, 'name'>> {
  const pools = urls.map((u) => new Pool(u, { connections }));
  const rnd = mulberry32(20261127);
  const keys: string[] = [];
  const reports: { key: string; idem: string }[] = [];
  const latencies: number[] = [];
  let ok = 0;
  let other = 0;
  const otherByStatus: Record<number, number> = {};
  let next = 0;
  const post = async (i: number, path: string, body: unknown, key?: string) => {
    const t = performance.now();
    const r = await pools[i % pools.length]!.request({
      path,
      method: 'POST',
      body: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.${i % 250}.${(i >> 8) % 250}.${i % 199}`,
        ...(key ? { 'x-api-key': key } : {}),
      },
    });
    const text = await r.body.text();
    latencies.push(performance.now() - t);
    if (r.statusCode === 200 || r.statusCode === 201) ok++;
    else {
      other++;
      otherByStatus[r.statusCode] = (otherByStatus[r.statusCode] ?? 0) + 1;
    }
    return { status: r.statusCode, body: JSON.parse(text) as Record<string, any> };
  };
  // Two keys first, so reports have keys from the start.
  for (let i = 0; i < 2; i++) keys.push((await post(i, '/api/v1/keys', {})).body.key);
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= requests) return;
      const r = rnd();
      if (r < 0.2) {
        const a = await post(i, '/api/v1/keys', {});
        if (a.status === 201) keys.push(a.body.key);
      } else if (r < 0.75 || reports.length === 0) {
        const p = { key: keys[Math.floor(rnd() * keys.length)]!, idem: `w${i}` };
        reports.push(p);
        await post(i, '/api/v1/outcomes', { outcome: 'success', idempotency_key: p.idem }, p.key);
      } else if (r < 0.85) {
        const p = reports[Math.floor(rnd() * reports.length)]!;
        await post(i, '/api/v1/outcomes', { outcome: 'failure', idempotency_key: p.idem }, p.key);
      } else await post(i, '/api/v1/feedback', { kind: 'other', note: `n${i}` });
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(pools.map((p) => p.close()));
  latencies.sort((a, b) => a - b);
  return { ok, other, otherByStatus, seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

async function runOne(
  name: string,
  replicas: number,
  postgres: string | undefined,
  requests: number,
  connections: number,
): Promise<RunResult> {
  const tmp = tempDir('atlas-bench-writes-');
  const config = join(tmp.dir, 'atlas.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      ...(postgres ? { cluster: { postgres } } : {}),
      serve: { trustProxy: true, rateLimits: { anonymousPerMinute: 1_000_000, keyedPerMinute: 1_000_000 } },
    }),
  );
  writeGeneration(join(tmp.dir, 'public'), { generation: 'g1', now: new Date(), services: [{ id: 'cand_a' }] });
  const servers: ServeProcess[] = [];
  try {
    for (let r = 0; r < replicas; r++)
      servers.push(await startServeProcess(['--data', tmp.dir, '--config', config, 'serve', '--port', '0', '--replica', `r${r}`]));
    return {
      name,
      ...(await drive(
        servers.map((s) => s.url),
        requests,
        connections,
      )),
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    tmp.cleanup();
  }
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { requests: { type: 'string' }, connections: { type: 'string' } } });
  const requests = Number(values.requests ?? 3000);
  const connections = Number(values.connections ?? 12);
  if (!postgresGate('bench writes').present) return;
  const pg = await startTestPostgres();
  const fresh = async () => {
    const url = await pg.database();
    const c = openCluster(url);
    await migrateCluster(c);
    await c.close();
    return url;
  };
  process.stdout.write(
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${requests} writes per run, ${connections} connections\n`,
  );
  try {
    const results: RunResult[] = [];
    for (const replicas of [1, 3]) {
      results.push(await runOne(`file inbox, ${replicas} replica${replicas > 1 ? 's' : ''}`, replicas, undefined, requests, connections));
      results.push(
        await runOne(`postgresql, ${replicas} replica${replicas > 1 ? 's' : ''}`, replicas, await fresh(), requests, connections),
      );
    }
    process.stdout.write(
      `${'run'.padEnd(24)} ${'writes/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'ok'.padStart(6)} ${'other'.padStart(6)}\n`,
    );
    for (const r of results)
      process.stdout.write(
        `${r.name.padEnd(24)} ${(r.ok / r.seconds).toFixed(0).padStart(9)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ${String(r.ok).padStart(6)} ${String(r.other).padStart(6)} ${Object.entries(
          r.otherByStatus,
        )
          .map(([st, n]) => `${n}×${st}`)
          .join(' ')}\n`,
      );
    for (let i = 0; i < results.length; i += 2) {
      const [f, p] = [results[i]!, results[i + 1]!];
      process.stdout.write(
        `ratio postgresql / file (${f.name.replace('file inbox, ', '')}): writes/s ${(p.ok / p.seconds / (f.ok / f.seconds)).toFixed(2)}, p99 ${(p.p99 / f.p99).toFixed(2)}\n`,
      );
    }
  } finally {
    await pg.close();
  }
}
