import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { AtlasError } from '../../pipeline/core/errors.ts';
import type { AppDeps } from '../deps.ts';
import type { ServeMetrics } from './registry.ts';

/** Where the server's metrics are scraped (docs/operations.md "Metrics"). */
export const METRICS_PATH = '/metrics';

/** The `route` label of a request no specific route answers (404s, wildcard-only matches). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The `route` label: the pattern of the route that answers the request (`/api/v1/services/:id`),
 * never the raw path, so the label set is bounded by the routes the app registers. It is the first
 * matched route without a wildcard — wildcard patterns here are middleware (status header, CORS,
 * rate limits) — so a request stopped by a middleware (a 429) still counts under its route, and a
 * request that matches only middleware counts as `unmatched`.
 */
export function routeLabel(c: Context): string {
  for (const r of matchedRoutes(c)) if (!r.path.includes('*')) return r.path;
  return UNMATCHED_ROUTE;
}

/**
 * Counts every request (by route pattern, method, status) and times it. Registered first, so it
 * sees the final status of errors, 404s and 429s too. Scrapes of GET /metrics are not counted: the
 * request counts show the service's own traffic, and a scraper's fixed cadence would only add noise.
 * Durations are measured with the monotonic timer (for reporting only; no rule reads them).
 */
export function countRequests(metrics: ServeMetrics): MiddlewareHandler {
  return async function countRequests(c, next) {
    if (c.req.path === METRICS_PATH) return next();
    const t0 = performance.now();
    try {
      await next();
    } finally {
      metrics.request(routeLabel(c), c.req.method, c.res.status, (performance.now() - t0) / 1000);
    }
  };
}

/**
 * GET /metrics in the Prometheus text format (config `serve.metrics`: on by default; when `token`
 * is set — or ATLAS_METRICS_TOKEN — a scrape must send `Authorization: Bearer <token>`, else 401).
 * Not rate limited (the app exempts it), so a scraper never sees a 429.
 */
export function mountMetrics(app: Hono, deps: Pick<AppDeps, 'config' | 'metrics'>): void {
  const token = deps.config.serve.metrics.token;
  app.get(METRICS_PATH, async (c) => {
    if (token !== undefined && !bearerMatches(c.req.header('Authorization'), token)) {
      throw new AtlasError('unauthorized', 'metrics need Authorization: Bearer <serve.metrics.token>');
    }
    const text = await deps.metrics.registry.metrics();
    return c.body(text, 200, { 'Content-Type': deps.metrics.registry.contentType, 'Cache-Control': 'no-store' });
  });
}

/** Constant-time comparison (of digests, so the lengths match and leak nothing). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return false;
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]), digest(token));
}
