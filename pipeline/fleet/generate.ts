import type { BehaviourName } from './behaviours.ts';
import { catalogue } from './catalogue.ts';
import { makeSpec, type EndpointSpec } from './plan.ts';
import { mulberry32, pickWeighted } from './prng.ts';
import type { LatencyOptions } from './types.ts';

/**
 * Mix of generated endpoints, roughly as measured in the wild (~83% clean v2, ~6% v1
 * among x402 hosts; MCP remotes ~57% open, ~27% auth, ~10% not speaking MCP). Weights, not shares.
 */
const MIX: ReadonlyArray<readonly [BehaviourName, number]> = [
  ['x402-v2', 520],
  ['x402-v2-multi', 40],
  ['x402-v1', 45],
  ['x402-v1-caip2', 5],
  ['x402-mislabelled', 8],
  ['x402-testnet-only', 30],
  ['x402-html-paywall', 6],
  ['x402-invalid-base64', 3],
  ['x402-urlsafe-base64', 2],
  ['x402-v2-cosmetic', 4],
  ['x402-unknown-network', 2],
  ['x402-dollar-amount', 3],
  ['x402-large-header', 2],
  ['x402-post-only', 25],
  ['x402-wildcard', 5],
  ['x402-server-error', 15],
  ['x402-sse-endless', 1],
  ['x402-redirect-metadata', 1],
  ['x402-redirect-private', 2],
  ['x402-price-change', 10],
  ['x402-payto-change', 5],
  ['x402-network-added', 5],
  ['x402-outage', 8],
  ['x402-unknown-asset', 6],
  ['x402-decoy-price', 2],
  ['x402-rate-limited', 4],
  ['x402-reset', 2],
  ['x402-templated', 8],
  ['x402-dead', 10],
  ['mcp-streamable', 110],
  ['mcp-2026', 15],
  ['mcp-legacy-sse', 8],
  ['mcp-auth', 60],
  ['mcp-forbidden', 5],
  ['mcp-website', 18],
  ['mcp-not-found', 6],
  ['mcp-server-error', 4],
  ['mcp-redirect', 2],
  ['mcp-rate-limited', 2],
  ['mcp-outage', 3],
  ['mcp-dead', 6],
  // The 2026 eras and walls (docs/notes/mcp-eras.md): about 1 in 6 of the census's 401s names no
  // scheme, about 2% of its remotes answer 402, about 7% answer HTTP fine but MCP broken.
  ['mcp-2026-only', 3],
  ['mcp-auth-no-scheme', 10],
  ['mcp-paid-x402', 4],
  ['mcp-paid-mpp', 1],
  ['mcp-protocol-error', 15],
];

/** Behaviours that own their host (host-wide answers or separate servers). */
const OWN_HOST = new Set<BehaviourName>(['x402-wildcard', 'x402-templated', 'x402-dead', 'mcp-dead']);

const NO_LATENCY: LatencyOptions = { minMs: 0, maxMs: 0, hangShare: 0 };

/**
 * The fleet plan: the catalogue first (every behaviour once), then `size - catalogue` generated
 * endpoints. Generated x402 endpoints are grouped on provider hosts of 1–6 endpoints; every MCP
 * remote gets its own host. Latency and hanging apply to generated endpoints only, so the
 * catalogue's verdicts stay exactly as documented.
 */
export function planFleet(size: number | undefined, seed: number, latency: LatencyOptions = NO_LATENCY): EndpointSpec[] {
  const specs = catalogue();
  if (size === undefined) return specs;
  if (size < specs.length) return specs.slice(0, Math.max(0, size));
  const rnd = mulberry32(seed);
  let hostLeft = 0;
  let host = '';
  for (let i = specs.length; i < size; i++) {
    const b = pickWeighted(MIX, rnd());
    const bandR = rnd();
    const payers = bandR < 0.2 ? 100 + Math.floor(rnd() * 900) : bandR < 0.55 ? 5 + Math.floor(rnd() * 95) : Math.floor(rnd() * 5);
    // A dead port refuses before anything could hang: dead endpoints never count as hanging.
    const hangs = rnd() < latency.hangShare && b !== 'x402-dead' && b !== 'mcp-dead';
    const latencyMs = latency.minMs + Math.floor(rnd() * Math.max(0, latency.maxMs - latency.minMs));
    const id = i.toString(36);
    let label: string;
    let path: string;
    if (b.startsWith('mcp-') || OWN_HOST.has(b)) {
      label = `g${id}`;
      path = b === 'mcp-legacy-sse' ? '/sse' : b.startsWith('mcp-') ? '/mcp' : b === 'x402-templated' ? '/items/:id' : '/api';
    } else {
      if (hostLeft <= 0) {
        host = `p${id}`;
        const r = rnd();
        hostLeft = r < 0.55 ? 1 : r < 0.8 ? 2 : r < 0.92 ? 3 : 1 + Math.floor(rnd() * 6);
      }
      hostLeft--;
      label = host;
      path = `/e${id}`;
    }
    specs.push(
      makeSpec(i, `${b.replace(/^(x402|mcp)-/, '$1')}-${id}`, b, label, path, {
        payers: b.startsWith('mcp-') ? 0 : payers,
        hangs,
        latencyMs,
      }),
    );
  }
  return specs;
}
