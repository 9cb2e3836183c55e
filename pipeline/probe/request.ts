import { PASS_RULE_OF_KIND } from '../../site/contract/common.ts';
import type { DueOperation } from './due.ts';
import type { EdgeRequest } from './safe-fetch.ts';

/**
 * The one unpaid request of a check (docs/design.md, decision 7). Pure.
 * - method: the operation's (never a fallback to another method); mcp-reach/3 is a plain GET by rule;
 * - no body for GET/HEAD; `{}` as application/json for other methods of x402 endpoints;
 * - `Accept: application/json` (documentation pages ask for HTML first: they are read as pages);
 * - an identifying User-Agent with a contact URL; no credentials, no cookies.
 * - body policy: calls read it only on 402 (the payment request may be a v1 body), MCP included: the
 *   rule never reads it (status decides; an SSE stream, a 200, is never read), but a paid MCP
 *   server's 402 is classified like any other (checks.protocols); documentation always (for the docs feed).
 */
export interface RequestSettings {
  userAgent: string;
  contactUrl: string;
}

export const userAgentOf = (s: RequestSettings): string => `${s.userAgent} (+${s.contactUrl})`;

export function buildRequest(op: DueOperation, s: RequestSettings): EdgeRequest {
  const method = op.passRule === PASS_RULE_OF_KIND.mcp ? 'GET' : op.method || 'GET';
  const headers: Record<string, string> = {
    'user-agent': userAgentOf(s),
    accept: op.kind === 'documentation' ? 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8' : 'application/json',
  };
  let body: string | null = null;
  const x402 = op.passRule === PASS_RULE_OF_KIND.x402 || op.protocol === 'x402';
  if (method !== 'GET' && method !== 'HEAD' && x402) {
    body = '{}';
    headers['content-type'] = 'application/json';
  }
  const wantBody = op.kind === 'documentation' ? () => true : (status: number) => status === 402;
  return { url: op.url, method, headers, body, wantBody };
}
