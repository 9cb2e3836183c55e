import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../pipeline/core/config.ts';
import { ErrorBody } from '../../../site/contract/error.ts';
import { harness, type Harness } from '../harness.ts';
// Network safety: runs behind the loopback-only guard (test/net/no-egress.mjs), which refuses
// non-loopback connects and fails the test, so the private and public addresses below can never be
// reached even if the code under test is broken.

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const limited =
  (anon: number, keyed: number, trustProxy = false) =>
  (c: Config) => {
    c.serve.rateLimits.anonymousPerMinute = anon;
    c.serve.rateLimits.keyedPerMinute = keyed;
    c.serve.trustProxy = trustProxy;
  };

describe('request rate limits', () => {
  it('anonymous: N a minute per address; 429 with Retry-After and RateLimit headers; next minute resets', async () => {
    h = await harness({ config: limited(3, 10) });
    h.clock.set('2026-11-25T12:00:15Z');
    for (let i = 0; i < 3; i++) {
      const r = await h.req('/api/v1/services');
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      expect(r.headers.get('ratelimit-remaining')).toBe(String(2 - i));
      expect(r.headers.get('ratelimit-reset')).toBe('45');
      expect(r.headers.get('ratelimit-policy')).toBe('3;w=60');
    }
    const r = await h.json('/api/v1/services');
    expect(r.status).toBe(429);
    expect(ErrorBody.parse(r.body).error).toBe('rate_limited');
    expect(r.res.headers.get('retry-after')).toBe('45');
    expect(r.res.headers.get('ratelimit-remaining')).toBe('0');
    expect(r.res.headers.get('x-api-status')).toBe('preview');
    expect(r.body.message).toContain('3 requests a minute');
    expect((await h.req('/api/v1/services', {}, '192.0.2.200')).status).toBe(200); // another address
    expect((await h.req('/healthz')).status).toBe(200); // never limited
    h.clock.set('2026-11-25T12:01:00Z');
    expect((await h.req('/api/v1/services')).status).toBe(200);
  });

  it('a key raises the limit and is counted per key, whatever the address', async () => {
    h = await harness({ config: limited(1, 4) });
    const k = (await h.post('/api/v1/keys', {}, {}, '192.0.2.50')).body;
    const auth = { headers: { 'X-API-Key': k.key } };
    for (let i = 0; i < 4; i++) expect((await h.req('/api/v1/services', auth, `192.0.2.${i}`)).status).toBe(200);
    const r = await h.req('/api/v1/services', auth, '192.0.2.77');
    expect(r.status).toBe(429);
    expect(r.headers.get('ratelimit-limit')).toBe('4');
    // an unknown key counts as anonymous
    expect((await h.req('/api/v1/services', { headers: { 'X-API-Key': 'atlas_nope' } }, '192.0.2.88')).status).toBe(200);
    expect((await h.req('/api/v1/services', { headers: { 'X-API-Key': 'atlas_nope' } }, '192.0.2.88')).status).toBe(429);
  });

  it('X-Forwarded-For only when trustProxy is set (its right-most entry)', async () => {
    h = await harness({ config: limited(1, 10, false) });
    expect((await h.req('/api/v1/services', { headers: { 'X-Forwarded-For': '1.1.1.1' } }, '10.0.0.1')).status).toBe(200);
    expect((await h.req('/api/v1/services', { headers: { 'X-Forwarded-For': '2.2.2.2' } }, '10.0.0.1')).status).toBe(429); // same socket peer
    await h.close();
    h = await harness({ config: limited(1, 10, true) });
    expect((await h.req('/api/v1/services', { headers: { 'X-Forwarded-For': '9.9.9.9, 1.1.1.1' } }, '10.0.0.1')).status).toBe(200);
    expect((await h.req('/api/v1/services', { headers: { 'X-Forwarded-For': '2.2.2.2' } }, '10.0.0.1')).status).toBe(200);
    expect((await h.req('/api/v1/services', { headers: { 'X-Forwarded-For': '8.8.8.8, 1.1.1.1' } }, '10.0.0.1')).status).toBe(429); // forged left part ignored
  });

  it('switched off: no limit and no RateLimit headers', async () => {
    h = await harness({
      config: (c) => {
        c.serve.rateLimits.enabled = false;
        c.serve.rateLimits.anonymousPerMinute = 1;
      },
    });
    for (let i = 0; i < 5; i++) {
      const r = await h.req('/api/v1/services');
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});
