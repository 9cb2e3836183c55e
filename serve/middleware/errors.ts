import { API_STATUS } from '../../site/contract/common.ts';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { httpStatusFor, isAtlasError, type ErrorCode } from '../../pipeline/core/errors.ts';
import type { Logger } from '../../pipeline/core/log.ts';

/**
 * The one error mapping (docs/design.md, errors): every error body is `{api_status, error, message}` with `error`
 * an AtlasError code. AtlasError → its status; Hono's own HTTPExceptions (e.g. a malformed request
 * it rejects) → the matching code; anything else is unexpected → 500 `internal` with no internals
 * (logged server-side).
 */
export function errorBody(c: Context, status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}): Response {
  return c.json({ api_status: API_STATUS, error: code, message }, status as 400, headers);
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_input',
  401: 'unauthorized',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  429: 'rate_limited',
};

export function onError(log: Logger): ErrorHandler {
  return (err, c) => {
    if (isAtlasError(err)) {
      const headers: Record<string, string> = {};
      const d = err.details ?? {};
      if (typeof d.retryAfter === 'number') headers['Retry-After'] = String(d.retryAfter);
      if (d.headers && typeof d.headers === 'object') Object.assign(headers, d.headers as Record<string, string>);
      if (err.code === 'unauthorized') headers['WWW-Authenticate'] = 'Bearer realm="atlas"';
      const status = httpStatusFor(err.code);
      if (status >= 500) log.error('serve: request failed', { code: err.code, message: err.message, path: c.req.path });
      return errorBody(c, status, err.code, err.message, headers);
    }
    if (err instanceof HTTPException && CODE_BY_STATUS[err.status]) {
      return errorBody(c, err.status, CODE_BY_STATUS[err.status]!, err.message || 'bad request');
    }
    log.error('serve: unexpected error', { path: c.req.path, error: (err as Error)?.stack ?? String(err) });
    return errorBody(c, 500, 'internal', 'internal error');
  };
}

export const notFound = (): NotFoundHandler => (c) =>
  errorBody(c, 404, 'not_found', `no such resource: ${c.req.method} ${c.req.path.slice(0, 200)}`);
