import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { keyFromHeaders } from '../auth/keys.ts';
import { CACHE_CONTROL, ERROR_CACHE_CONTROL, KEY_VARY, KEYED_CACHE_CONTROL, routePolicy } from '../../site/contract/http-cache.ts';
import { headersFinished } from './finished-headers.ts';

/**
 * HTTP caching of every answer, by the policy table of site/contract/http-cache.ts (modelled on
 * hono's etag middleware). On a 2xx GET or HEAD:
 * - `ETag`: strong, `"<generation>.<hash of the body bytes>"` (a keyed read adds `k`, so it never
 *   equals the anonymous body's tag even when the bodies match);
 * - `Cache-Control` of the route's class (`private, no-store` for a keyed read of a service);
 * - `Last-Modified`: the generation's `generated_at`, or the answer time for live bodies;
 * - `Vary: Authorization, X-API-Key` where the answer depends on the key (the table, or every limited
 *   answer when rate limits are on: their RateLimit headers are per key);
 * - a matching `If-None-Match` answers 304 with no body and the same validators and cache headers.
 * Every error and every other method gets `no-store`. Routes that set all their headers themselves
 * (the cached search, middleware/finished-headers.ts) apply the same rules with `cacheHeaders`.
 */
export interface HttpCacheOptions {
  /** The loaded generation, if any (id and `generated_at`). */
  generation: () => { generation: string; generatedAt: string } | null;
  /** The injected clock: the answer time of live bodies. */
  now: () => Date;
  /** Rate limits are on: every limited answer varies by the key headers. */
  rateLimited: boolean;
  /** When this server started (Last-Modified of the built-in assets). */
  startedAt: Date;
}

/** RFC 9110 §8.8.3: etagc is `!` or `#`-`~` (and obs-text); anything else is dropped from the id. */
const etagSafe = (s: string): string => s.replace(/[^\x21\x23-\x7e]/g, '');

/** Strong entity tag of a body under a generation. */
export function strongEtag(generation: string | null | undefined, body: string | Uint8Array, keyed = false): string {
  const h = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return `"${etagSafe(generation ?? '-')}.${keyed ? 'k' : ''}${h}"`;
}

/**
 * If-None-Match evaluation (RFC 9110 §13.1.2): `*` matches any current representation; otherwise a
 * comma-separated list of entity tags compared with the weak comparison (a `W/` prefix on either side
 * is ignored, the opaque tags must be equal character for character).
 */
export function ifNoneMatchMatches(header: string | null | undefined, etag: string): boolean {
  if (header == null) return false;
  const h = header.trim();
  if (h === '*') return true;
  const ours = etag.replace(/^W\//, '');
  for (const m of h.matchAll(/(?:W\/)?("[^"]*")/g)) if (m[1] === ours) return true;
  return false;
}

/** IMF-fixdate of an ISO instant, or undefined when it does not parse. */
export function httpDate(iso: string | Date): string | undefined {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return Number.isNaN(d.getTime()) ? undefined : d.toUTCString();
}

/** Headers a 304 drops: those describing the body it does not send. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-range'];

/**
 * A 304 in place of a 200: no body; every other header (validators, cache rules, CORS) kept. Plain
 * header records stay plain (the Node adapter writes those without building a Headers object).
 */
export function notModified(headers: Headers | Record<string, string>): Response {
  if (headers instanceof Headers) {
    const out = new Headers(headers);
    for (const h of BODY_HEADERS) out.delete(h);
    return new Response(null, { status: 304, headers: out });
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!BODY_HEADERS.includes(k.toLowerCase())) out[k] = v;
  return new Response(null, { status: 304, headers: out });
}

const hasKey = (c: Context): boolean => keyFromHeaders((n) => c.req.header(n)) !== null;

export function httpCache(opts: HttpCacheOptions): MiddlewareHandler {
  return async function httpCache(c, next) {
    await next();
    if (headersFinished(c)) return;
    const method = c.req.method;
    const res = c.res;
    if ((method !== 'GET' && method !== 'HEAD') || res.status >= 400) {
      res.headers.set('Cache-Control', ERROR_CACHE_CONTROL);
      return;
    }
    const path = c.req.path;
    const policy = routePolicy(path);
    const h = res.headers;
    if (policy.vary || (opts.rateLimited && path !== '/healthz')) h.append('Vary', KEY_VARY);
    if (policy.cls === 'uncached' || res.status < 200 || res.status >= 300) {
      // Redirects and the MCP stream: no validators (the MCP body is a stream, never buffered here).
      if (policy.cls === 'uncached') h.set('Cache-Control', CACHE_CONTROL.uncached);
      return;
    }
    const keyed = policy.keyed === true && hasKey(c);
    h.set('Cache-Control', keyed ? KEYED_CACHE_CONTROL : CACHE_CONTROL[policy.cls]);
    const gen = opts.generation();
    const live = policy.cls === 'live' || policy.cls === 'probe';
    const modified = live ? opts.now() : policy.cls === 'asset' ? opts.startedAt : (gen?.generatedAt ?? opts.now());
    const lm = httpDate(modified);
    if (lm) h.set('Last-Modified', lm);
    const body = new Uint8Array(await res.clone().arrayBuffer());
    const etag = strongEtag(gen?.generation, body, keyed);
    h.set('ETag', etag);
    if (ifNoneMatchMatches(c.req.header('If-None-Match'), etag)) {
      await res.body?.cancel();
      c.res = undefined; // replace, do not merge: Hono's setter would copy the 200's body headers back
      c.res = notModified(h);
    }
  };
}
