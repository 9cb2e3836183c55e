import { createHash } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { publicBaseUrl } from '../../pipeline/core/config.ts';
import { buildServerJson, renderBadge, renderLlmsTxt } from '../../site/discovery/index.ts';
import type { AppDeps } from '../deps.ts';
import { getService } from '../operations/index.ts';

/** Badges carry figures recomputed at the answer instant: cacheable as long as a search result. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=300';

/** A strong validator from the body's bytes: equal bodies, equal tags (across replicas too). */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag);
}

/** 200 with ETag and Cache-Control, or 304 when the client already holds this body. */
export function cachedBody(c: Context, body: string, contentType: string, extra: Record<string, string> = {}): Response {
  const etag = etagOf(body);
  const headers = { ETag: etag, 'Cache-Control': DISCOVERY_CACHE_CONTROL, ...extra };
  if (matches(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);
  return c.body(body, 200, { 'Content-Type': contentType, ...headers });
}

const BADGE_FILE = /^(.+)\.svg$/;

/**
 * Agent discovery and badges (docs/notes/discovery.md):
 * - `/llms.txt`: what Atlas is, its rules, how to search, with absolute links from `serve.baseUrl`;
 * - `/server.json`: this instance in the MCP registry's server.json format;
 * - `/badges/{id}.svg`: a service's 30-day pass rate and freshness as an SVG, evaluated at the answer
 *   instant (getService, the same operation as the JSON read). Unknown or malformed ids are a JSON
 *   404 with the error shape, like the API.
 * The two documents depend on the configuration only, so they are built once.
 */
export function mountDiscovery(app: Hono, deps: AppDeps): void {
  const base = publicBaseUrl(deps.config);
  let llms: string | undefined;
  let serverJson: string | undefined;
  app.get('/llms.txt', (c) => {
    llms ??= renderLlmsTxt(base);
    return cachedBody(c, llms, 'text/plain; charset=utf-8');
  });
  app.get('/server.json', (c) => {
    serverJson ??= `${JSON.stringify(buildServerJson({ baseUrl: base, registryName: deps.config.serve.registryName }), null, 2)}\n`;
    return cachedBody(c, serverJson, 'application/json; charset=utf-8');
  });
  app.get('/badges/:file', async (c) => {
    const file = c.req.param('file');
    const m = BADGE_FILE.exec(file);
    if (!m) throw new AtlasError('not_found', `no badge ${JSON.stringify(file.slice(0, 200))}: badges are /badges/{id}.svg`);
    const d = await getService(deps, m[1]!);
    const svg = renderBadge({ id: d.id, passRate: d.evidence.pass_rate, freshness: d.evidence.freshness, inDirectory: d.in_directory });
    return cachedBody(c, svg, 'image/svg+xml; charset=utf-8', {
      // An SVG opened directly is a document: no script, no external loads.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff',
    });
  });
}
