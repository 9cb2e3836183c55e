import { DAY_MS } from '../core/clock.ts';
import { expectedVerdict, type BehaviourName } from './behaviours.ts';
import { INITIALLY_DELISTED } from './catalogue.ts';
import { currentDoc, DEFAULT_DOCS, docExpected, type DocSpec } from './docs.ts';
import { planFleet } from './generate.ts';
import { makeSpec, type EndpointSpec } from './plan.ts';
import { real402Expected, REAL_402_PREFIX, type Real402Response } from './real-402.ts';
import { signedOfferSpecs } from './signed-offers.ts';
import { signedReceiptSpecs } from './signed-receipts.ts';
import { REAL_MCP_PREFIX, realMcpExpected, type RealMcpServer } from './real-mcp.ts';
import { FLEET_SUFFIX, urlOf, type FleetState, type HostEntry } from './state.ts';
import { defaultTimeline } from './timeline.ts';
import type { DocOverride, Expected, Fleet, FleetDoc, FleetEndpoint, FleetOptions, X402RegistryQuirks } from './types.ts';

/**
 * The fleet's model without any socket: plan, state and the read-only views handed to tests. Used
 * by the in-process fleet (fleet.ts) and, as a mirror, by the parent of a fleet child process
 * (process.ts) — the plan is deterministic in (size, seed, latency), so both sides agree.
 */

export const X402_REGISTRY_PATH = '/x402/discovery/resources';
export const MCP_REGISTRY_PATH = '/mcp-registry/v0.1/servers';
export const X402_SECOND_REGISTRY_PATH = '/x402-bsc/discovery/resources';

/** `config.probe.resolve` entry that sends every fleet hostname to loopback. */
export const FLEET_RESOLVE: Readonly<Record<string, string>> = Object.freeze({ [`*${FLEET_SUFFIX}`]: '127.0.0.1' });

export const DEFAULT_QUIRKS: X402RegistryQuirks = {
  maxLimit: 1000,
  shortPageAt: null,
  repeatPastEnd: false,
  junkRows: false,
  splitCatalogs: false,
  declaredTerms: false,
};

/** Read-only view of one endpoint; `expected` reads the fleet's clock each time it is accessed. */
class Endpoint implements FleetEndpoint {
  readonly protocol: 'x402' | 'mcp';
  readonly url: string;
  readonly host: string;
  constructor(
    private readonly state: FleetState,
    private readonly spec: EndpointSpec,
  ) {
    this.protocol = spec.protocol;
    this.url = urlOf(state, spec);
    this.host = `${spec.host}${FLEET_SUFFIX}`;
  }
  get name(): string {
    return this.spec.name;
  }
  get method(): 'GET' | 'POST' {
    return this.spec.method;
  }
  get behaviour(): BehaviourName {
    return this.spec.behaviour;
  }
  get expected(): Expected {
    return this.expectedAt(this.state.clock());
  }
  expectedAt(at: Date): Expected {
    return expectedVerdict(this.spec.behaviour, at, this.state.timeline, this.spec.hangs);
  }
  get payers(): number {
    return this.spec.payers;
  }
  get listed(): boolean {
    return !this.state.unlisted.has(this.spec.name);
  }
  get serverName(): string | null {
    return this.spec.serverName;
  }
  get latencyMs(): number {
    return this.spec.latencyMs;
  }
  get hangs(): boolean {
    return this.spec.hangs;
  }
}

class Doc implements FleetDoc {
  readonly protocol = 'web' as const;
  readonly url: string;
  constructor(
    private readonly state: FleetState,
    private readonly spec: DocSpec,
  ) {
    this.url = `http://docs${FLEET_SUFFIX}:${state.port}/${spec.name}`;
  }
  get name(): string {
    return this.spec.name;
  }
  get behaviour(): DocSpec['behaviour'] {
    return this.spec.behaviour;
  }
  get service(): string {
    return this.spec.service;
  }
  get expected(): Expected {
    return docExpected(currentDoc(this.state, this.spec));
  }
}

function indexHosts(specs: EndpointSpec[]): Map<string, HostEntry> {
  const hosts = new Map<string, HostEntry>();
  for (const s of specs) {
    let h = hosts.get(s.host);
    if (!h) {
      h = { paths: new Map(), catchAll: null, sse: null };
      hosts.set(s.host, h);
    }
    if (s.catchAll) h.catchAll = s;
    else h.paths.set(s.path, s);
    if (s.behaviour === 'mcp-legacy-sse') h.sse = s;
  }
  return hosts;
}

/**
 * One endpoint per real 402 response, after the plan: its own host `real-402-<id>`, the quoted path
 * and method. An id without a decided verdict is refused here, before anything listens.
 */
function real402Specs(responses: readonly Real402Response[], first: number): EndpointSpec[] {
  return responses.map((r, i) => {
    real402Expected(r.id);
    const label = `real-402-${r.id}`;
    return { ...makeSpec(first + i, label, `${REAL_402_PREFIX}${r.id}`, label, r.path), method: r.method };
  });
}

/** One MCP endpoint per real MCP server, after the real 402s: host `real-mcp-<id>`, listed in the MCP registry. */
function realMcpSpecs(servers: readonly RealMcpServer[], first: number): EndpointSpec[] {
  return servers.map((r, i) => {
    realMcpExpected(r.id);
    const label = `real-mcp-${r.id}`;
    const spec = makeSpec(first + i, label, `${REAL_MCP_PREFIX}${r.id}`, label, r.path);
    return { ...spec, protocol: 'mcp', payers: 0, serverName: r.serverName, remoteType: 'streamable-http' };
  });
}

export function createState(opts: FleetOptions, ports: { port: number; deadPort: number }): FleetState {
  const epoch = opts.epoch ?? opts.clock();
  const specs = planFleet(opts.size, opts.seed ?? 1, opts.latency);
  const real = opts.real402 ?? [];
  specs.push(...real402Specs(real, specs.length));
  const realMcp = opts.realMcp ?? [];
  specs.push(...realMcpSpecs(realMcp, specs.length));
  if (opts.signedOffers) specs.push(...signedOfferSpecs(specs.length));
  if (opts.signedReceipts) specs.push(...signedReceiptSpecs(specs.length));
  const names = new Set<string>();
  for (const s of specs) {
    if (names.has(s.name)) throw new Error(`fleet: duplicate endpoint name ${s.name}`);
    names.add(s.name);
  }
  const docs = DEFAULT_DOCS.filter((d) => names.has(d.service));
  const state: FleetState = {
    clock: opts.clock,
    epoch,
    timeline: defaultTimeline(epoch, opts.timeline),
    port: ports.port,
    deadPort: ports.deadPort,
    slowMs: opts.slowMs ?? 120_000,
    sseIntervalMs: opts.sseIntervalMs ?? 250,
    headerEncoding: opts.headerEncoding ?? 'x402-core',
    specs,
    byName: new Map(specs.map((s) => [s.name, s])),
    hosts: indexHosts(specs),
    unlisted: new Map(),
    relisted: new Map(),
    docs,
    docsByName: new Map(docs.map((d) => [d.name, d])),
    docOverrides: new Map(),
    quirks: { ...DEFAULT_QUIRKS, ...opts.registryQuirks },
    real402: new Map(real.map((r) => [r.id, r])),
    realMcp: new Map(realMcp.map((r) => [r.id, r])),
    signingSeed: opts.seed ?? 1,
    requests: 0,
  };
  for (const n of INITIALLY_DELISTED) if (names.has(n)) state.unlisted.set(n, new Date(epoch.getTime() - 3 * DAY_MS));
  return state;
}

/** Mutations a Fleet applies to its state; `remote` forwards them to a child process as well. */
export function applySetListed(state: FleetState, name: string, listed: boolean, now: Date): void {
  if (!state.byName.has(name)) throw new Error(`fleet: no endpoint named ${name}`);
  if (listed) {
    if (state.unlisted.delete(name)) state.relisted.set(name, now);
  } else if (!state.unlisted.has(name)) {
    state.unlisted.set(name, now);
  }
}

export function applySetDoc(state: FleetState, name: string, content: string | DocOverride | null): void {
  if (!state.docsByName.has(name)) throw new Error(`fleet: no documentation page named ${name}`);
  if (content === null) state.docOverrides.delete(name);
  else state.docOverrides.set(name, typeof content === 'string' ? { status: 200, html: content } : content);
}

export interface FleetHooks {
  close(): Promise<void>;
  requestCount(): number;
  /** Called after a local mutation (process mode forwards it to the child). */
  forward?(msg: FleetMessage): void;
}

export type FleetMessage =
  | { type: 'setListed'; name: string; listed: boolean; at: string }
  | { type: 'setDoc'; name: string; content: string | DocOverride | null }
  | { type: 'setQuirks'; quirks: Partial<X402RegistryQuirks> }
  | { type: 'setNow'; at: string; id?: number };

/** The Fleet object handed to tests, over a state (local server or mirror of a child's). */
export function buildFleetView(state: FleetState, hooks: FleetHooks): Fleet {
  const endpoints = state.specs.map((s) => new Endpoint(state, s));
  const byName = new Map(endpoints.map((e) => [e.name, e]));
  const byUrl = new Map(endpoints.map((e) => [e.url, e]));
  const docs = state.docs.map((d) => new Doc(state, d));
  const base = `http://127.0.0.1:${state.port}`;
  let closed = false;
  const fleet: Fleet = {
    port: state.port,
    deadPort: state.deadPort,
    resolve: { ...FLEET_RESOLVE },
    endpoints,
    docs,
    x402RegistryUrl: `${base}${X402_REGISTRY_PATH}`,
    mcpRegistryUrl: `${base}${MCP_REGISTRY_PATH}`,
    x402SecondRegistryUrl: `${base}${X402_SECOND_REGISTRY_PATH}`,
    epoch: state.epoch,
    timeline: state.timeline,
    endpoint(name) {
      const e = byName.get(name);
      if (!e) throw new Error(`fleet: no endpoint named ${name}`);
      return e;
    },
    endpointByUrl: (url) => byUrl.get(url),
    setListed(name, listed) {
      const at = state.clock();
      applySetListed(state, name, listed, at);
      hooks.forward?.({ type: 'setListed', name, listed, at: at.toISOString() });
    },
    setDoc(name, content) {
      applySetDoc(state, name, content);
      hooks.forward?.({ type: 'setDoc', name, content });
    },
    setRegistryQuirks(quirks) {
      Object.assign(state.quirks, quirks);
      hooks.forward?.({ type: 'setQuirks', quirks });
    },
    requestCount: () => hooks.requestCount(),
    async close() {
      if (closed) return;
      closed = true;
      await hooks.close();
    },
  };
  return fleet;
}
