import type { Context, Hono } from 'hono';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { publicBaseUrl } from '../../pipeline/core/config.ts';
import { buildServerJson, renderBadge, renderLlmsTxt } from '../../site/discovery/index.ts';
import type { AppDeps } from '../deps.ts';
import { getService } from '../operations/index.ts';

/**
 * 200 with the body. ETag, Cache-Control, Last-Modified and the 304 answer come from the one HTTP
 * caching middleware (serve/middleware/http-cache.ts) and its policy table (site/contract/http-cache.ts).
 */
function body(c: Context, text: string, contentType: string, extra: Record<string, string> = {}): Response {
  return c.body(text, 200, { 'Content-Type': contentType, ...extra });
}

const BADGE_FILE = /^(.+)\.svg$/;

/**
 * Agent discovery and badges (docs/notes/discovery.md):
 * - `/llms.txt`: what Atlas is, its rules, how to search, with absolute links from `serve.baseUrl`;
 * - `/server.json`: this instance in the MCP registry's server.json format;
 * - `/badges/{id}.svg`: a service's 30-day check figures as an SVG of one neutral colour, evaluated at the answer
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
    return body(c, llms, 'text/plain; charset=utf-8');
  });
  app.get('/server.json', (c) => {
    serverJson ??= `${JSON.stringify(buildServerJson({ baseUrl: base, registryName: deps.config.serve.registryName }), null, 2)}\n`;
    return body(c, serverJson, 'application/json; charset=utf-8');
  });
  app.get('/badges/:file', async (c) => {
    const file = c.req.param('file');
    const m = BADGE_FILE.exec(file);
    if (!m) throw new AtlasError('not_found', `no badge ${JSON.stringify(file.slice(0, 200))}: badges are /badges/{id}.svg`);
    const d = await getService(deps, m[1]!);
    const e = d.evidence;
    const svg = renderBadge({
      id: d.id,
      checks30d: e.checks_30d,
      passed30d: e.passed_30d,
      missed30d: e.missed_30d,
      passRate: e.pass_rate,
      freshness: e.freshness,
    });
    return body(c, svg, 'image/svg+xml; charset=utf-8', {
      // An SVG opened directly is a document: no script, no external loads.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff',
    });
  });
}
