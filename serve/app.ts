import { Hono } from 'hono';
import { clientAddress } from './auth/address.ts';
import { hashKey, keyFromHeaders } from './auth/keys.ts';
import type { AppDeps } from './deps.ts';
import { countRequests, METRICS_PATH, mountMetrics } from './metrics/http.ts';
import { apiStatus } from './middleware/api-status.ts';
import { notFound, onError } from './middleware/errors.ts';
import { httpCache } from './middleware/http-cache.ts';
import { readCors } from './middleware/read-cors.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { knownKeyId } from './inbox/writes.ts';
import { mountApi } from './routes/api.ts';
import { mountMeta } from './routes/meta.ts';

/**
 * The HTTP app (CONTRACTS.md "Server"). Order matters:
 * 0. request counts and latency (serve/metrics, unless `serve.metrics.enabled` is false);
 * 1. X-API-Status on everything (wraps errors and 404s too);
 * 2. CORS for reads only (GET/HEAD and their preflight) — writes stay same-origin;
 * 3. HTTP caching (ETag, Cache-Control, Last-Modified, Vary, 304; the policy table of
 *    site/contract/http-cache.ts), outside the limiter so a 429 is marked no-store too;
 * 4. rate limits (not on /healthz or /metrics, so health checks and scrapes never get 429);
 * 5. the API, /healthz, /openapi.json, /metrics, then the mounted MCP endpoint and HTML pages;
 * 6. one error mapping (onError) and a JSON 404 (notFound).
 */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  const metricsOn = deps.config.serve.metrics.enabled;
  if (metricsOn) app.use('*', countRequests(deps.metrics)); // first: sees every final status
  app.use('*', apiStatus());
  app.on(
    ['GET', 'HEAD', 'OPTIONS'],
    ['/api/*', '/healthz', '/openapi.json'],
    readCors({ allowHeaders: ['Authorization', 'X-API-Key'], maxAgeSeconds: 600 }),
  );

  const limits = deps.config.serve.rateLimits;
  const trustProxy = deps.config.serve.trustProxy;
  app.use(
    '*',
    httpCache({
      generation: () => deps.site.peek(),
      now: deps.clock,
      rateLimited: limits.enabled,
      startedAt: deps.clock(),
    }),
  );
  const limiter = rateLimit({
    clock: deps.clock,
    enabled: limits.enabled,
    anonymousPerMinute: limits.anonymousPerMinute,
    keyedPerMinute: limits.keyedPerMinute,
    windows: deps.requestWindows,
    identify: async (c) => {
      const key = keyFromHeaders((n) => c.req.header(n));
      const keyId = key ? await knownKeyId(deps.writes, hashKey(key)) : undefined;
      return keyId ? { id: keyId, keyed: true } : { id: clientAddress(c, trustProxy), keyed: false };
    },
  });
  const unlimited = (path: string) => path === '/healthz' || (metricsOn && path === METRICS_PATH);
  app.use('*', async (c, next) => (unlimited(c.req.path) ? next() : limiter(c, next)));

  mountApi(app, deps);
  mountMeta(app, deps);
  if (metricsOn) mountMetrics(app, deps);
  for (const mount of deps.mounts) mount(app, deps);

  app.onError(onError(deps.log));
  app.notFound(notFound());
  return app;
}
