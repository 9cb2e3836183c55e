import { NETWORKS, toCaip2 } from '../../site/contract/networks.ts';

/*
 * The network filter of GET /api/v1/services (and the MCP search tool), defined once here on top of
 * the known-networks table (site/contract/networks.ts). Its text is NETWORK_FILTER_RULE in
 * site/contract/requests.ts; keep the two in step. The `mainnet` filter has no rule of its own: it
 * reads the published `mainnet` field (serve/search/row.ts), computed by the pipeline's rules.
 */

/** A full CAIP-2 chain id: `namespace:reference` (lower-cased before the test). */
const CAIP2_ID = /^[-a-z0-9]{3,8}:[-_a-z0-9]{1,32}$/;

/** Lower-cased CAIP-2 id → lower-cased v1 name, for the substring branch ("ids and names"). */
const NAME_OF = new Map(NETWORKS.filter((n) => n.v1Name).map((n) => [n.caip2.toLowerCase(), n.v1Name!.toLowerCase()]));

/**
 * What `network=<value>` asks for:
 * - a v1 name or known alias (`base`, `base-sepolia`, `solana`, `solana:mainnet`, …): that network, exactly;
 * - any other full CAIP-2 id (`eip155:8453`): that network only, exactly (never `eip155:84532`);
 * - anything else (`eip155`, `devnet`, `8453`): a case-insensitive substring of any offered
 *   network's id or v1 name. (`sepolia` is a v1 name: Ethereum Sepolia only, not Base Sepolia.)
 * Every comparison is case-insensitive (no two networks differ by case alone).
 */
export type NetworkFilter = { exact: string } | { substring: string };

export function parseNetworkFilter(value: string): NetworkFilter {
  const v = value.trim().toLowerCase();
  const known = toCaip2(v); // v1 names and aliases resolve; anything else comes back as given
  if (known !== v) return { exact: known.toLowerCase() };
  if (CAIP2_ID.test(v)) return { exact: v };
  return { substring: v };
}

/** A service's offered networks compiled once for the filter: lower-cased CAIP-2 ids and the known v1 names. */
export interface CompiledNetworks {
  ids: string[];
  names: string[];
}

export function compileNetworks(networks: readonly string[]): CompiledNetworks {
  const ids = [...new Set(networks.map((n) => toCaip2(n).toLowerCase()))];
  const names: string[] = [];
  for (const id of ids) {
    const name = NAME_OF.get(id);
    if (name) names.push(name);
  }
  return { ids, names };
}

export function networkMatches(f: NetworkFilter, n: CompiledNetworks): boolean {
  if ('exact' in f) return n.ids.includes(f.exact);
  const s = f.substring;
  return n.ids.some((x) => x.includes(s)) || n.names.some((x) => x.includes(s));
}
