import type { Fleet } from './types.ts';

/**
 * Atlas config fragment for running against the fleet: the probe may reach loopback and resolves
 * `*.fleet.test` to 127.0.0.1; optionally the two fleet registries as sources. Pass it through
 * `parseConfig` (pipeline/core/config.ts) or spread it into a test config.
 */
export interface FleetConfigFragment {
  probe: { allowPrivate: true; resolve: Record<string, string> };
  registries?: Array<{ kind: 'x402' | 'mcp'; source: string; name: string; enabled: boolean }>;
}

export function fleetConfig(fleet: Fleet, opts: { registries?: boolean } = {}): FleetConfigFragment {
  const out: FleetConfigFragment = { probe: { allowPrivate: true, resolve: { ...fleet.resolve } } };
  if (opts.registries) {
    out.registries = [
      { kind: 'x402', source: fleet.x402RegistryUrl, name: 'fleet-x402', enabled: true },
      { kind: 'mcp', source: fleet.mcpRegistryUrl, name: 'fleet-mcp', enabled: true },
    ];
  }
  return out;
}
