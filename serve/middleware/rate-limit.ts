import type { MiddlewareHandler } from 'hono';
import type { Clock } from '../../pipeline/core/clock.ts';
import { AtlasError } from '../../pipeline/core/errors.ts';

/**
 * Request rate limits (docs/design.md: anonymous 60 a minute per address, keyed 600 a minute per key;
 * config `serve.rateLimits`, `enabled: false` switches them off). Fixed one-minute windows aligned
 * to the (injected) clock's minutes, counted by `windows`: in memory per replica (`memoryWindows`),
 * or shared by every replica through PostgreSQL when `cluster.postgres` is set
 * (serve/inbox/pg-request-windows.ts, which falls back to this replica's memory while PostgreSQL
 * is unreachable).
 *
 * Headers (draft-ietf-httpapi-ratelimit-headers, the widely deployed separate-field form) on every
 * limited response: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the
 * window ends) and `RateLimit-Policy: <limit>;w=60`. A 429 adds `Retry-After` (seconds).
 */
export interface RateLimitOptions {
  clock: Clock;
  enabled: boolean;
  anonymousPerMinute: number;
  keyedPerMinute: number;
  /** Who is asking: `{ id, keyed }` — a known key's id, else the client address. */
  identify: (c: Parameters<MiddlewareHandler>[0]) => Promise<{ id: string; keyed: boolean }>;
  /** Counts requests per window (default: this replica's memory). */
  windows?: RequestWindows;
}

/** Request counts per (who, one-minute window): `take` counts one more request and answers the count. */
export interface RequestWindows {
  take(who: string, window: number): Promise<number>;
}

/** This replica's own counts, in memory: only the current window is kept. */
export function memoryWindows(): RequestWindows {
  let current = -1;
  let counts = new Map<string, number>();
  return {
    async take(who, window) {
      if (window !== current) {
        current = window;
        counts = new Map(); // older windows are never needed again: memory stays bounded per minute
      }
      const used = (counts.get(who) ?? 0) + 1;
      counts.set(who, used);
      return used;
    },
  };
}

const WINDOW_MS = 60_000;

export function rateLimit(opts: RateLimitOptions): MiddlewareHandler {
  const windows = opts.windows ?? memoryWindows();
  return async function rateLimit(c, next) {
    if (!opts.enabled) return next();
    const nowMs = opts.clock().getTime();
    const w = Math.floor(nowMs / WINDOW_MS);
    const who = await opts.identify(c);
    const limit = who.keyed ? opts.keyedPerMinute : opts.anonymousPerMinute;
    const used = await windows.take(`${who.keyed ? 'k' : 'a'}:${who.id}`, w);
    const reset = Math.max(1, Math.ceil(((w + 1) * WINDOW_MS - nowMs) / 1000));
    const headers = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - used)),
      'RateLimit-Reset': String(reset),
      'RateLimit-Policy': `${limit};w=60`,
    };
    if (used > limit) {
      throw new AtlasError(
        'rate_limited',
        `rate limit reached: ${limit} requests a minute ${who.keyed ? 'per key' : 'per address (a free key raises it: POST /api/v1/keys)'}; try again in ${reset} s`,
        { retryAfter: reset, headers },
      );
    }
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}
