import { createHash } from 'node:crypto';

/**
 * Service ids (docs/CONTRACTS.md). Discovered ids are `cand_` + the first 20 hex characters of
 * sha256 over the registry key, so the same resource gets the same id on every run and machine:
 * - x402: `x402|<METHOD>|<url>` (url exactly as the registry lists it)
 * - mcp:  `mcp|<server name>|<remote url>` (remote url as listed, placeholders unfilled)
 * - an MCP server named by a `type: "mcp"` item of an x402 catalog: `x402-mcp|<url>` (the catalog
 *   gives no server name; one service per server URL, whatever tools of it the catalog lists)
 */
export function candidateId(parts: readonly string[]): string {
  return `cand_${createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 20)}`;
}

export const x402CandidateId = (method: string, url: string): string => candidateId(['x402', method.toUpperCase(), url]);

export const x402McpCandidateId = (url: string): string => candidateId(['x402-mcp', url]);

export const mcpCandidateId = (serverName: string, remoteUrl: string): string => candidateId(['mcp', serverName, remoteUrl]);

/** Reviewed ids: `svc_<slug>`; the slug is also the listing file's base name. */
export const REVIEWED_ID_RE = /^svc_[a-z0-9][a-z0-9_-]{0,62}$/;
