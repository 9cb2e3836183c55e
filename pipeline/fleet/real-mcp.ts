import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realdataDir } from './real-402.ts';
import type { Expected } from './types.ts';

/**
 * Real MCP servers' answers as fleet behaviours (docs/notes/mcp-eras.md, "Real bytes").
 *
 * Like the real 402 responses (real-402.ts), the bytes are third-party captures kept in the realdata
 * folder and read at run time (`loadRealMcpServers`), never committed; `startFleet({ realMcp })`
 * serves each as an endpoint with behaviour `real-mcp:<id>` on host `real-mcp-<id>`, listed in the
 * fleet's MCP registry. Without the option the fleet has none.
 *
 * One server today, api.arcgate.dev (a 2025-11-25 Streamable HTTP server), from three captures of
 * its `/mcp`: a plain GET's info document, a GET asking for an event stream (a JSON-RPC -32000
 * "Method not allowed" body), and an `initialize` result. The captures hold bodies only: the
 * statuses are ours (200 for the info document and the initialize result; 405 for the refused
 * stream, which is what its message says), and stated in `statuses` below.
 */

export const REAL_MCP_PREFIX = 'real-mcp:';
export type RealMcpBehaviour = `real-mcp:${string}`;
export const isRealMcpBehaviour = (b: string): b is RealMcpBehaviour => b.startsWith(REAL_MCP_PREFIX);
export const realMcpId = (b: RealMcpBehaviour): string => b.slice(REAL_MCP_PREFIX.length);

export interface RealMcpServer {
  id: string;
  /** The registry name the fleet lists it under. */
  serverName: string;
  path: string;
  /** Body bytes of a GET with Accept: application/json (served with status 200). */
  getJson: string;
  /** Body bytes of a GET with Accept: text/event-stream (served with status 405). */
  getEventStream: string;
  /** Body bytes of the initialize result (served with status 200 to any POST). */
  initialize: string;
}

/** The statuses the fleet serves with each capture (the captures record none). */
export const REAL_MCP_STATUSES = { getJson: 200, getEventStream: 405, initialize: 200 } as const;

/** mcp-reach/3 on each server's plain GET (Accept: application/json → the info document, 200). */
export const REAL_MCP_EXPECTED: Readonly<Record<string, Expected>> = Object.freeze({
  arcgate: { passed: true, reason: 'ok', status: 200 },
});

export function realMcpExpected(id: string): Expected {
  const e = REAL_MCP_EXPECTED[id];
  if (!e)
    throw new Error(`fleet: no expected verdict for the real MCP server "${id}"; add it to REAL_MCP_EXPECTED (pipeline/fleet/real-mcp.ts)`);
  return e;
}

const REAL_DIR = join('mcp-protocol', 'real');
export const REAL_MCP_FILES = [
  join(REAL_DIR, 'api.arcgate.dev__get-mcp-json.json'),
  join(REAL_DIR, 'api.arcgate.dev__get-mcp-event-stream.json'),
  join(REAL_DIR, 'api.arcgate.dev__initialize-2025-11-25.json'),
] as const;

/** Read the captures; a clear error when the realdata folder is not there. Bodies are kept byte for byte. */
export function loadRealMcpServers(dir: string = realdataDir()): RealMcpServer[] {
  const read = (f: string): string => {
    const file = join(dir, f);
    if (!existsSync(file))
      throw new Error(
        `real MCP captures not found at ${file}: the realdata folder is read at run time, not committed; ` +
          'put it at ../shared/realdata next to the repository or point ATLAS_REALDATA at it',
      );
    const text = readFileSync(file, 'utf8');
    JSON.parse(text); // each capture is a JSON body; refuse anything else before serving it
    return text;
  };
  const [getJson, getEventStream, initialize] = REAL_MCP_FILES.map(read) as [string, string, string];
  return [{ id: 'arcgate', serverName: 'io.fleet/real-mcp-arcgate', path: '/mcp', getJson, getEventStream, initialize }];
}
