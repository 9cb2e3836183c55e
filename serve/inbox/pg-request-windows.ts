import type { Clock } from '../../pipeline/core/clock.ts';
import type { Logger } from '../../pipeline/core/log.ts';
import type { Cluster } from '../../pipeline/core/postgres.ts';
import { keyedHash } from '../../pipeline/core/secret.ts';
import type { RequestWindows } from '../middleware/rate-limit.ts';

const TAKE = `INSERT INTO atlas.request_windows AS w (who, minute, n) VALUES ($1, $2, 1)
  ON CONFLICT (who, minute) DO UPDATE SET n = w.n + 1 RETURNING n`;

/** After a failed call, this replica counts in memory for this long before trying PostgreSQL again. */
const RETRY_AFTER_MS = 1000;

/**
 * Per-minute request windows shared by every replica (`cluster.postgres` set): one atomic upsert
 * per request, so a limit of L lets exactly L requests of one key (or address) pass per minute across
 * all replicas. Addresses are stored as keyed hashes, never in clear.
 *
 * PostgreSQL unreachable must not take reads down: the request is then counted in `fallback`, this
 * replica's memory (the limit holds per replica, as on one machine), and PostgreSQL is tried again
 * one second (by the injected clock) later.
 */
export function pgRequestWindows(opts: {
  cluster: Cluster;
  secret: string;
  clock: Clock;
  fallback: RequestWindows;
  log: Logger;
}): RequestWindows {
  let retryAt = 0;
  return {
    async take(who, window) {
      const now = opts.clock().getTime();
      if (now < retryAt) return opts.fallback.take(who, window);
      try {
        const r = await opts.cluster.query<{ n: number }>(TAKE, [keyedHash(opts.secret, 'window', who), window]);
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
