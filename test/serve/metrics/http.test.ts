import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../site/contract/error.ts';
import { parseExposition, type Sample, value } from '../../helpers/prom-text.ts';
import { harness, type Harness } from '../harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

async function scrape(headers: Record<string, string> = {}): Promise<Sample[]> {
  const r = await h.req('/metrics', { headers });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await r.text()).samples;
}

describe('GET /metrics', () => {
  it('is Prometheus text with the declared families', async () => {
    h = await harness();
    const r = await h.req('/metrics');
    const { types } = parseExposition(await r.text());
    expect(Object.fromEntries(types)).toMatchObject({
      atlas_http_requests_total: 'counter',
      atlas_http_request_duration_seconds: 'histogram',
      atlas_search_cache_lookups_total: 'counter',
      atlas_inbox_appends_total: 'counter',
      atlas_inbox_fsync_seconds: 'histogram',
      atlas_generation_info: 'gauge',
      atlas_generation_age_seconds: 'gauge',
    });
  });

  it('counts requests by route pattern (never the raw path) and status, with latency; scrapes are not counted', async () => {
    h = await harness({ services: [{ id: 'svc_a' }] });
    await h.req('/api/v1/services/svc_a');
    await h.req('/api/v1/services/svc_a');
    await h.req('/api/v1/services/svc_nosuch');
    await h.req('/no/such/path');
    await h.req('/healthz');
    let s = await scrape();
    const route = '/api/v1/services/:id';
    expect(value(s, 'atlas_http_requests_total', { route, method: 'GET', status: '200' })).toBe(2);
    expect(value(s, 'atlas_http_requests_total', { route, method: 'GET', status: '404' })).toBe(1);
    expect(value(s, 'atlas_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(value(s, 'atlas_http_requests_total', { route: '/healthz', status: '200' })).toBe(1);
    expect(s.some((x) => x.labels.route?.includes('svc_a') || x.labels.route?.includes('no/such'))).toBe(false);
    expect(s.some((x) => x.labels.route === '/metrics')).toBe(false);
    expect(value(s, 'atlas_http_request_duration_seconds_count', { route, method: 'GET' })).toBe(3);
    expect(value(s, 'atlas_http_request_duration_seconds_bucket', { route, method: 'GET', le: '+Inf' })).toBe(3);

    await h.req('/api/v1/services/svc_a');
    s = await scrape();
    expect(value(s, 'atlas_http_requests_total', { route, method: 'GET', status: '200' })).toBe(3);
  });

  it('a request stopped by the rate limit counts under its route with 429; /metrics itself is never limited', async () => {
    h = await harness({
      config: (c) => {
        c.serve.rateLimits.anonymousPerMinute = 1;
      },
    });
    expect((await h.req('/api/v1/stats')).status).toBe(200);
    expect((await h.req('/api/v1/stats')).status).toBe(429);
    const s = await scrape();
    await scrape();
    expect(value(s, 'atlas_http_requests_total', { route: '/api/v1/stats', status: '429' })).toBe(1);
  });

  it('counts search cache hits and misses, one per search', async () => {
    h = await harness({ services: [{ id: 'svc_a' }, { id: 'svc_b' }] });
    let s = await scrape();
    expect(value(s, 'atlas_search_cache_lookups_total', { result: 'hit' })).toBe(0);
    expect(value(s, 'atlas_search_cache_lookups_total', { result: 'miss' })).toBe(0);
    await h.req('/api/v1/services?limit=5'); // computed
    await h.req('/api/v1/services?limit=5'); // same raw query string: hit
    await h.req('/api/v1/services?limit=05'); // other string, same normalized query: hit
    await h.req('/api/v1/services?limit=6'); // computed
    s = await scrape();
    expect(value(s, 'atlas_search_cache_lookups_total', { result: 'hit' })).toBe(2);
    expect(value(s, 'atlas_search_cache_lookups_total', { result: 'miss' })).toBe(2);
  });

  it('reports the loaded generation and its age by the injected clock', async () => {
    h = await harness();
    let s = await scrape();
    expect(value(s, 'atlas_generation_info', { generation: 'g1' })).toBe(1);
    expect(value(s, 'atlas_generation_age_seconds', { generation: 'g1' })).toBe(0);
    h.clock.advance(90_000);
    s = await scrape();
    expect(value(s, 'atlas_generation_age_seconds', { generation: 'g1' })).toBe(90);

    h.publish({ generation: 'g2', services: [] });
    await h.deps.site.reload();
    h.clock.advance(30_000);
    s = await scrape();
    expect(value(s, 'atlas_generation_info', { generation: 'g2' })).toBe(1);
    expect(s.some((x) => x.name.startsWith('atlas_generation_') && x.labels.generation === 'g1')).toBe(false);
    expect(value(s, 'atlas_generation_age_seconds', { generation: 'g2' })).toBe(30);
  });

  it('before the first publish: no generation series, still 200', async () => {
    h = await harness({ empty: true });
    const s = await scrape();
    expect(s.some((x) => x.name.startsWith('atlas_generation_'))).toBe(false);
  });

  it('counts inbox appends by kind, with their fsync time', async () => {
    h = await harness();
    expect((await h.post('/api/v1/keys', {})).status).toBe(201);
    expect((await h.post('/api/v1/feedback', { kind: 'other', note: 'hello' })).status).toBe(201);
    expect((await h.post('/api/v1/feedback', { kind: 'other', note: 'again' }, {}, '203.0.113.9')).status).toBe(201);
    const s = await scrape();
    expect(value(s, 'atlas_inbox_appends_total', { kind: 'keys' })).toBe(1);
    expect(value(s, 'atlas_inbox_appends_total', { kind: 'feedback' })).toBe(2);
    expect(value(s, 'atlas_inbox_fsync_seconds_count', { kind: 'feedback' })).toBe(2);
    expect(value(s, 'atlas_inbox_fsync_seconds_sum', { kind: 'feedback' })).toBeGreaterThan(0);
  });

  it('two apps in one process keep separate counts (a registry per app)', async () => {
    h = await harness();
    const other = await harness();
    try {
      await other.req('/healthz');
      await other.req('/healthz');
      await h.req('/healthz');
      const s = await scrape();
      expect(value(s, 'atlas_http_requests_total', { route: '/healthz' })).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('with a token: 401 without the bearer, 200 with it', async () => {
    const token = 'metrics-token-0123456789';
    h = await harness({
      config: (c) => {
        c.serve.metrics.token = token;
      },
    });
    const r = await h.json('/metrics');
    expect(r.status).toBe(401);
    expect(ErrorBody.parse(r.body).error).toBe('unauthorized');
    expect((await h.req('/metrics', { headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    await scrape({ Authorization: `Bearer ${token}` });
  });

  it('serve.metrics.enabled false: no /metrics route', async () => {
    h = await harness({
      config: (c) => {
        c.serve.metrics.enabled = false;
      },
    });
    expect((await h.req('/metrics')).status).toBe(404);
  });
});
