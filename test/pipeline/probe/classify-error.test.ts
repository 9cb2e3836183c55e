import { describe, expect, it } from 'vitest';
import { classifyError } from '../../../pipeline/probe/classify-error.ts';

const err = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...extra });

describe('classifyError', () => {
  it.each([
    [err('ATLAS_BLOCKED_ADDRESS'), 'blocked_address'],
    [err('UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [err('UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    [err('UND_ERR_BODY_TIMEOUT'), 'timeout'],
    [err('UND_ERR_HEADERS_OVERFLOW'), 'too_large'],
    [err('ENOTFOUND'), 'dns'],
    [err('EAI_AGAIN'), 'dns'],
    [err('ECONNREFUSED'), 'refused'],
    [err('ECONNRESET'), 'reset'],
    [err('UND_ERR_SOCKET'), 'reset'],
    [err('CERT_HAS_EXPIRED'), 'tls'],
    [err('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls'],
    [err('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls'],
    [new Error('weird'), 'network_error'],
    [Object.assign(new Error('wrapped'), { cause: err('ECONNREFUSED') }), 'refused'],
    [new AggregateError([err('ECONNREFUSED'), err('ECONNREFUSED')]), 'refused'],
  ])('%s → %s', (e, reason) => {
    expect(classifyError(e)).toBe(reason);
  });
});
