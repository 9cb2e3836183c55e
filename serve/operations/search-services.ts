import { API_STATUS } from '../../site/contract/common.ts';
import { NO_MATCH_HINT, type QueryEcho, type ServiceList } from '../../site/contract/service-list.ts';
import { NOTES } from '../../site/contract/notes.ts';
import type { AppDeps } from '../deps.ts';
import type { CacheEntry } from '../search/cache.ts';
import { presentSummaryJson, type SummaryRender, summaryRender } from '../search/present.ts';
import { parseServicesQuery, queryKey, type EffectiveQuery } from '../search/query.ts';
import type { SearchRow } from '../search/row.ts';
import { runSearch } from '../search/run.ts';

const ECHO_TOP = new Set(['scope', 'provider', 'group', 'sort', 'limit', 'offset']);

export function queryEcho(q: EffectiveQuery): QueryEcho {
  const echo: QueryEcho = { scope: q.scope, sort: q.sort, limit: q.limit, offset: q.offset };
  if (q.provider !== undefined) echo.provider = q.provider;
  if (q.group !== undefined) echo.group = q.group;
  const filters: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(q)) if (!ECHO_TOP.has(k) && v !== undefined) filters[k] = v as string | number | boolean;
  if (Object.keys(filters).length) echo.filters = filters;
  return echo;
}

/**
 * A computed search answer as the cache keeps it. Most queries are asked once, so an entry first
 * keeps only what renders the body (the page's rows and the head: a few hundred bytes that do not
 * grow the old generation the way a kept body would); the UTF-8 bytes are kept from the second
 * time the query is asked within the entry's life.
 */
export interface SearchAnswer {
  items: number;
  /**
   * What the body is a pure function of: the loaded generation and the normalized query (the
   * cache key), the answer instant (`generated_at`, freshness and `schedule_tier` are read against
   * it) and the base URL of links. Two answers share it only when their bytes are equal, so the
   * strong ETag hashes this instead of the body (serve/routes/api.ts).
   */
  identity: string;
  /** The body, rendered from the entry's own inputs: every call gives the same string. */
  json: () => string;
  /** The body as UTF-8, kept by the HTTP route once the query is asked again. */
  body?: Buffer<ArrayBuffer>;
}

/**
 * GET /api/v1/services (docs/api.md, ServiceList and parameters) and the MCP search tool. Returns the cache entry so the
 * HTTP route sends its body as is; `searchServices` returns the list as an object.
 * Throws AtlasError `invalid_parameter` (400) naming the parameter. `now` is the answer instant (the
 * route passes the one it also measures the answer's `Age` against).
 */
export function searchServicesEntry(
  deps: AppDeps,
  rawQuery: Record<string, unknown> | (() => Record<string, unknown>),
  rawQueryString?: string,
  now: Date = deps.clock(),
): CacheEntry<SearchAnswer> {
  const site = deps.site.current();
  const nowMs = now.getTime();
  // Fast path: the exact query string seen before maps to the same entry without re-validating
  // (it validated the first time; the entry expires with the normalized one).
  const rawKey = rawQueryString === undefined ? undefined : `${site.generation}\u0000raw\u0000${rawQueryString}`;
  if (rawKey !== undefined) {
    const hit = deps.searchCache.get(rawKey, nowMs);
    if (hit) {
      deps.metrics.searchLookup(true); // one hit or miss per search, whichever key answered it
      return hit;
    }
  }
  const q = parseServicesQuery(typeof rawQuery === 'function' ? rawQuery() : rawQuery);
  const key = `${site.generation}\u0000${queryKey(q)}`;
  const hit = deps.searchCache.get(key, nowMs);
  if (hit) {
    deps.metrics.searchLookup(true);
    if (rawKey !== undefined) deps.searchCache.alias(rawKey, hit);
    return hit;
  }
  deps.metrics.searchLookup(false);
  const { total, page } = runSearch(site.rows, site.columns, site.orders, q, nowMs);
  const head: ServiceList = {
    api_status: API_STATUS,
    generated_at: now.toISOString(),
    data_as_of: site.dataAsOf,
    notes: NOTES,
    query: queryEcho(q),
    total,
    items: [],
  };
  if (total === 0) head.hint = NO_MATCH_HINT;
  const baseUrl = deps.config.serve.baseUrl;
  const render = summaryRender({ now, baseUrl });
  const answer: SearchAnswer = {
    items: page.length,
    identity: `${key}\u0000${nowMs}\u0000${baseUrl ?? ''}`,
    json: () => serviceListJson(head, page, render),
  };
  const entry = deps.searchCache.set(key, answer, nowMs);
  if (rawKey !== undefined) deps.searchCache.alias(rawKey, entry);
  return entry;
}

/**
 * `JSON.stringify` of `head` with `page` as its items, each spliced in as presented JSON
 * (present.ts presentSummaryJson) instead of being built as objects and serialized. `head.items`
 * is empty; the last `"items":[]` of its serialization is the member itself (any text before it is
 * inside escaped strings or earlier members).
 */
export function serviceListJson(head: ServiceList, page: SearchRow[], r: SummaryRender): string {
  const text = JSON.stringify(head);
  const at = text.lastIndexOf('"items":[]') + '"items":['.length;
  let items = '';
  for (let k = 0; k < page.length; k++) items += k === 0 ? presentSummaryJson(page[k]!, r) : `,${presentSummaryJson(page[k]!, r)}`;
  return text.slice(0, at) + items + text.slice(at);
}

/** The answer of a cache entry as an object (parsed from its body: the MCP tool and pages). */
export function searchValue(entry: CacheEntry<SearchAnswer>): ServiceList {
  return JSON.parse(entry.value.json()) as ServiceList;
}

export async function searchServices(deps: AppDeps, rawQuery: Record<string, unknown>): Promise<ServiceList> {
  return searchValue(searchServicesEntry(deps, rawQuery));
}
