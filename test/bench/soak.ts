import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { readInbox } from '../../pipeline/inbox/read.ts';
import { INBOX_KINDS } from '../../site/contract/inbox-records.ts';
import { openStore } from '../../pipeline/store/store.ts';
import { runCli } from '../helpers/cli.ts';
import { generateSpecs, writeGeneration } from '../serve/fixture.ts';
import { type ServeProcess, startServeProcess } from '../serve/serve-process.ts';

/**
 * `npm run bench -- soak [--seconds 600] [--services 20000] [--connections 16] [--publish-every 30]
 * [--warmup 15] [--heap-mb M]`
 *
 * A real `atlas serve` process (rate limits on, trusted proxy header) under a fixed number of
 * concurrent connections, each sending the next request as soon as the last one is answered, so
 * the rate is the highest this machine sustains. The mix: searches (repeated and always-new),
 * service details, status, the HTML pages, new keys, outcome reports (some repeating an earlier
 * idempotency key, which must answer 200 with the first receipt) and feedback. Every
 * `--publish-every` seconds a child process writes a new generation and switches `current`, so
 * the server swaps generations under load. Addresses are spread over the X-Forwarded-For header so
 * no address reaches a limit; a 429 is still counted on its own, never as an error.
 *
 * Results (bench lines, not tests): no unexpected answer or network error; no lost write (every id
 * answered 201 is in the inbox logs, and after `atlas ingest inbox` in the database); the server's
 * RSS, sampled every second after the warm-up, flat within 10% (median of the first minute against
 * the last minute; a third of the run each when it is shorter than three minutes).
 */

const OPS = {
  search_cached: { weight: 14, method: 'GET', expect: 200 },
  search: { weight: 10, method: 'GET', expect: 200 },
  detail: { weight: 24, method: 'GET', expect: 200 },
  status: { weight: 8, method: 'GET', expect: 200 },
  page_service: { weight: 7, method: 'GET', expect: 200 },
  page_home: { weight: 5, method: 'GET', expect: 200 },
  key: { weight: 4, method: 'POST', expect: 201 },
  outcome: { weight: 20, method: 'POST', expect: 201 },
  outcome_repeat: { weight: 2, method: 'POST', expect: 200 },
  feedback: { weight: 6, method: 'POST', expect: 201 },
} as const;
type Op = keyof typeof OPS;
const OP_NAMES = Object.keys(OPS) as Op[];
const TOTAL_WEIGHT = OP_NAMES.reduce((s, o) => s + OPS[o].weight, 0);

/** Latencies in 0.1 ms buckets up to 30 s (the last bucket holds anything slower). */
class Histogram {
  private readonly buckets = new Uint32Array(300_001);
  count = 0;
  add(ms: number): void {
    this.buckets[Math.min(this.buckets.length - 1, Math.round(ms * 10))]!++;
    this.count++;
  }
  quantile(q: number): number {
    const want = Math.ceil(q * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i]!;
      if (seen >= want && want > 0) return i / 10;
    }
    return 0;
  }
}

interface OpStats {
  sent: number;
  ok: number;
  limited: number;
  errors: number;
  latency: Histogram;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
};

/** Resident set size of a process (Linux /proc), in bytes; null when unavailable. */
function rssOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function publish(siteDir: string, generation: string, services: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(PROJECT_ROOT, 'test', 'bench', 'soak-publish-child.ts'), siteDir, generation, String(services)],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`publish exited ${code}`))));
  });
}

const addr = (base: number, i: number) => `${base}.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      seconds: { type: 'string', default: '600' },
      services: { type: 'string', default: '20000' },
      connections: { type: 'string', default: '16' },
      'publish-every': { type: 'string', default: '30' },
      warmup: { type: 'string', default: '15' },
      'heap-mb': { type: 'string' },
    },
  });
  const num = (name: keyof typeof values) => {
    const v = Number(values[name]);
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
    return v;
  };
  const seconds = num('seconds');
  const services = num('services');
  const connections = num('connections');
  const publishEvery = num('publish-every');
  const warmup = num('warmup');
  const heapMb = values['heap-mb'] ? num('heap-mb') : undefined;

  const dir = mkdtempSync(join(tmpdir(), 'atlas-bench-soak-'));
  const siteDir = join(dir, 'public');
  const config = join(dir, 'atlas.config.json');
  writeFileSync(config, JSON.stringify({ serve: { trustProxy: true } }));
  let server: ServeProcess | undefined;
  try {
    const specs = generateSpecs(services);
    const ids = specs.map((s) => s.id);
    writeGeneration(siteDir, { generation: 'g0000', now: new Date(), services: specs });
    server = await startServeProcess(['--data', dir, '--config', config, 'serve', '--port', '0', '--replica', 'soak'], {
      ...(heapMb ? { nodeArgs: [`--max-old-space-size=${heapMb}`] } : {}),
    });
    const pid = server.child.pid!;
    const pool = new Pool(server.url, { connections, pipelining: 1 });
    const loadAtStart = load();

    const stats = Object.fromEntries(
      OP_NAMES.map((o) => [o, { sent: 0, ok: 0, limited: 0, errors: 0, latency: new Histogram() }]),
    ) as Record<Op, OpStats>;
    const written: Record<(typeof INBOX_KINDS)[number], Set<string>> = { keys: new Set(), outcomes: new Set(), feedback: new Set() };
    const errorSamples: string[] = [];
    const keys: string[] = [];
    const reports: { key: string; idem: string; id: string }[] = [];
    let readAddr = 0;
    let writeAddr = 0;
    let seq = 0;
    let stop = false;

    const pick = (): Op => {
      let r = Math.random() * TOTAL_WEIGHT;
      for (const o of OP_NAMES) {
        r -= OPS[o].weight;
        if (r < 0) return o;
      }
      return 'detail';
    };
    const request = (op: Op): { path: string; body?: unknown; headers: Record<string, string> } => {
      const id = ids[Math.floor(Math.random() * ids.length)]!;
      const reader = { 'x-forwarded-for': addr(10, readAddr++ % 50_000) };
      const writer = { 'x-forwarded-for': addr(11, writeAddr++ % 16_000_000) };
      const key = keys[seq % Math.max(1, keys.length)];
      switch (op) {
        case 'search_cached':
          return { path: '/api/v1/services?type=api_endpoint&sort=pass_rate&limit=20', headers: reader };
        case 'search':
          return { path: `/api/v1/services?scope=index&min_checks=${seq % 500}&sort=price&limit=20`, headers: reader };
        case 'detail':
          return { path: `/api/v1/services/${id}`, headers: reader };
        case 'status':
          return { path: '/api/v1/status', headers: reader };
        case 'page_service':
          return { path: `/services/${id}`, headers: reader };
        case 'page_home':
          return { path: `/?q=api&page=${seq % 3}`, headers: reader };
        case 'key':
          return { path: '/api/v1/keys', body: { label: 'soak' }, headers: writer };
        case 'outcome':
          return {
            path: '/api/v1/outcomes',
            body: { outcome: 'success', idempotency_key: `soak-${seq}`, service_id: id },
            headers: { ...writer, 'x-api-key': key ?? '' },
          };
        case 'outcome_repeat': {
          const r = reports[seq % Math.max(1, reports.length)];
          return {
            path: '/api/v1/outcomes',
            body: { outcome: 'unknown', idempotency_key: r?.idem ?? 'none' },
            headers: { ...writer, 'x-api-key': r?.key ?? '' },
          };
        }
        case 'feedback':
          return { path: '/api/v1/feedback', body: { kind: 'other', note: `soak ${seq}` }, headers: writer };
      }
    };

    const one = async (op: Op): Promise<void> => {
      seq++;
      const req = request(op);
      const s = stats[op];
      s.sent++;
      const t0 = performance.now();
      try {
        const res = await pool.request({
          path: req.path,
          method: OPS[op].method,
          headers: req.headers,
          ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
        });
        const text = await res.body.text();
        s.latency.add(performance.now() - t0);
        if (res.statusCode === 429) {
          s.limited++;
          return;
        }
        if (res.statusCode !== OPS[op].expect) {
          s.errors++;
          if (errorSamples.length < 10) errorSamples.push(`${op} ${req.path}: ${res.statusCode} ${text.slice(0, 200)}`);
          return;
        }
        s.ok++;
        if (OPS[op].method === 'GET') return;
        const body = JSON.parse(text) as { key?: string; key_id?: string; id?: string; duplicate?: boolean; idempotency_key?: string };
        if (op === 'key') {
          written.keys.add(body.key_id!);
          keys.push(body.key!);
        } else if (op === 'outcome') {
          written.outcomes.add(body.id!);
          if (reports.length < 10_000) reports.push({ key: req.headers['x-api-key']!, idem: body.idempotency_key!, id: body.id! });
        } else if (op === 'feedback') {
          written.feedback.add(body.id!);
        } else if (op === 'outcome_repeat') {
          const r = reports.find((x) => x.idem === body.idempotency_key);
          if (!body.duplicate || r?.id !== body.id) {
            s.ok--;
            s.errors++;
            if (errorSamples.length < 10) errorSamples.push(`outcome_repeat answered another receipt: ${text.slice(0, 200)}`);
          }
        }
      } catch (e) {
        s.errors++;
        if (errorSamples.length < 10) errorSamples.push(`${op} ${req.path}: ${(e as Error).message}`);
      }
    };

    // Keys and a few reports first, so outcome reports (and their repeats) have something to use.
    for (let i = 0; i < 40; i++) await one('key');
    for (let i = 0; i < 40; i++) await one('outcome');

    const t0 = performance.now();
    const perSecond: number[] = [];
    const rss: { t: number; bytes: number }[] = [];
    const generationsSeen = new Set<string>();
    const publishTimes: number[] = [];
    let publishSkipped = 0;
    let publishing: Promise<void> | null = null;
    let generation = 0;
    let lastSent = 0;
    const totalSent = () => OP_NAMES.reduce((n, o) => n + stats[o].sent, 0);

    const sampler = setInterval(() => {
      const t = (performance.now() - t0) / 1000;
      const b = rssOf(pid);
      if (b !== null) rss.push({ t, bytes: b });
      const sent = totalSent();
      perSecond.push(sent - lastSent);
      lastSent = sent;
      void pool
        .request({ path: '/healthz', method: 'GET' })
        .then((r) => r.body.json())
        .then((h) => generationsSeen.add((h as { generation?: string }).generation ?? '?'))
        .catch(() => undefined);
    }, 1000);
    const publisher = setInterval(() => {
      if (publishing) {
        publishSkipped++;
        return;
      }
      const g = `g${String(++generation).padStart(4, '0')}`;
      publishing = publish(siteDir, g, services)
        .then((s) => void publishTimes.push(s))
        .catch((e) => void errorSamples.push(`publish ${g}: ${(e as Error).message}`))
        .finally(() => {
          publishing = null;
        });
    }, publishEvery * 1000);

    const deadline = t0 + (warmup + seconds) * 1000;
    const worker = async () => {
      while (!stop && performance.now() < deadline) await one(pick());
    };
    await Promise.all(Array.from({ length: connections }, worker));
    const loadSeconds = (performance.now() - t0) / 1000;
    stop = true;
    clearInterval(sampler);
    clearInterval(publisher);
    await publishing;
    const elapsed = (performance.now() - t0) / 1000;
    const loadAtEnd = load();
    await pool.close();
    const exit = await server.stop();
    server = undefined;

    // Lost writes: every id answered 201 must be in the logs, then in the database.
    const inbox = join(dir, 'inbox');
    const lostInLogs: Record<string, number> = {};
    for (const kind of INBOX_KINDS) {
      const logged = new Set(
        readInbox(inbox, kind).records.map((r) => (kind === 'keys' ? (r as { key_id: string }).key_id : (r as { id: string }).id)),
      );
      lostInLogs[kind] = [...written[kind]].filter((id) => !logged.has(id)).length;
    }
    const ingest = await runCli(['--data', dir, 'ingest', 'inbox'], { timeoutMs: 600_000 });
    const lostInDb: Record<string, number> = {};
    if (ingest.code === 0) {
      const store = await openStore(join(dir, 'atlas.duckdb'), { readOnly: true });
      try {
        for (const kind of INBOX_KINDS) {
          const col = kind === 'keys' ? 'key_id' : 'id';
          const rows = await store.all<{ id: string }>(`SELECT ${col} AS id FROM ${kind}`);
          const inDb = new Set(rows.map((r) => r.id));
          lostInDb[kind] = [...written[kind]].filter((id) => !inDb.has(id)).length;
        }
      } finally {
        store.close();
      }
    } else errorSamples.push(`atlas ingest inbox exited ${ingest.code}: ${ingest.stderr.slice(0, 300)}`);

    // Report.
    const measured = rss.filter((s) => s.t >= warmup && s.t <= loadSeconds);
    const win = Math.min(60, Math.floor(measured.length / 3));
    const firstMedian = median(measured.slice(0, win).map((s) => s.bytes));
    const lastMedian = median(measured.slice(-win).map((s) => s.bytes));
    const peak = Math.max(0, ...rss.map((s) => s.bytes));
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
    const total = totalSent();
    const rates = perSecond.slice(Math.ceil(warmup), Math.floor(loadSeconds));
    const out = (s: string) => process.stdout.write(`${s}\n`);
    out(
      `services: ${services}, connections: ${connections}, ${seconds} s measured after a ${warmup} s warm-up (${elapsed.toFixed(0)} s in all); ${cpus().length} CPUs; load average at start ${loadAtStart}, at end ${loadAtEnd}`,
    );
    out(
      `requests: ${total} (${(total / loadSeconds).toFixed(0)} req/s; per second after warm-up: min ${Math.min(...rates)}, median ${median(rates)}, max ${Math.max(...rates)})`,
    );
    out(
      `${'op'.padEnd(15)} ${'sent'.padStart(9)} ${'ok'.padStart(9)} ${'429'.padStart(6)} ${'errors'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`,
    );
    for (const o of OP_NAMES) {
      const s = stats[o];
      out(
        `${o.padEnd(15)} ${String(s.sent).padStart(9)} ${String(s.ok).padStart(9)} ${String(s.limited).padStart(6)} ${String(s.errors).padStart(7)} ${s.latency.quantile(0.5).toFixed(1).padStart(8)} ${s.latency.quantile(0.99).toFixed(1).padStart(8)}`,
      );
    }
    out(
      `publishes: ${publishTimes.length} (each ${publishTimes.length ? `${Math.min(...publishTimes).toFixed(1)}–${Math.max(...publishTimes).toFixed(1)} s` : '-'}; ${publishSkipped} skipped while one was running); generations seen by /healthz: ${generationsSeen.size}`,
    );
    out(
      `writes answered 201: keys ${written.keys.size}, outcomes ${written.outcomes.size}, feedback ${written.feedback.size}; server exit code ${exit}`,
    );
    out(
      `RSS (every second after warm-up): first ${win} s median ${mb(firstMedian)}, last ${win} s median ${mb(lastMedian)}, peak ${mb(peak)}`,
    );
    for (const e of errorSamples) out(`  error: ${e}`);
    const errors = OP_NAMES.reduce((n, o) => n + stats[o].errors, 0);
    const limited = OP_NAMES.reduce((n, o) => n + stats[o].limited, 0);
    const lost = (m: Record<string, number>) => INBOX_KINDS.reduce((n, k) => n + (m[k] ?? Number.NaN), 0);
    const growth = firstMedian ? lastMedian / firstMedian - 1 : Number.NaN;
    const checks: [string, boolean][] = [
      [`no unexpected answers or network errors (${errors}; ${limited} answered 429, counted apart)`, errors === 0],
      [`no lost writes in the inbox logs (${lost(lostInLogs)} missing)`, lost(lostInLogs) === 0],
      [`no lost writes in the database after atlas ingest inbox (${lost(lostInDb)} missing)`, lost(lostInDb) === 0],
      [`RSS flat within 10% (last vs first median: ${(growth * 100).toFixed(1)}%)`, Math.abs(growth) <= 0.1],
      [
        `generations switched under load (${generationsSeen.size} seen, ${publishTimes.length} published)`,
        generationsSeen.size > 1 || publishTimes.length === 0,
      ],
      ['server exited 0 on SIGTERM', exit === 0],
    ];
    for (const [label, ok] of checks) out(`${ok ? 'PASS' : 'MISS'} ${label}`);
  } finally {
    await server?.stop(0);
    rmSync(dir, { recursive: true, force: true });
  }
}
