import { API_STATUS } from '../../site/contract/common.ts';
import type { MiddlewareHandler } from 'hono';
import { headersFinished } from './finished-headers.ts';

/**
 * Versioning (docs/design.md): every response carries `X-API-Status: preview`, including errors, 404s and the
 * MCP and HTML routes. Registered first, so it wraps everything (onError and notFound included).
 */
export const apiStatus = (): MiddlewareHandler =>
  async function apiStatus(c, next) {
    await next();
    if (!headersFinished(c)) c.res.headers.set('X-API-Status', API_STATUS);
  };
