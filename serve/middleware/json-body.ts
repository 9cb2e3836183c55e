import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AtlasError } from '../../pipeline/core/errors.ts';

/** Request body cap (config `serve.bodyLimitBytes`, default 16 KiB): larger bodies get 413. */
export const bodyCap = (maxBytes: number): MiddlewareHandler =>
  bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new AtlasError('payload_too_large', `request body larger than ${maxBytes} bytes`);
    },
  });

/**
 * The request body as JSON: `undefined` when empty (the key request's body is optional), 400
 * `invalid_json` when it does not parse. The content type is not enforced: every body is JSON
 * (docs/api.md), and a missing `Content-Type` from a simple client should not turn into an error.
 */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new AtlasError('invalid_json', 'request body is not valid JSON');
  }
}
