import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';

/**
 * The benchmark's baseline: a bare undici loop (p-limit at the same concurrency, an Agent with the
 * same per-origin connections and header limit, fleet names sent to 127.0.0.1, body dumped), in its
 * own process so its heap never counts against the prober's RSS. Receives
 * { endpoints, concurrency, timeoutMs, perHost } over IPC, answers { ms, ok, failed, cpuMs }.
 */
interface Job {
  endpoints: Array<{ url: string; method: 'GET' | 'POST' }>;
  concurrency: number;
  timeoutMs: number;
  perHost: number;
}

async function bareLoop(job: Job) {
  const lookup = (_h: string, o: { all?: boolean }, cb: (e: null, a: unknown, f?: number) => void) =>
    o?.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
  const agent = new Agent({
    connect: { timeout: job.timeoutMs, lookup: lookup as never },
    headersTimeout: job.timeoutMs,
    bodyTimeout: job.timeoutMs,
    maxHeaderSize: 128 * 1024,
    connections: job.perHost,
  });
  const limit = pLimit(job.concurrency);
  let ok = 0;
  let failed = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    await Promise.all(
      job.endpoints.map((e) =>
        limit(async () => {
          try {
            const res = await request(e.url, {
              dispatcher: agent,
              method: e.method,
              headers: { accept: 'application/json', 'user-agent': 'bare-undici' },
              body: e.method === 'POST' ? '{}' : null,
              signal: AbortSignal.timeout(job.timeoutMs),
              reset: true,
            });
            await res.body.dump({ limit: 256 * 1024 }).catch(() => undefined);
            ok++;
          } catch {
            failed++;
          }
        }),
      ),
    );
  } finally {
    await agent.close().catch(() => undefined);
  }
  const cpu = process.cpuUsage(c0);
  return { ms: performance.now() - t0, ok, failed, cpuMs: (cpu.user + cpu.system) / 1000 };
}

process.on('message', (job: Job) => {
  void bareLoop(job).then((r) => process.send!(r));
});
process.on('disconnect', () => process.exit(0));
