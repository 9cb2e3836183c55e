import type { Fleet } from './types.ts';

/**
 * Atlas config fragment for running against the fleet: the probe may reach loopback and resolves
 * `*.fleet.test` to 127.0.0.1; optionally the fleet registries as sources (the second x402 catalog
 * `fleet-bsc` on request: a two-catalog setup, best with the `splitCatalogs` quirk). Pass it through
 * `parseConfig` (pipeline/core/config.ts) or spread it into a test config.
 */
export interface FleetConfigFragment {
  probe: { allowPrivate: true; resolve: Record<string, string> };
  registries?: Array<{ kind: 'x402' | 'mcp'; source: string; name: string; enabled: boolean }>;
}

export function fleetConfig(fleet: Fleet, opts: { registries?: boolean; secondCatalog?: boolean } = {}): FleetConfigFragment {
  const out: FleetConfigFragment = { probe: { allowPrivate: true, resolve: { ...fleet.resolve } } };
  if (opts.registries) {
    out.registries = [
      { kind: 'x402', source: fleet.x402RegistryUrl, name: 'fleet-x402', enabled: true },
      ...(opts.secondCatalog ? [{ kind: 'x402' as const, source: fleet.x402SecondRegistryUrl, name: 'fleet-bsc', enabled: true }] : []),
      { kind: 'mcp', source: fleet.mcpRegistryUrl, name: 'fleet-mcp', enabled: true },
    ];
  }
  return out;
}
