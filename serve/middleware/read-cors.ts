import type { MiddlewareHandler } from 'hono';
import { headersFinished } from './finished-headers.ts';

/** Headers a browser script may read on a cross-origin read. */
export const EXPOSED_HEADERS = [
  'X-API-Status',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'ETag',
  'Age',
].join(', ');

/** The CORS headers of a read answer (also used by routes that set all their headers at once). */
export const READ_CORS_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS } as const;

/**
 * CORS for reads only (register it for GET, HEAD and OPTIONS): any origin may read, no
 * credentials. A preflight gets 204 allowing GET/HEAD with the key headers; write endpoints get no
 * CORS headers, so browsers only write from the same origin. (Unlike hono/cors, this does not
 * create a placeholder Response before the handler runs, which doubled the cost of a cached search.)
 */
export const readCors = (opts: { allowHeaders: string[]; maxAgeSeconds: number }): MiddlewareHandler => {
  const preflight = {
    ...READ_CORS_HEADERS,
    'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
    'Access-Control-Allow-Headers': opts.allowHeaders.join(', '),
    'Access-Control-Max-Age': String(opts.maxAgeSeconds),
  };
  return async function readCors(c, next) {
    if (c.req.method === 'OPTIONS') return c.body(null, 204, preflight);
    await next();
    if (headersFinished(c)) return;
    for (const [k, v] of Object.entries(READ_CORS_HEADERS)) c.res.headers.set(k, v);
  };
};
