import type { Logger } from '../../pipeline/core/log.ts';
import type { Cluster } from '../../pipeline/core/postgres.ts';
import { keyedHash } from '../../pipeline/core/secret.ts';
import type { RequestWindows } from '../middleware/rate-limit.ts';

const TAKE = `INSERT INTO atlas.request_windows AS w (who, minute, n) VALUES ($1, $2, 1)
  ON CONFLICT (who, minute) DO UPDATE SET n = w.n + 1 RETURNING n`;

/** After a failed call, this replica counts in memory for this long before trying PostgreSQL again. */
const RETRY_AFTER_MS = 5000;
/**
 * A window not counted by then is counted in memory instead: a PostgreSQL that hangs (a network
 * partition: no refusal, only silence until the connect timeout) must not hold reads either.
 */
const WAIT_MS = 1000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * Per-minute request windows shared by every replica (`cluster.postgres` set): one atomic upsert
 * per request, so a limit of L lets exactly L requests of one key (or address) pass per minute across
 * all replicas. Addresses are stored as keyed hashes, never in clear.
 *
 * PostgreSQL unreachable (or silent for WAIT_MS) must not take reads down: the request is then
 * counted in `fallback`, this replica's memory (the limit holds per replica, as on one machine), and
 * PostgreSQL is tried again RETRY_AFTER_MS later (monotonic time: a back-off, not a rule, so it
 * does not follow the injected clock, which a test or `--now` may hold still). A late answer may still count
 * the request in PostgreSQL too: stricter, never looser.
 */
export function pgRequestWindows(opts: { cluster: Cluster; secret: string; fallback: RequestWindows; log: Logger }): RequestWindows {
  let retryAt = 0;
  return {
    async take(who, window) {
      const now = performance.now();
      if (now < retryAt) return opts.fallback.take(who, window);
      try {
        const r = await within(opts.cluster.query<{ n: number }>(TAKE, [keyedHash(opts.secret, 'window', who), window]), WAIT_MS);
        return Number(r.rows[0]?.n ?? 1);
      } catch (e) {
        opts.log.warn('serve: shared request limits unavailable; counting this replica’s requests in memory', {
          error: (e as Error).message,
        });
        retryAt = now + RETRY_AFTER_MS;
        return opts.fallback.take(who, window);
      }
    },
  };
}
