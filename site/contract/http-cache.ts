/**
 * HTTP caching rules: the one policy table, read by the server's middleware
 * (serve/middleware/http-cache.ts) and by publish, which states the same rules for static hosts in
 * each generation's `_headers` file (pipeline/publish/headers-file.ts). How long an answer may be reused
 * follows the data's own rules:
 * - search results: a computed result is reused for five minutes (serve/search/cache.ts), and that
 *   is the whole life of the answer: a reused answer carries `Age` (seconds since the result was
 *   computed, rounded up), so a client or shared cache keeps it for `max-age` minus `Age` only;
 * - published resources: unchanged until the next publish, and a cycle publishes every five minutes;
 * - live bodies (recomputed against the server clock at answer time: `/api/v1/status`, the HTML
 *   pages): a few seconds, so a burst of reloads is absorbed but a stopped pipeline shows promptly;
 * - `/healthz`: stored but revalidated every time (a probe must see the server as it is now);
 * - the built-in assets (stylesheet, script): one publish cycle, modified when the server started;
 * - the MCP endpoint, `/metrics` and every write: never stored, no validators.
 * Every cacheable answer (2xx GET or HEAD) carries a strong `ETag`, `Last-Modified` and its class's
 * `Cache-Control`; a conditional request answers 304 with no body and the same validators: by
 * `If-None-Match` when present, else by `If-Modified-Since` (a date after the server's clock is
 * ignored). Errors are never stored (`no-store`), whatever their route. A keyed read of a service
 * carries a `referral_id` for that key, so it is `private, no-store` and its ETag never equals the
 * anonymous body's. API answers vary by the key headers (the referral id, the per-key rate limits);
 * with rate limits on, so does every limited answer.
 */

/** The publish cycle's period: a published resource can change no sooner than this. */
export const PUBLISH_CYCLE_SECONDS = 300;
/** How long one computed search result is reused (serve/search/cache.ts). */
export const SEARCH_RESULT_SECONDS = 300;
/** Live bodies: recomputed at answer time. */
export const LIVE_SECONDS = 10;

export type CacheClass = 'search' | 'published' | 'live' | 'probe' | 'asset' | 'uncached';

export const CACHE_CONTROL: Readonly<Record<CacheClass, string>> = {
  search: `public, max-age=${SEARCH_RESULT_SECONDS}`,
  published: `public, max-age=${PUBLISH_CYCLE_SECONDS}`,
  live: `public, max-age=${LIVE_SECONDS}`,
  probe: 'no-cache',
  // The stylesheet and script change only with a new server build; a publish cycle is a safe bound.
  asset: `public, max-age=${PUBLISH_CYCLE_SECONDS}`,
  uncached: 'no-store',
};

/** Every error answer (status >= 400), on every route. */
export const ERROR_CACHE_CONTROL = 'no-store';
/** A read answered for a key (it carries that key's referral id). */
export const KEYED_CACHE_CONTROL = 'private, no-store';
/** The request headers that carry a key (docs/design.md, keys). */
export const KEY_VARY = 'Authorization, X-API-Key';

export interface RoutePolicy {
  /** Matches the request path (no query). */
  path: RegExp;
  cls: CacheClass;
  /** The answer depends on the key headers: send `Vary: Authorization, X-API-Key`. */
  vary: boolean;
  /** A key changes the body (adds `referral_id`): a keyed answer is private. */
  keyed?: boolean;
  /** Where the static tree serves the same resource (`_headers` patterns); none when it has no copy. */
  staticPaths?: readonly string[];
}

/** The policy table, first match wins. */
export const ROUTE_POLICIES: readonly RoutePolicy[] = [
  // Search: the result cache's life; a reused answer sends `Age`.
  { path: /^\/api\/v1\/services$/, cls: 'search', vary: true },
  { path: /^\/api\/v1\/services\/[^/]+$/, cls: 'published', vary: true, keyed: true, staticPaths: ['/api/v1/services/*'] },
  // In the static tree status is the publish-time copy (frozen), so it is a published resource there.
  { path: /^\/api\/v1\/status$/, cls: 'live', vary: true },
  { path: /^\/api\/v1\//, cls: 'published', vary: true, staticPaths: ['/api/v1/*'] },
  { path: /^\/openapi\.json$/, cls: 'published', vary: false, staticPaths: ['/openapi.json'] },
  { path: /^\/healthz$/, cls: 'probe', vary: false },
  { path: /^\/mcp$/, cls: 'uncached', vary: false },
  // A scrape must see the counters as they are now.
  { path: /^\/metrics$/, cls: 'uncached', vary: false },
  { path: /^\/assets\//, cls: 'asset', vary: false, staticPaths: ['/assets/*'] },
  // Agent discovery documents: written by publish too, unchanged until the next publish.
  { path: /^\/(llms\.txt|server\.json)$/, cls: 'published', vary: false, staticPaths: ['/llms.txt', '/server.json'] },
  // Badges are embedded in other sites' pages (and proxied by their image caches): one publish
  // cycle, like the published figures they summarize.
  { path: /^\/badges\//, cls: 'published', vary: false },
  // The HTML pages: rendered against the server clock at answer time.
  { path: /^\//, cls: 'live', vary: false },
];

const FALLBACK: RoutePolicy = { path: /^/, cls: 'uncached', vary: false };

export function routePolicy(path: string): RoutePolicy {
  for (const p of ROUTE_POLICIES) if (p.path.test(path)) return p;
  return FALLBACK;
}

/**
 * The headers file of a generation (Netlify / Cloudflare Pages `_headers` format): the same rules
 * for a CDN or static host serving the tree. Everything in a generation is frozen at publish, so
 * the default is the published rule; paths whose rule differs from it get their own block.
 */
export function staticHeadersFile(): string {
  const lines = ['# Generated by atlas publish: HTTP caching of this generation (see site/contract/http-cache.ts).'];
  lines.push('/*', `  Cache-Control: ${CACHE_CONTROL.published}`, '  X-API-Status: preview');
  for (const p of ROUTE_POLICIES) {
    if (!p.staticPaths || CACHE_CONTROL[p.cls] === CACHE_CONTROL.published) continue;
    for (const sp of p.staticPaths) lines.push(sp, `  Cache-Control: ${CACHE_CONTROL[p.cls]}`);
  }
  return `${lines.join('\n')}\n`;
}
