import type { EdgeFailure } from './reasons.ts';

/**
 * Map an error thrown by the HTTP edge (undici, net, tls, dns, our guard) to a reason code. Pure.
 * Walks `cause` chains and AggregateError members (happy-eyeballs connects throw those).
 */
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|EPROTO$)/;

function codesOf(err: unknown, out: string[] = [], depth = 0): string[] {
  if (!err || typeof err !== 'object' || depth > 6) return out;
  const e = err as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') out.push(e.code);
  if (typeof e.name === 'string') out.push(`name:${e.name}`);
  if (Array.isArray(e.errors)) for (const x of e.errors) codesOf(x, out, depth + 1);
  if (e.cause) codesOf(e.cause, out, depth + 1);
  return out;
}

export function classifyError(err: unknown): EdgeFailure {
  const codes = codesOf(err);
  const has = (c: string) => codes.includes(c);
  if (has('ATLAS_BLOCKED_ADDRESS')) return 'blocked_address';
  if (
    has('ATLAS_TIMEOUT') ||
    has('name:TimeoutError') ||
    has('UND_ERR_CONNECT_TIMEOUT') ||
    has('UND_ERR_HEADERS_TIMEOUT') ||
    has('UND_ERR_BODY_TIMEOUT') ||
    has('ETIMEDOUT') ||
    has('ERR_SOCKET_CONNECTION_TIMEOUT')
  )
    return 'timeout';
  if (has('UND_ERR_HEADERS_OVERFLOW') || has('UND_ERR_RES_EXCEEDED_MAX_SIZE') || has('HPE_HEADER_OVERFLOW')) return 'too_large';
  if (has('ENOTFOUND') || has('EAI_AGAIN') || has('EAI_NODATA') || has('EAI_FAIL') || has('EAI_NONAME')) return 'dns';
  if (has('ECONNREFUSED')) return 'refused';
  if (codes.some((c) => TLS_CODES.test(c))) return 'tls';
  if (has('ECONNRESET') || has('EPIPE') || has('UND_ERR_SOCKET') || has('ECONNABORTED') || has('UND_ERR_CLOSED')) return 'reset';
  return 'network_error';
}

/** A short, client-safe description (codes only; no stack, no internal paths). */
export function describeError(err: unknown): string {
  const codes = codesOf(err).filter((c) => !c.startsWith('name:'));
  const msg = err instanceof Error ? err.message : String(err);
  return (codes.length ? `${[...new Set(codes)].join(',')}: ` : '') + msg.slice(0, 160);
}
