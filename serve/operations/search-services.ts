import { API_STATUS } from '../../site/contract/common.ts';
import { NO_MATCH_HINT, type QueryEcho, type ServiceList } from '../../site/contract/service-list.ts';
import { NOTES } from '../../site/contract/notes.ts';
import type { AppDeps } from '../deps.ts';
import type { CacheEntry } from '../search/cache.ts';
import { presentSummary } from '../search/present.ts';
import { parseServicesQuery, queryKey, type EffectiveQuery } from '../search/query.ts';
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
 * GET /api/v1/services (docs/api.md, ServiceList and parameters) and the MCP search tool. Returns the cache entry so the
 * HTTP route can reuse one serialized body; `searchServices` returns the body itself.
 * Throws AtlasError `invalid_parameter` (400) naming the parameter.
 */
export function searchServicesEntry(
  deps: AppDeps,
  rawQuery: Record<string, unknown> | (() => Record<string, unknown>),
  rawQueryString?: string,
): CacheEntry<ServiceList> {
  const site = deps.site.current();
  const now = deps.clock();
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
  const body: ServiceList = {
    api_status: API_STATUS,
    generated_at: now.toISOString(),
    data_as_of: site.dataAsOf,
    notes: NOTES,
    query: queryEcho(q),
    total,
    items: page.map((r) => presentSummary(r, { now, baseUrl: deps.config.serve.baseUrl })),
  };
  if (total === 0) body.hint = NO_MATCH_HINT;
  const entry = deps.searchCache.set(key, body, nowMs);
  entry.identity = searchIdentity(key, nowMs, deps.config.serve.baseUrl);
  if (rawKey !== undefined) deps.searchCache.alias(rawKey, entry);
  return entry;
}

/**
 * The body of a search answer is a pure function of the loaded generation, the normalized query
 * (both in the cache key), the answer instant (`generated_at`, freshness and `schedule_tier` are
 * read against it) and the configured base URL of links; this string names exactly that, so two
 * answers share it only when their bytes are equal (the strong ETag, serve/routes/api.ts).
 */
export function searchIdentity(cacheKey: string, computedAtMs: number, baseUrl: string | undefined): string {
  return `${cacheKey}\u0000${computedAtMs}\u0000${baseUrl ?? ''}`;
}

/** The answer of a cache entry as an object (parsed back from its body once the HTTP route serialized it). */
export function searchValue(entry: CacheEntry<ServiceList>): ServiceList {
  return entry.value ?? (JSON.parse(entry.body!.toString('utf8')) as ServiceList);
}

export async function searchServices(deps: AppDeps, rawQuery: Record<string, unknown>): Promise<ServiceList> {
  return searchValue(searchServicesEntry(deps, rawQuery));
}
