import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { Agent, request } from 'undici';
type Endpoint = { url: string; method: 'GET' | 'POST' };
export async function bareLoopExp(endpoints: Endpoint[], concurrency: number, timeoutMs: number, perHost: number): Promise<{ ms: number; ok: number; failed: number }> {
  const agent = new Agent({
    connect: { timeout: timeoutMs, lookup: ((_h: string, o: { all?: boolean }, cb: (e: null, a: unknown, f?: number) => void) => (o?.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4))) as never },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    maxHeaderSize: 128 * 1024,
    connections: perHost,
  });
  const limit = pLimit(concurrency);
  let ok = 0;
  let failed = 0;
  const t0 = performance.now();
  try {
    await Promise.all(
      endpoints.map((e) =>
        limit(async () => {
          try {
            const res = await request(e.url, {
              dispatcher: agent,
              method: e.method,
              headers: { accept: 'application/json', 'user-agent': 'bare-undici' },
              body: e.method === 'POST' ? '{}' : null,
              signal: AbortSignal.timeout(timeoutMs),
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
  return { ms: performance.now() - t0, ok, failed };
}

