import type { Context } from 'hono';

/**
 * Responses whose route already put every standard header in place (X-API-Status, CORS) mark
 * themselves here, so the wrapping middlewares skip `c.res.headers` — touching it makes the Node
 * adapter build a full Headers object, which costs more than a cached search itself.
 */
const finished = new WeakSet<Context>();

export const markHeadersFinished = (c: Context): void => {
  finished.add(c);
};

export const headersFinished = (c: Context): boolean => finished.has(c);
