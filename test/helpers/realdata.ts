import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realdataDir as realdataLocation } from '../../pipeline/fleet/real-402.ts';

/**
 * Real public registry data (not ours, never copied into the repository): read at run time from
 * `../shared/realdata/` next to the repository root, or from `ATLAS_REALDATA`. Its PROVENANCE.md
 * says where each file comes from. A suite that needs it asks test/helpers/realdata-gate.ts first:
 * on a fresh clone it is skipped with one printed line, and in CI (ATLAS_REQUIRE_REALDATA=1) a
 * missing file fails it.
 *
 * The expectations below are derived from the raw files here, with the test's own small tables of
 * the networks and assets that occur in them, never from Atlas's output or its rules.
 */
export const REALDATA_FILES = {
  x402: 'x402/oops402-cdp-bazaar-resources-2025-12-31.json',
  mcp: 'mcp-registry/mcp-insights-servers-2025-12-18.json',
  mcpPage: 'mcp-registry/rosmur-v0-servers-page-sample.json',
} as const;

/** The realdata folder (located by the one rule the fleet uses, pipeline/fleet/real-402.ts), checked to hold the files above. */
export function realdataDir(): string {
  const dir = realdataLocation();
  const missing = Object.values(REALDATA_FILES).filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0)
    throw new Error(
      `real registry data not found: ${missing.map((f) => join(dir, f)).join(', ')}. ` +
        'Put the shared real data at ../shared/realdata next to the repository root, or point ATLAS_REALDATA at it.',
    );
  return dir;
}

export const readRealJson = (dir: string, file: string): unknown =>
  JSON.parse(readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, ''));

// Networks and assets that occur in the x402 file: [CAIP-2, mainnet]. A network outside this table
// fails the derivation loudly, so new data cannot be mis-counted silently.
const NETWORKS: Record<string, [string, boolean]> = {
  base: ['eip155:8453', true],
  'eip155:8453': ['eip155:8453', true],
  'base-sepolia': ['eip155:84532', false],
  solana: ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', true],
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', true],
};
/** Mainnet USDC (6 decimals) per CAIP-2; EVM addresses compare lower-cased; a CAIP-19 id on the same chain counts. */
const USDC: Record<string, string> = {
  'eip155:8453': '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
};

export interface X402Expected {
  rows: number;
  notHttp: number;
  duplicates: number;
  /** One per unique http resource URL (first occurrence), as the registry listed it. */
  services: Map<
    string,
    { host: string; networks: Set<string>; mainnet: boolean | null; microUsd: number | null; description: string | null }
  >;
}

export function expectX402(raw: unknown): X402Expected {
  const items = (raw as { resources: Record<string, unknown>[] }).resources;
  const services: X402Expected['services'] = new Map();
  let notHttp = 0;
  let duplicates = 0;
  for (const it of items) {
    if (it.type !== 'http') {
      notHttp++;
      continue;
    }
    const url = String(it.resource);
    if (services.has(url)) {
      duplicates++;
      continue;
    }
    const networks = new Set<string>();
    const kinds: boolean[] = [];
    let microUsd: number | null = null;
    let description: string | null = null;
    for (const a of (it.accepts as Record<string, unknown>[]) ?? []) {
      const n = NETWORKS[String(a.network)];
      if (!n) throw new Error(`realdata: network ${String(a.network)} is not in the test's table; extend it`);
      networks.add(n[0]);
      kinds.push(n[1]);
      description ??= typeof a.description === 'string' && a.description.trim() ? a.description : null;
      const amount = String(a.maxAmountRequired ?? a.amount ?? '');
      const asset = String(a.asset ?? '').replace(`${n[0]}/erc20:`, '');
      const usdc = USDC[n[0]];
      const same = usdc !== undefined && (usdc.startsWith('0x') ? asset.toLowerCase() === usdc : asset === usdc);
      if (n[1] && same && /^\d+$/.test(amount)) microUsd = Math.min(microUsd ?? Number.POSITIVE_INFINITY, Number(amount));
    }
    const mainnet = kinds.length === 0 ? null : kinds.some((k) => k);
    services.set(url, { host: new URL(url).hostname.toLowerCase(), networks, mainnet, microUsd, description });
  }
  return { rows: items.length, notHttp, duplicates, services };
}

const META = 'io.modelcontextprotocol.registry/official';

export interface McpExpected {
  rows: number;
  names: number;
  olderVersions: number;
  noRemotes: number;
  duplicateRemotes: number;
  /** One per (server name, remote URL) of each server's isLatest entry. */
  services: Map<string, { name: string; title: string | null; description: string | null; url: string; host: string }>;
}

export function expectMcp(raw: unknown): McpExpected {
  const entries = raw as { server: Record<string, unknown>; _meta: Record<string, Record<string, unknown>> }[];
  const latest = new Map<string, (typeof entries)[number]>();
  const names = new Set<string>();
  for (const e of entries) {
    const name = String(e.server.name);
    names.add(name);
    if (e._meta[META]?.isLatest === true) {
      if (latest.has(name)) throw new Error(`realdata: two isLatest entries for ${name}`);
      latest.set(name, e);
    }
  }
  if (latest.size !== names.size) throw new Error('realdata: a server without an isLatest entry; derive by publishedAt');
  const services: McpExpected['services'] = new Map();
  let noRemotes = 0;
  let duplicateRemotes = 0;
  for (const [name, e] of latest) {
    const remotes = (e.server.remotes as { url: string }[] | undefined) ?? [];
    if (remotes.length === 0) noRemotes++;
    for (const r of remotes) {
      const key = `${name}|${r.url}`;
      if (services.has(key)) {
        duplicateRemotes++;
        continue;
      }
      const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
      services.set(key, {
        name,
        title: text(e.server.title),
        description: text(e.server.description),
        url: r.url,
        host: new URL(r.url).hostname.toLowerCase(),
      });
    }
  }
  return { rows: entries.length, names: names.size, olderVersions: entries.length - names.size, noRemotes, duplicateRemotes, services };
}
