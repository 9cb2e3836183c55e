import { secondCatalogLists } from './catalogs.ts';
import { DEFAULT_PAGE, x402CatalogItem } from './registry-x402.ts';
import { isListed, type FleetState } from './state.ts';

/**
 * The fleet's second x402 catalog, modelled on Binance's CDP-compatible Bazaar on BNB Smart Chain:
 * the same list format as the first (`GET /discovery/resources?limit=L&offset=O` →
 * `{ x402Version: 2, items, pagination: { limit, offset, total } }`) over a different, overlapping
 * set of endpoints (catalogs.ts). It also pages by cursor, as the discovery format now allows:
 * every page but the last names `pagination.nextCursor`, and `?cursor=C` continues from there (the
 * cursor is opaque to clients; here the next offset in base64url). Items are rendered exactly as the
 * first catalog renders them, so the two catalogs agree on what they both list.
 */
const encodeCursor = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

function decodeCursor(c: string): number | null {
  const m = /^o:(\d+)$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}

const int = (v: string | null, dflt: number): number => {
  const n = v === null ? Number.NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : dflt;
};

export function x402SecondCatalogPage(state: FleetState, params: URLSearchParams): Record<string, unknown> {
  const now = state.clock();
  const type = params.get('type');
  const limit = Math.max(1, Math.min(int(params.get('limit'), DEFAULT_PAGE), state.quirks.maxLimit));
  const cursor = params.get('cursor');
  const offset = cursor !== null ? (decodeCursor(cursor) ?? 0) : int(params.get('offset'), 0);
  // Only `http` items: this catalog lists no MCP servers.
  const all =
    type === null || type === 'http'
      ? state.specs.filter((s) => isListed(state, s.name) && secondCatalogLists(state.specs, s, state.timeline, now))
      : [];
  const page = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? encodeCursor(offset + limit) : null;
  return {
    x402Version: 2,
    items: page.map((s) => x402CatalogItem(state, s, now)),
    pagination: { limit, offset, total: all.length, ...(next ? { nextCursor: next } : {}) },
  };
}
