import type { EndpointSpec } from './plan.ts';
import { after, type Timeline } from './timeline.ts';

/**
 * Which x402 endpoints each of the fleet's two x402 catalogs lists (docs/notes/ingest.md, "Several
 * catalogs"). The first catalog (the CDP-style Bazaar, registry-x402.ts) lists every x402 endpoint;
 * the second (modelled on Binance's CDP-compatible Bazaar on BNB Smart Chain,
 * registry-x402-second.ts) lists every third one. With the `splitCatalogs` quirk the first leaves
 * out a fifth of those, so the two sets overlap without either containing the other:
 * - both: index % 3 === 0 and index % 5 !== 4;
 * - second only (when split): index % 3 === 0 and index % 5 === 4;
 * - first only: the others.
 * From timeline.catalogDropAt the second catalog no longer lists the first endpoint both listed
 * (DROPPED_FROM_SECOND), so a service listed by one catalog and dropped by the other can be shown.
 * Pure functions of the plan and the clock.
 */
export const inSecondCatalog = (s: EndpointSpec): boolean => s.protocol === 'x402' && s.index % 3 === 0;

export const secondCatalogOnly = (s: EndpointSpec): boolean => inSecondCatalog(s) && s.index % 5 === 4;

/** The endpoint the second catalog drops at catalogDropAt: the lowest-index one both catalogs list. */
export function droppedFromSecond(specs: readonly EndpointSpec[]): EndpointSpec | undefined {
  return specs.find((s) => inSecondCatalog(s) && !secondCatalogOnly(s));
}

export function secondCatalogLists(specs: readonly EndpointSpec[], s: EndpointSpec, tl: Timeline, now: Date): boolean {
  if (!inSecondCatalog(s)) return false;
  return !(after(tl.catalogDropAt, now) && droppedFromSecond(specs) === s);
}
