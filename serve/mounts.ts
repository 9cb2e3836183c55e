import { buildOpenApi } from '../site/contract/index.ts';
import type { Mount } from './deps.ts';
import { mountDiscovery } from './discovery/index.ts';
import { mountMcp } from './mcp/index.ts';
import { mountPages } from './pages/index.ts';

/** The server's parts beyond the JSON API: route groups to mount, and the OpenAPI builder. */
export interface ServerParts {
  /** The MCP endpoint (`/mcp`), the HTML pages and discovery (llms.txt, server.json, badges), after the API routes. */
  mounts: Mount[];
  /** Builds `/openapi.json` from the contract schemas (built once, on first request). */
  openapi: () => unknown;
}

/**
 * Every part the server ships with, imported statically: a part that is missing or fails to load
 * stops the server at start-up (the import fails), it never yields a server without it
 * (docs/CONTRACTS.md, "No silent fallbacks"). startServer is the one start-up point that uses this.
 */
export function serverParts(): ServerParts {
  let cached: unknown;
  return {
    mounts: [mountMcp, mountPages, mountDiscovery],
    openapi: () => {
      cached ??= buildOpenApi();
      return cached;
    },
  };
}
