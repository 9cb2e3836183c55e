import type { Clock } from '../core/clock.ts';
import type { DocSpec } from './docs.ts';
import type { HeaderEncoding } from './payment.ts';
import type { EndpointSpec } from './plan.ts';
import type { Real402Response } from './real-402.ts';
import type { RealMcpServer } from './real-mcp.ts';
import type { Timeline } from './timeline.ts';
import type { DocOverride, X402RegistryQuirks } from './types.ts';

export const FLEET_SUFFIX = '.fleet.test';

/** Endpoints of one host: exact paths, plus an optional endpoint answering on every path. */
export interface HostEntry {
  paths: Map<string, EndpointSpec>;
  catchAll: EndpointSpec | null;
  /** The legacy SSE endpoint of this host, which also owns `/messages` (its POST channel). */
  sse: EndpointSpec | null;
}

/**
 * Mutable state shared by the request handlers. One object per fleet; handlers read the clock per
 * request, so moving the clock changes answers without restarting anything.
 */
export interface FleetState {
  clock: Clock;
  epoch: Date;
  timeline: Timeline;
  port: number;
  deadPort: number;
  slowMs: number;
  sseIntervalMs: number;
  headerEncoding: HeaderEncoding;
  specs: EndpointSpec[];
  byName: Map<string, EndpointSpec>;
  hosts: Map<string, HostEntry>;
  /** Names delisted from their registry, with the time of the change. */
  unlisted: Map<string, Date>;
  /** Names relisted after a delisting (MCP statusChangedAt). */
  relisted: Map<string, Date>;
  docs: DocSpec[];
  docsByName: Map<string, DocSpec>;
  docOverrides: Map<string, DocOverride>;
  quirks: X402RegistryQuirks;
  /** Real 402 responses by id (behaviour `real-402:<id>`); empty unless given at start. */
  real402: Map<string, Real402Response>;
  /** Real MCP servers' captures by id (behaviour `real-mcp:<id>`); empty unless given at start. */
  realMcp: Map<string, RealMcpServer>;
  /** The fleet seed the signing sellers' keys derive from (signed-offers.ts). */
  signingSeed: number;
  requests: number;
}

/** Listed URL of an endpoint (dead endpoints point at the refusing port). */
export function urlOf(state: Pick<FleetState, 'port' | 'deadPort'>, spec: EndpointSpec): string {
  const port = spec.behaviour === 'x402-dead' || spec.behaviour === 'mcp-dead' ? state.deadPort : state.port;
  return `http://${spec.host}${FLEET_SUFFIX}:${port}${spec.path}`;
}

export const isListed = (state: FleetState, name: string): boolean => !state.unlisted.has(name);
