import type { Clock } from '../core/clock.ts';
import type { BehaviourName } from './behaviours.ts';
import type { Real402Response } from './real-402.ts';
import type { RealMcpServer } from './real-mcp.ts';
import type { Timeline } from './timeline.ts';

/**
 * Public shapes of the fleet (docs/CONTRACTS.md "Fleet"). The fleet imitates the ecosystem Atlas
 * measures: the demo runs it and the tests check Atlas against it; the probes, compute, publish and
 * the server never import it.
 */

/** Reason codes of pipeline/probe/reasons.ts that a fleet endpoint can provoke. */
export type ExpectedReason =
  | 'ok'
  | 'not_402'
  | 'status_not_expected'
  | 'invalid_payment_request'
  | 'testnet_only'
  | 'not_x402'
  | 'no_payment_offer'
  | 'unknown_network'
  | 'status_not_allowed'
  | 'timeout'
  | 'refused'
  | 'reset'
  | 'redirect'
  | 'rate_limited';

/** The verdict Atlas must store for a DISCOVERED-service probe (x402-mainnet/1 or mcp-reach/3). */
export interface Expected {
  passed: boolean;
  reason: ExpectedReason;
  /** HTTP status received, null when no response arrived (timeout, refused, reset). */
  status: number | null;
}

export type FleetProtocol = 'x402' | 'mcp' | 'web';
export type HttpMethod = 'GET' | 'POST';

export interface LatencyOptions {
  /** Answer delay range for ordinary endpoints (uniform, deterministic per endpoint). */
  minMs: number;
  maxMs: number;
  /** Share (0..1) of generated endpoints that never answer within any sane timeout. */
  hangShare: number;
}

/** Paging quirks of the x402 discovery registry, all off by default except the cap. */
export interface X402RegistryQuirks {
  /** `limit` is capped to this (and echoed capped in pagination.limit). Default 1000. */
  maxLimit: number;
  /** When a page starts exactly at this offset it returns only half its rows (a short page mid-run). */
  shortPageAt: number | null;
  /** Paging past the end repeats the last full page instead of returning an empty one. */
  repeatPastEnd: boolean;
  /** Two messy rows mid-listing: one without `resource`, one with `resource: "not a url"` and `accepts: null`. */
  junkRows: boolean;
  /**
   * Two catalogs with different sets (registry-x402-second.ts): this catalog leaves out the
   * resources only the second catalog lists. Off by default (this catalog then lists every x402
   * endpoint, as before).
   */
  splitCatalogs: boolean;
  /**
   * This catalog lists other terms than the live 402 for the sellers of declared.ts (price, network,
   * asset, scheme, payee; one back in agreement at timeline.priceChangeAt). Off by default.
   */
  declaredTerms: boolean;
}

export interface FleetOptions {
  /** The fleet's notion of now: every time-dependent behaviour reads it per request. */
  clock: Clock;
  /** Number of endpoints (x402 + MCP). Default: the catalogue (~60, every behaviour at least once). */
  size?: number;
  latency?: LatencyOptions;
  /** PRNG seed for generated endpoints (default 1). Same seed and size → same fleet. */
  seed?: number;
  /** Origin of the simulated history (default: clock() at start). Timeline defaults are relative to it. */
  epoch?: Date;
  /** Override individual timeline instants/windows (absolute times). */
  timeline?: Partial<Timeline>;
  /** How long the `x402-slow`/`mcp-slow` endpoints hold a request before answering (default 120 s). */
  slowMs?: number;
  /** Interval between events of the endless SSE streams (default 250 ms). */
  sseIntervalMs?: number;
  registryQuirks?: Partial<X402RegistryQuirks>;
  /**
   * How PAYMENT-REQUIRED headers are base64-encoded: `x402-core` (default, @x402/core's
   * encodePaymentRequiredHeader) or `buffer` (Node's encoder; byte-identical, much cheaper).
   */
  headerEncoding?: 'x402-core' | 'buffer';
  /**
   * Real 402 responses to serve, one endpoint each (behaviour `real-402:<id>`, host and name
   * `real-402-<id>`, appended after the plan). Load them with `loadReal402Responses()`; they are read
   * at run time and never part of the fleet itself. Default: none.
   */
  real402?: readonly Real402Response[];
  /**
   * Real MCP servers' captured answers to serve, one MCP endpoint each (behaviour `real-mcp:<id>`,
   * host and name `real-mcp-<id>`, listed in the MCP registry). Load them with
   * `loadRealMcpServers()`; read at run time, never part of the fleet itself. Default: none.
   */
  realMcp?: readonly RealMcpServer[];
  /**
   * Sellers whose 402 carries offer-receipt signed offers, one endpoint per case of
   * signed-offers.ts (behaviour `signed-offer:<case>`, host and name `signed-<case>`), appended after
   * the real MCP servers. Default: none.
   */
  signedOffers?: boolean;
  /**
   * Sellers that answer a paid call (a request with a payment header) with an offer-receipt signed
   * receipt, one endpoint per case of signed-receipts.ts (behaviour `signed-receipt:<case>`, host and
   * name `receipt-<case>`), appended after the signing sellers. Default: none.
   */
  signedReceipts?: boolean;
}

export interface FleetEndpoint {
  /** Unique endpoint name (also the registry resource key). */
  readonly name: string;
  /** Hostname `<label>.fleet.test` (several endpoints may share one host). */
  readonly host: string;
  /** Full URL, e.g. `http://weather.fleet.test:40123/forecast`. */
  readonly url: string;
  /** Method the registry lists and a probe must use. */
  readonly method: HttpMethod;
  readonly protocol: FleetProtocol;
  readonly behaviour: BehaviourName;
  /** Verdict for a discovered-service probe at the fleet's current time (clock()). */
  readonly expected: Expected;
  expectedAt(at: Date): Expected;
  /** Unique payers over 30 days that the x402 registry reports (bands ≥100, 5–99, <5); 0 for MCP. */
  readonly payers: number;
  /** Whether the registry currently lists it (see Fleet.setListed). */
  readonly listed: boolean;
  /** Name of the MCP registry server entry (MCP endpoints only). */
  readonly serverName: string | null;
  /** Answer delay in ms and whether it hangs (generated endpoints under `latency`). */
  readonly latencyMs: number;
  readonly hangs: boolean;
}

/** A documentation page of a reviewed service, served at `http://docs.fleet.test:PORT/<name>`. */
export interface FleetDoc {
  readonly name: string;
  readonly url: string;
  readonly protocol: 'web';
  readonly behaviour: DocBehaviour;
  /** Name of the fleet endpoint this page documents. */
  readonly service: string;
  /** Verdict of a reviewed/1 documentation check (expected status 200) at clock(). */
  readonly expected: Expected;
}

export type DocBehaviour = 'docs-unchanged' | 'docs-cosmetic' | 'docs-price' | 'docs-typo' | 'docs-failing';

export interface DocOverride {
  status: number;
  html: string;
}

export interface Fleet {
  /** Port of the main server (all hosts, registries and docs). */
  readonly port: number;
  /** A port that refuses connections (the dead endpoints point at it). */
  readonly deadPort: number;
  /** `{ '*.fleet.test': '127.0.0.1' }` — pass as config.probe.resolve. */
  readonly resolve: Record<string, string>;
  readonly endpoints: readonly FleetEndpoint[];
  readonly docs: readonly FleetDoc[];
  /** `http://127.0.0.1:PORT/x402/discovery/resources` (plain fetch, no resolver needed). */
  readonly x402RegistryUrl: string;
  /** `http://127.0.0.1:PORT/mcp-registry/v0.1/servers`. */
  readonly mcpRegistryUrl: string;
  /** `http://127.0.0.1:PORT/x402-bsc/discovery/resources`: the second x402 catalog (registry-x402-second.ts). */
  readonly x402SecondRegistryUrl: string;
  readonly epoch: Date;
  readonly timeline: Timeline;
  /** Directory of reviewed listing files, when written with writeFleetListings (else undefined). */
  listingsDir?: string;
  endpoint(name: string): FleetEndpoint;
  /** The endpoint whose listed URL this is (as stored in services.url), if any. */
  endpointByUrl(url: string): FleetEndpoint | undefined;
  /** Delist (false) or relist (true): x402 items disappear; MCP entries turn `deleted` / `active`. */
  setListed(name: string, listed: boolean): void;
  /** Replace a documentation page (string = 200 HTML) or make it fail; null restores the scripted page. */
  setDoc(name: string, content: string | DocOverride | null): void;
  setRegistryQuirks(quirks: Partial<X402RegistryQuirks>): void;
  /** Requests served since start (for benchmarks: compare with what the prober claims to have sent). */
  requestCount(): number;
  close(): Promise<void>;
}
