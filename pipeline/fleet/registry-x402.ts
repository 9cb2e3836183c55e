import { HOUR_MS } from '../core/clock.ts';
import { bazaarExtension, describe, offersAt, v1Accepts, v1StyleOf } from './payment.ts';
import { HOSTILE_DESCRIPTION, HOSTILE_SERVICE_NAME, HOSTILE_TAGS, HOSTILE_X402_ENDPOINT } from './hostile.ts';
import type { EndpointSpec } from './plan.ts';
import { secondCatalogOnly } from './catalogs.ts';
import { declaredOffers } from './declared.ts';
import { sellerOffers } from './seller-offers.ts';
import { isListed, urlOf, type FleetState } from './state.ts';

/**
 * The x402 discovery registry (the "Bazaar" discovery format), generated from the fleet:
 * `GET /discovery/resources?type=http&limit=L&offset=O` →
 * `{ x402Version: 2, items, pagination: { limit, offset, total } }`.
 * Items carry v1- or v2-shaped accepts (as the endpoint speaks), lastUpdated (mostly ISO strings,
 * every 7th a unix number, as seen in the wild), bazaar extensions with the method, and quality
 * figures whose payer counts fall in the schedule bands (≥100, 5–99, <5).
 * One `type: "mcp"` item (the tools server) is served too; `type=http` filters it out.
 */

export const DEFAULT_PAGE = 100;

const TAGS = ['weather', 'finance', 'search', 'ai', 'data', 'news', 'maps', 'tools'] as const;

/**
 * One `type: "http"` item for an x402 endpoint, as the endpoint offers now (shared with the second
 * catalog); with `declared` (quirk declaredTerms, first catalog only) the offers the catalog lists for
 * the sellers of declared.ts instead.
 */
export function x402CatalogItem(state: FleetState, spec: EndpointSpec, now: Date, declared = false): Record<string, unknown> {
  const url = urlOf(state, spec);
  const style = v1StyleOf(spec);
  const live = sellerOffers(state, spec, now);
  const offers = declared ? declaredOffers(spec, live, now, state.timeline) : live;
  const accepts = style ? v1Accepts(spec, url, offers, style) : offers.map((o) => ({ ...o }));
  const updated = new Date(state.epoch.getTime() - (spec.index % 48) * HOUR_MS);
  const calls = spec.payers * (3 + (spec.index % 7));
  const out: Record<string, unknown> = {
    resource: url,
    type: 'http',
    x402Version: style ? style.x402Version : 2,
    accepts,
    lastUpdated: spec.index % 7 === 3 ? Math.floor(updated.getTime() / 1000) : updated.toISOString(),
    description: describe(spec),
    extensions: { bazaar: bazaarExtension(spec) },
    quality: {
      l30DaysTotalCalls: calls,
      l30DaysUniquePayers: spec.payers,
      lastCalledAt: spec.payers > 0 ? new Date(now.getTime() - (1 + (spec.index % 20)) * HOUR_MS).toISOString() : null,
    },
  };
  if (spec.index % 4 !== 1) {
    out.serviceName = spec.host.slice(0, 32);
    out.tags = [TAGS[spec.index % TAGS.length], spec.index % 5 === 0 ? 'Paid API!' : 'x402'];
  }
  if (spec.name === HOSTILE_X402_ENDPOINT) {
    out.description = HOSTILE_DESCRIPTION;
    out.serviceName = HOSTILE_SERVICE_NAME;
    out.tags = HOSTILE_TAGS;
  }
  return out;
}

function mcpItem(state: FleetState, spec: EndpointSpec, now: Date): Record<string, unknown> {
  return {
    resource: urlOf(state, spec),
    type: 'mcp',
    x402Version: 2,
    accepts: offersAt(spec, now, state.timeline).map((o) => ({ ...o })),
    lastUpdated: state.epoch.toISOString(),
    description: describe(spec),
    quality: { l30DaysTotalCalls: 0, l30DaysUniquePayers: 0, lastCalledAt: null },
  };
}

type Row = [EndpointSpec, 'http' | 'mcp'] | 'junk-no-resource' | 'junk-bad-accepts';

/** Rows a careful ingest skips and counts (quirk `junkRows`). */
const JUNK_NO_RESOURCE: Record<string, unknown> = { type: 'http', x402Version: 2, accepts: [], description: 'row without a resource' };
const JUNK_BAD_ACCEPTS: Record<string, unknown> = {
  resource: 'not a url',
  type: 'http',
  x402Version: 2,
  accepts: null,
  description: 'row with an invalid resource',
};

const int = (v: string | null, dflt: number): number => {
  const n = v === null ? NaN : Number.parseInt(v, 10);
  return Number.isFinite(n) && n >= 0 ? n : dflt;
};

export function x402RegistryPage(state: FleetState, params: URLSearchParams): Record<string, unknown> {
  const now = state.clock();
  const type = params.get('type');
  const q = state.quirks;
  const limit = Math.max(1, Math.min(int(params.get('limit'), DEFAULT_PAGE), q.maxLimit));
  const offset = int(params.get('offset'), 0);
  const rows: EndpointSpec[] = [];
  const mcpRows: EndpointSpec[] = [];
  for (const s of state.specs) {
    if (!isListed(state, s.name)) continue;
    if (s.protocol === 'x402') {
      if (!(q.splitCatalogs && secondCatalogOnly(s))) rows.push(s);
    } else if (s.name === 'tools-mcp') mcpRows.push(s);
  }
  const all: Row[] = [];
  if (type === null || type === 'http') for (const s of rows) all.push([s, 'http']);
  if (type === null || type === 'mcp') for (const s of mcpRows) all.push([s, 'mcp']);
  const render = (row: Row): Record<string, unknown> =>
    row === 'junk-no-resource'
      ? JUNK_NO_RESOURCE
      : row === 'junk-bad-accepts'
        ? { ...JUNK_BAD_ACCEPTS, lastUpdated: state.epoch.toISOString() }
        : row[1] === 'http'
          ? x402CatalogItem(state, row[0], now, q.declaredTerms)
          : mcpItem(state, row[0], now);
  if (q.junkRows && all.length > 0) {
    // Messy rows in the middle of the listing (type http, so the filter keeps them).
    const mid = Math.floor(all.length / 2);
    all.splice(mid, 0, 'junk-no-resource', 'junk-bad-accepts');
  }
  const total = all.length;
  let start = offset;
  if (offset >= total && q.repeatPastEnd && total > 0) start = Math.max(0, total - limit);
  let page = all.slice(start, start + limit);
  if (q.shortPageAt !== null && offset === q.shortPageAt) page = page.slice(0, Math.ceil(page.length / 2));
  return { x402Version: 2, items: page.map(render), pagination: { limit, offset, total } };
}
