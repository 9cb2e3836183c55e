import { MCP_BEHAVIOURS, X402_BEHAVIOURS, type BehaviourName } from './behaviours.ts';
import { makeSpec, type EndpointSpec } from './plan.ts';

/**
 * The default fleet: every behaviour at least once, a few hosts carrying several endpoints
 * (provider_endpoints > 1), one MCP server with two remotes (streamable-http and sse), and enough
 * ordinary endpoints (~60 in all) to look like a small ecosystem.
 */
type Row = [name: string, behaviour: BehaviourName, host: string, path: string, extra?: Partial<EndpointSpec>];

const MULTI_HOST_ROWS: Row[] = [
  ['weather-forecast', 'x402-v2', 'weather', '/forecast'],
  ['weather-history', 'x402-v2-multi', 'weather', '/history'],
  ['weather-alerts', 'x402-price-change', 'weather', '/alerts'],
  ['weather-radar', 'x402-post-only', 'weather', '/radar'],
  ['market-quote', 'x402-v1', 'market', '/v1/quote'],
  ['market-trades', 'x402-payto-change', 'market', '/v1/trades'],
  ['market-book', 'x402-network-added', 'market', '/v1/book'],
  ['search-web', 'x402-v2', 'search', '/web'],
  ['search-images', 'x402-unknown-asset', 'search', '/images'],
  ['tools-mcp', 'mcp-streamable', 'tools', '/mcp', { serverName: 'io.fleet/tools' }],
  ['tools-sse', 'mcp-legacy-sse', 'tools', '/sse', { serverName: 'io.fleet/tools', remoteType: 'sse' }],
];

/** Extra ordinary endpoints so the default fleet has the usual majority of clean v2 and open MCP. */
const ORDINARY_ROWS: Row[] = [
  ['translate', 'x402-v2', 'translate', '/translate'],
  ['ocr', 'x402-v2', 'ocr', '/ocr'],
  ['news', 'x402-v2', 'news', '/headlines'],
  ['geo', 'x402-v2', 'geo', '/lookup'],
  ['stocks', 'x402-v2', 'stocks', '/price'],
  ['fx', 'x402-v2', 'fx', '/rate'],
  ['summarize', 'x402-v2', 'summarize', '/summarize'],
  ['embed', 'x402-v2', 'embed', '/embed'],
  ['legacy-data', 'x402-v1', 'legacy-data', '/data'],
  ['crawl', 'x402-post-only', 'crawl', '/crawl'],
  ['docs-mcp', 'mcp-streamable', 'docs-mcp', '/mcp'],
  ['calendar-mcp', 'mcp-streamable', 'calendar-mcp', '/mcp'],
  ['github-mcp', 'mcp-auth', 'github-mcp', '/mcp'],
  ['crm-mcp', 'mcp-auth', 'crm-mcp', '/mcp'],
  ['notes-mcp', 'mcp-2026', 'notes-mcp', '/mcp'],
  // Deleted from the MCP registry before the epoch (still answering like a live SDK server).
  ['retired-mcp', 'mcp-streamable', 'retired-mcp', '/mcp'],
];

/** Endpoints delisted from their registry from the start (MCP status `deleted`). */
export const INITIALLY_DELISTED = ['retired-mcp'] as const;

/** Host label and path for a behaviour's own single-endpoint host. */
function ownHost(b: BehaviourName): [string, string] {
  switch (b) {
    case 'mcp-legacy-sse':
      return ['legacy-sse', '/sse'];
    case 'mcp-template':
      return ['mcp-tenant', '/acme/mcp'];
    case 'mcp-template-unfilled':
      return ['mcp-region', '/{region}/mcp'];
    case 'x402-templated':
      return ['templated', '/items/:id'];
    case 'x402-wildcard':
      return ['wildcard', '/any/path/at/all'];
    default:
      return [b, b.startsWith('mcp-') ? '/mcp' : '/api'];
  }
}

export function catalogue(): EndpointSpec[] {
  const rows: Row[] = [...MULTI_HOST_ROWS];
  const covered = new Set(rows.map((r) => r[1]));
  for (const b of [...X402_BEHAVIOURS, ...MCP_BEHAVIOURS]) {
    if (covered.has(b) && b !== 'mcp-legacy-sse') continue; // a standalone legacy server as well as the dual one
    const [host, path] = ownHost(b);
    rows.push([b, b, host, path]);
  }
  rows.push(...ORDINARY_ROWS);
  return rows.map(([name, behaviour, host, path, extra], i) => makeSpec(i, name, behaviour, host, path, extra ?? {}));
}
