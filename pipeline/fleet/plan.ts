import { behaviourMethod, isMcpBehaviour, type BehaviourName } from './behaviours.ts';
import type { HttpMethod } from './types.ts';

/**
 * The static description of one endpoint, decided once at start. Kept small and flat (numbers and
 * short strings): a 20k-endpoint fleet is 20k of these, nothing else per endpoint.
 */
export interface EndpointSpec {
  index: number;
  name: string;
  /** Host label; the hostname is `<label>.fleet.test`. */
  host: string;
  /** Path as listed (for `mcp-template`, the filled path; for unfilled templates, the raw template). */
  path: string;
  method: HttpMethod;
  protocol: 'x402' | 'mcp';
  behaviour: BehaviourName;
  /** Registry-reported unique payers in 30 days. */
  payers: number;
  latencyMs: number;
  hangs: boolean;
  /** Base price in atomic USDC units (6 decimals) before any scripted change. */
  amount: number;
  /** MCP registry entry this endpoint is a remote of, and the remote's transport type. */
  serverName: string | null;
  remoteType: 'streamable-http' | 'sse' | null;
  /** Whether this endpoint answers on every path of its host (wildcard, templates). */
  catchAll: boolean;
}

/** Price ladder in atomic USDC units: $0.001 … $0.50. */
export const AMOUNTS = [1000, 5000, 10000, 20000, 50000, 100000, 500000] as const;

export function makeSpec(
  index: number,
  name: string,
  behaviour: BehaviourName,
  host: string,
  path: string,
  extra: Partial<Pick<EndpointSpec, 'payers' | 'latencyMs' | 'hangs' | 'serverName' | 'remoteType' | 'amount'>> = {},
): EndpointSpec {
  const mcp = isMcpBehaviour(behaviour);
  return {
    index,
    name,
    host,
    path,
    method: behaviourMethod(behaviour),
    protocol: mcp ? 'mcp' : 'x402',
    behaviour,
    payers: extra.payers ?? (mcp ? 0 : [250, 40, 2][index % 3]!),
    latencyMs: extra.latencyMs ?? 0,
    hangs: extra.hangs ?? false,
    amount: extra.amount ?? AMOUNTS[index % AMOUNTS.length]!,
    serverName: mcp ? (extra.serverName ?? `io.fleet/${name}`) : null,
    remoteType: mcp ? (extra.remoteType ?? (behaviour === 'mcp-legacy-sse' ? 'sse' : 'streamable-http')) : null,
    catchAll: behaviour === 'x402-wildcard' || behaviour === 'x402-templated' || behaviour === 'mcp-template-unfilled',
  };
}
