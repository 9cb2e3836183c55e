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
 * - a conditional request that matches (`notModifiedFor`: If-None-Match, else If-Modified-Since)
 *   answers 304 with no body and the same validators and cache headers.
 * Every error and every other method gets `no-store`. Routes that set all their headers themselves
 * (the cached search, middleware/finished-headers.ts) apply the same rules with these helpers.
 *
 * The body is read before any header is touched, and the answer is rebuilt from those bytes and the
 * final headers. Under `@hono/node-server` a handler's Response is the adapter's lightweight class:
 * its `headers` is a provisional object until the body is read, when the adapter builds a native
 * Response holding a copy of it. A header set on the provisional object after that read (the ETag,
 * which needs the bytes) never reaches the socket, although `app.request()` in-process, where the
 * Response is native, shows it.
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

/**
 * If-Modified-Since evaluation (RFC 9110 §13.1.3), for GET and HEAD when the request has no
 * If-None-Match: true when the representation was last modified no later than the date sent. A value
 * that is not an HTTP date, or lies after the server's clock, is ignored (a client cannot pin an
 * answer with a future date); so is a missing Last-Modified.
 */
export function ifModifiedSinceUnchanged(header: string | null | undefined, lastModified: string | undefined, now: Date): boolean {
  if (header == null || lastModified === undefined) return false;
  const since = Date.parse(header);
  const modified = Date.parse(lastModified);
  if (Number.isNaN(since) || Number.isNaN(modified) || since > now.getTime()) return false;
  return modified <= since;
}

/**
 * Whether a GET or HEAD is answered 304 (RFC 9110 §13.2.2 order): If-None-Match decides when it is
 * present, whatever it says; otherwise If-Modified-Since against the answer's `Last-Modified`.
 */
export function notModifiedFor(
  header: (name: string) => string | undefined,
  etag: string,
  lastModified: string | undefined,
  now: Date,
): boolean {
  const inm = header('if-none-match');
  if (inm !== undefined) return ifNoneMatchMatches(inm, etag);
  return ifModifiedSinceUnchanged(header('if-modified-since'), lastModified, now);
}

/**
 * `Age` of an answer reused from a result computed at `computedAtMs` (RFC 9111 §5.1): whole seconds,
 * rounded up, so a cache that adds its own time to it never keeps the answer past the result's life.
 */
export function ageSeconds(computedAtMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((nowMs - computedAtMs) / 1000));
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
    if ((method !== 'GET' && method !== 'HEAD') || c.res.status >= 400) {
      c.res.headers.set('Cache-Control', ERROR_CACHE_CONTROL);
      return;
    }
    const path = c.req.path;
    const policy = routePolicy(path);
    const vary = policy.vary || (opts.rateLimited && path !== '/healthz');
    if (policy.cls === 'uncached' || c.res.status < 200 || c.res.status >= 300) {
      // Redirects and the MCP stream: no validators (the MCP body is a stream, never buffered here).
      const h = c.res.headers;
      if (vary) h.append('Vary', KEY_VARY);
      if (policy.cls === 'uncached') h.set('Cache-Control', CACHE_CONTROL.uncached);
      return;
    }
    // Bytes first, then the headers as they are once the body is read (see the note above).
    const res = c.res;
    const body = new Uint8Array(await res.arrayBuffer());
    const h = new Headers(res.headers);
    if (vary) h.append('Vary', KEY_VARY);
    const keyed = policy.keyed === true && hasKey(c);
    h.set('Cache-Control', keyed ? KEYED_CACHE_CONTROL : CACHE_CONTROL[policy.cls]);
    const gen = opts.generation();
    const now = opts.now();
    const live = policy.cls === 'live' || policy.cls === 'probe';
    const modified = live ? now : policy.cls === 'asset' ? opts.startedAt : (gen?.generatedAt ?? now);
    const lm = httpDate(modified);
    if (lm) h.set('Last-Modified', lm);
    const etag = strongEtag(gen?.generation, body, keyed);
    h.set('ETag', etag);
    c.res = undefined; // replace, do not merge: Hono's setter would copy the old answer's headers back
    c.res = notModifiedFor((n) => c.req.header(n), etag, lm, now)
      ? notModified(h)
      : new Response(body, { status: res.status, statusText: res.statusText, headers: h });
  };
}
