import { API_STATUS } from '../../site/contract/common.ts';
import type { Context, Hono } from 'hono';
import { clientAddress } from '../auth/address.ts';
import { keyFromHeaders } from '../auth/keys.ts';
import type { AppDeps } from '../deps.ts';
import { markHeadersFinished } from '../middleware/finished-headers.ts';
import { bodyCap, readJson } from '../middleware/json-body.ts';
import { ageSeconds, httpDate, notModified, notModifiedFor, strongEtag } from '../middleware/http-cache.ts';
import { READ_CORS_HEADERS } from '../middleware/read-cors.ts';
import {
  createKey,
  getFields,
  getReport,
  getRoadmap,
  getService,
  getStats,
  getStatus,
  listChanges,
  listReports,
  reportOutcome,
  searchServicesEntry,
  sendFeedback,
} from '../operations/index.ts';
import { CACHE_CONTROL, KEY_VARY } from '../../site/contract/http-cache.ts';
import { deprecationHeaders, scheduleTierServed } from '../search/deprecation.ts';

const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };
/**
 * Every header of a search answer in one plain object, built once: the search route returns its
 * cached body with these and marks the headers finished (see middleware/finished-headers.ts).
 */
const SEARCH_HEADERS = {
  ...JSON_TYPE,
  'X-API-Status': API_STATUS,
  ...READ_CORS_HEADERS,
  'Cache-Control': CACHE_CONTROL.search,
  Vary: KEY_VARY,
};

/** Hono's `queries()` (every value per name), so repeated parameters can be rejected. */
const rawQuery = (c: Context): Record<string, string[]> => c.req.queries() ?? {};
const requestKey = (c: Context): string | null => keyFromHeaders((n) => c.req.header(n));

/**
 * The HTTP routes of docs/api.md (Operations), each a thin adapter over one operation (serve/operations):
 * parse the request, call, send. Errors are thrown and mapped once by the app's onError.
 */
export function mountApi(app: Hono, deps: AppDeps): void {
  const cap = bodyCap(deps.config.serve.bodyLimitBytes);
  const trustProxy = deps.config.serve.trustProxy;

  app.get('/api/v1/services', (c) => {
    const url = c.req.url;
    const qi = url.indexOf('?');
    const now = deps.clock();
    const entry = searchServicesEntry(deps, () => rawQuery(c), qi < 0 ? '' : url.slice(qi + 1), now);
    const answer = entry.value;
    let body: string | Buffer<ArrayBuffer> | undefined = answer.body;
    if (entry.headers === undefined) {
      // The first answer from this entry (the route continues synchronously, so the generation is
      // the one it was computed from): sent as a string that dies young, since most queries are
      // never asked again; the headers are built once.
      body = answer.json();
      entry.headers = {
        ...SEARCH_HEADERS,
        'Content-Length': String(Buffer.byteLength(body)),
        // Strong: the body is a pure function of the answer's identity (operations/search-services.ts).
        ETag: strongEtag(deps.site.current().generation, answer.identity),
        // The representation is the computed result: it was last modified when it was computed.
        'Last-Modified': httpDate(new Date(entry.computedAtMs)) ?? '',
      };
      // Only answers with items carry `schedule_tier`, so only they send the tier headers.
      entry.headersDeprecated = answer.items > 0 ? { ...entry.headers, ...deprecationHeaders() } : entry.headers;
    }
    // `Age`: the result's time in this cache, so a client or shared cache keeps the answer only for
    // what is left of the result's five minutes (max-age minus Age), never five more.
    const headers: Record<string, string> = {
      ...(scheduleTierServed(now) ? entry.headersDeprecated! : entry.headers!),
      Age: String(ageSeconds(entry.computedAtMs, now.getTime())),
    };
    markHeadersFinished(c); // the rate limiter still adds its own headers when enabled
    if (notModifiedFor((n) => c.req.header(n), headers.ETag!, headers['Last-Modified'], now)) return notModified(headers);
    // Asked again: keep the bytes, so later hits send them as they are.
    body ??= answer.body = Buffer.from(answer.json(), 'utf8');
    return new Response(body, { status: 200, headers });
  });

  app.get('/api/v1/services/:id', async (c) => {
    const body = await getService(deps, c.req.param('id'), requestKey(c));
    return c.json(body, 200, scheduleTierServed(deps.clock()) ? deprecationHeaders() : {});
  });

  app.get('/api/v1/stats', async (c) => c.json(await getStats(deps)));
  app.get('/api/v1/status', async (c) => c.json(await getStatus(deps)));
  app.get('/api/v1/roadmap', async (c) => c.json(await getRoadmap(deps)));
  app.get('/api/v1/fields', async (c) => c.json(await getFields(deps)));
  app.get('/api/v1/reports', async (c) => c.json(await listReports(deps)));
  app.get('/api/v1/reports/:id', async (c) => c.json(await getReport(deps, c.req.param('id'))));
  app.get('/api/v1/changes', async (c) => c.json(await listChanges(deps, rawQuery(c))));

  app.post('/api/v1/keys', cap, async (c) => c.json(await createKey(deps, await readJson(c), clientAddress(c, trustProxy)), 201));

  app.post('/api/v1/outcomes', cap, async (c) => {
    // The key is checked before the body is read: 401 wins over 400 (a key is required, docs/design.md).
    const key = requestKey(c);
    const body = key === null ? undefined : await readJson(c);
    const r = await reportOutcome(deps, body, key);
    return c.json(r.body, r.status);
  });

  app.post('/api/v1/feedback', cap, async (c) => c.json(await sendFeedback(deps, await readJson(c), clientAddress(c, trustProxy)), 201));
}
