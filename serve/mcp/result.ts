import { API_STATUS } from '../../site/contract/common.ts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isAtlasError } from '../../pipeline/core/errors.ts';
import type { Logger } from '../../pipeline/core/log.ts';
import { UNTRUSTED_NOTICE, untrustedPaths } from './untrusted.ts';

/**
 * A tool's answer: `structuredContent` is the same object the HTTP route sends (plus
 * `_untrusted_fields` when it carries third-party text), and one text block with the same JSON for
 * clients that only read text.
 */
export function toolResult(value: unknown, meta?: Record<string, unknown>): CallToolResult {
  const body = (value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { value }) as Record<string, unknown>;
  const paths = untrustedPaths(body);
  const structured = paths.length ? { ...body, _untrusted_fields: { notice: UNTRUSTED_NOTICE, paths } } : body;
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  if (meta) result._meta = meta;
  return result;
}

/**
 * Errors never crash the endpoint: an AtlasError becomes a tool error carrying the same `error` code
 * and message as the HTTP error body; anything else is `internal` (logged, no internals shown).
 */
export function toolError(e: unknown, log: Logger, tool: string): CallToolResult {
  const body = isAtlasError(e)
    ? { api_status: API_STATUS, error: e.code, message: e.message }
    : { api_status: API_STATUS, error: 'internal', message: 'internal error' };
  if (!isAtlasError(e)) log.error('mcp: tool failed', { tool, error: (e as Error)?.stack ?? String(e) });
  return { isError: true, content: [{ type: 'text', text: `${body.error}: ${body.message}` }], structuredContent: body };
}
