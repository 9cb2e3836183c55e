import type { Context } from 'hono';
import { keyedHash } from '../../pipeline/core/secret.ts';

/**
 * The client address used for per-address limits. The socket's peer address by default;
 * `X-Forwarded-For` only when `serve.trustProxy` is set, and then its right-most entry (the address
 * our trusted proxy saw; entries further left are whatever the client sent and can be forged).
 * In-process requests (`app.request()` in tests) have no socket: `unknown` unless the test passes
 * `env.incoming.socket.remoteAddress`.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const xff = c.req.header('x-forwarded-for');
    if (xff) {
      const parts = xff
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const last = parts[parts.length - 1];
      if (last) return last.slice(0, 64);
    }
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/** Addresses are never stored in clear: a keyed hash with the installation secret. */
export const addressHash = (secret: string, address: string): string => keyedHash(secret, 'address', address);
