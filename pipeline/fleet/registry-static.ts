/**
 * Registries over a fixed list of items or entries (a saved dump), paged the way the real ones
 * page, so a dump can be served on loopback and swept as if it were live. Pure: the caller owns the
 * HTTP server.
 *
 * x402 (discovery/resources): `?limit=L&offset=O` → `{ x402Version, items, pagination: { limit,
 * offset, total } }`; the limit is capped (and echoed capped), like the largest registry does.
 * Items are served as given, whatever their `type`: saved crawls show the registry returning
 * non-http types, and an ingest must count them, not rely on a filter.
 *
 * MCP (/v0.1/servers): `?limit=L&cursor=C&version=latest` → `{ servers, metadata: { nextCursor?,
 * count } }`. `version=latest` keeps the entries flagged isLatest; without it every version is
 * served (as a whole-registry pull sees it). Deleted entries appear only with `updated_since` or
 * `include_deleted=true`. The cursor is `<name>:<version>` of the page's last entry, opaque to
 * clients; `updated_since` keeps entries updated at or after it.
 */
const META = 'io.modelcontextprotocol.registry/official';

export const STATIC_X402_MAX_LIMIT = 100;
export const STATIC_MCP_MAX_LIMIT = 100;

const intParam = (v: string | null, dflt: number): number => {
  const n = v === null ? Number.NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : dflt;
};

export function staticX402Page(items: readonly unknown[], params: URLSearchParams, x402Version = 1): Record<string, unknown> {
  const limit = Math.max(1, Math.min(intParam(params.get('limit'), STATIC_X402_MAX_LIMIT), STATIC_X402_MAX_LIMIT));
  const offset = intParam(params.get('offset'), 0);
  return { x402Version, items: items.slice(offset, offset + limit), pagination: { limit, offset, total: items.length } };
}

const metaOf = (entry: unknown): Record<string, unknown> => {
  const m = (entry as { _meta?: Record<string, unknown> } | null)?._meta?.[META];
  return m && typeof m === 'object' ? (m as Record<string, unknown>) : {};
};

const keyOf = (entry: unknown): string => {
  const s = (entry as { server?: { name?: unknown; version?: unknown } } | null)?.server;
  return `${String(s?.name ?? '')}:${String(s?.version ?? '')}`;
};

export function staticMcpPage(entries: readonly unknown[], params: URLSearchParams): Record<string, unknown> {
  const limitRaw = intParam(params.get('limit'), 30);
  const limit = Math.max(1, Math.min(limitRaw || 30, STATIC_MCP_MAX_LIMIT));
  const latestOnly = params.get('version') === 'latest';
  const since = params.get('updated_since');
  const sinceMs = since ? Date.parse(since) : Number.NaN;
  const includeDeleted = since !== null || params.get('include_deleted') === 'true';
  const rows = entries.filter((e) => {
    const m = metaOf(e);
    if (latestOnly && m.isLatest !== true) return false;
    if (!includeDeleted && m.status === 'deleted') return false;
    if (!Number.isNaN(sinceMs) && !(Date.parse(String(m.updatedAt ?? '')) >= sinceMs)) return false;
    return true;
  });
  const cursor = params.get('cursor');
  let start = 0;
  if (cursor) {
    const i = rows.findIndex((e) => keyOf(e) === cursor);
    start = i >= 0 ? i + 1 : rows.length;
  }
  const page = rows.slice(start, start + limit);
  const metadata: Record<string, unknown> = { count: page.length };
  if (start + limit < rows.length && page.length > 0) metadata.nextCursor = keyOf(page[page.length - 1]);
  return { servers: page, metadata };
}
