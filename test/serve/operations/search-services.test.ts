import { afterEach, describe, expect, it } from 'vitest';
import { ServiceList, NO_MATCH_HINT } from '../../../site/contract/service-list.ts';
import type { ServiceSpec } from '../fixture.ts';
import { harness, type Harness } from '../harness.ts';

const SERVICES: ServiceSpec[] = [
  {
    id: 'svc_weather',
    name: 'Weather Pro',
    host: 'api.weather.test',
    operator: 'Sky Corp',
    tags: ['weather'],
    price: 0.002,
    checks30d: 700,
    passed30d: 690,
    monitoringDays: 60,
    networks: ['eip155:8453'],
  },
  {
    id: 'cand_search1',
    name: 'Search One',
    host: 'search.test',
    tags: ['search', 'web'],
    price: 0.01,
    checks30d: 30,
    passed30d: 29,
    monitoringDays: 20,
    payers: 150,
    networks: ['eip155:8453', 'solana:mainnet'],
  },
  {
    id: 'cand_search2',
    name: 'search two',
    host: 'eu.search.test',
    tags: ['search'],
    price: null,
    checks30d: 30,
    passed30d: 27,
    monitoringDays: 25,
    payers: 5,
    networks: ['eip155:84532'],
    mainnet: false,
  },
  {
    id: 'cand_search3',
    name: 'Search Three',
    host: 'search.test',
    tags: ['search'],
    price: 0.5,
    checks30d: 10,
    passed30d: 10,
    monitoringDays: 5,
    payers: null,
    termsChanges90d: 3,
  },
  {
    id: 'cand_mcp',
    type: 'mcp_server',
    name: 'Tools MCP',
    host: 'mcp.tools.test',
    networks: [],
    checks30d: 40,
    passed30d: 40,
    monitoringDays: 10,
    latestPassed: false,
    payers: null,
    listed: false,
  },
  { id: 'cand_stale', name: 'Stale API', host: 'stale.test', lastCheckAgoHours: 5, intervalHours: 1, checks30d: 50, passed30d: 50 },
  { id: 'cand_never', name: 'Never Checked', host: 'never.test', lastCheckAgoHours: null, checks30d: 0, passed30d: 0, latestPassed: null },
  {
    id: 'cand_failing',
    name: 'Failing API',
    host: 'fail.test',
    criteriaExceptFresh: false,
    checks30d: 100,
    passed30d: 20,
    templated: true,
  },
  {
    id: 'svc_market',
    type: 'task_marketplace',
    name: 'Task Market',
    host: 'market.test',
    networks: [],
    mainnet: null,
    price: null,
    checks30d: 300,
    passed30d: 300,
    monitoringDays: 90,
  },
];

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const ids = (body: { items: { id: string }[] }) => body.items.map((i) => i.id);

async function search(qs: string) {
  const r = await h.json(`/api/v1/services${qs}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const parsed = ServiceList.safeParse(r.body);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  return r;
}

describe('search', () => {
  it('defaults: scope directory, sort evidence, limit 50, offset 0; notes object; api_status', async () => {
    h = await harness({ services: SERVICES });
    const r = await search('');
    expect(r.body.api_status).toBe('preview');
    expect(r.body.query).toEqual({ scope: 'directory', sort: 'evidence', limit: 50, offset: 0 });
    expect(typeof r.body.notes).toBe('object');
    expect(Array.isArray(r.body.notes)).toBe(false);
    // stale, never checked and failing services are not in the directory
    expect(ids(r.body).sort()).toEqual(['cand_mcp', 'cand_search1', 'cand_search2', 'cand_search3', 'svc_market', 'svc_weather']);
    expect(r.body.total).toBe(6);
    expect(r.body.hint).toBeUndefined();
    expect(r.res.headers.get('x-api-status')).toBe('preview');
  });

  it('scope=index searches everything tracked', async () => {
    h = await harness({ services: SERVICES });
    const r = await search('?scope=index');
    expect(r.body.total).toBe(SERVICES.length);
  });

  it('filters: each parameter narrows as documented', async () => {
    h = await harness({ services: SERVICES });
    const q = async (qs: string) => ids((await search(`?scope=index&sort=name&${qs}`)).body);
    expect(await q('q=search')).toEqual(['cand_search1', 'cand_search3', 'cand_search2']);
    expect(await q('q=SKY%20weather')).toEqual(['svc_weather']); // operator + name, case-insensitive, every word
    expect(await q('q=eu.search.test')).toEqual(['cand_search2']);
    expect(await q('tier=reviewed')).toEqual(['svc_market', 'svc_weather']);
    expect(await q('type=mcp_server')).toEqual(['cand_mcp']);
    expect(await q('type=task_marketplace')).toEqual(['svc_market']);
    expect(await q('host=SEARCH.test')).toEqual(['cand_search1', 'cand_search3']);
    expect(await q('provider=search.test')).toEqual(['cand_search1', 'cand_search3']); // the host itself, not eu.search.test
    expect(await q('network=SOLANA')).toEqual(['cand_search1']);
    expect(await q('network=84532')).toEqual(['cand_search2']);
    expect(await q('mainnet=false')).toEqual(['cand_search2']);
    expect(await q('mainnet=true')).not.toContain('cand_search2');
    expect(await q('mainnet=true')).not.toContain('cand_mcp'); // no networks: neither true nor false
    expect(await q('passing=false')).toEqual(['cand_mcp']);
    expect(await q('passing=true')).not.toContain('cand_never');
    expect(await q('templated=true')).toEqual(['cand_failing']);
    expect(await q('min_pass_rate=0.99')).toEqual(['cand_search3', 'cand_stale', 'svc_market', 'cand_mcp']);
    expect(await q('min_checks=300')).toEqual(['svc_market', 'svc_weather']);
    expect(await q('min_days=60')).toEqual(['svc_market', 'svc_weather']);
    expect(await q('min_payers=100')).toEqual(['cand_search1']);
    expect(await q('tag=web')).toEqual(['cand_search1']);
    expect(await q('max_price_usd=0.01')).toEqual(['cand_failing', 'cand_never', 'cand_search1', 'cand_stale', 'cand_mcp', 'svc_weather']);
    expect(await q('max_terms_changes_90d=0')).not.toContain('cand_search3');
    expect(await q('max_terms_changes_90d=0')).not.toContain('svc_weather'); // no observed terms: unknown, excluded
    expect(await q('max_terms_changes_90d=3')).toContain('cand_search3');
    expect(await q('listed=false')).toEqual(['cand_mcp']);
    expect(await q('listed=true')).not.toContain('svc_weather');
  });

  it('every sort order, paging, total and group=provider', async () => {
    h = await harness({ services: SERVICES });
    const s = async (qs: string) => ids((await search(`?scope=index&${qs}`)).body);
    expect((await s('sort=evidence'))[0]).toBe('svc_weather'); // most checks first
    expect((await s('sort=pass_rate')).slice(0, 3)).toEqual(['svc_market', 'cand_stale', 'cand_mcp']);
    expect((await s('sort=pass_rate')).at(-1)).toBe('cand_never'); // null pass rate last
    expect((await s('sort=payers')).slice(0, 5)).toEqual(['cand_search1', 'cand_failing', 'cand_never', 'cand_stale', 'cand_search2']);
    expect((await s('sort=price')).slice(0, 3)).toEqual(['svc_weather', 'cand_failing', 'cand_mcp']);
    expect((await s('sort=price')).slice(-2)).toEqual(['cand_search2', 'svc_market']); // unknown prices last
    expect((await s('sort=recent'))[0]).toBe('cand_search3'); // newest monitoring_since
    expect(await s('sort=name')).toEqual([
      'cand_failing',
      'cand_never',
      'cand_search1',
      'cand_search3',
      'cand_search2',
      'cand_stale',
      'svc_market',
      'cand_mcp',
      'svc_weather',
    ]);
    const all = await s('sort=name&limit=100');
    const page = await search('?scope=index&sort=name&limit=3&offset=3');
    expect(ids(page.body)).toEqual(all.slice(3, 6));
    expect(page.body.total).toBe(SERVICES.length);
    const beyond = await search('?scope=index&offset=100');
    expect(beyond.body.items).toEqual([]);
    expect(beyond.body.total).toBe(SERVICES.length);
    expect(beyond.body.hint).toBeUndefined();
    const grouped = await search('?scope=index&group=provider&sort=evidence&q=search');
    expect(grouped.body.total).toBe(2); // search.test and eu.search.test
    expect(ids(grouped.body)).toEqual(['cand_search2', 'cand_search1']); // equal checks: more days of history first
    expect(grouped.body.query.group).toBe('provider');
  });

  it('nothing matched: 200, total 0, empty items, hint', async () => {
    h = await harness({ services: SERVICES });
    const r = await search('?q=zzzz-nothing');
    expect(r.body.total).toBe(0);
    expect(r.body.items).toEqual([]);
    expect(r.body.hint).toBe(NO_MATCH_HINT);
    expect(r.body.hint).toContain('scope=index');
    expect(r.body.hint).toContain('missing_service');
  });

  it('echoes the effective query, normalized', async () => {
    h = await harness({ services: SERVICES });
    const r = await search(
      '?provider=Search.TEST&limit=7&offset=2&sort=price&tier=discovered&min_pass_rate=0.5&mainnet=1&q=%20a%20%20b%20',
    );
    expect(r.body.query).toEqual({
      scope: 'directory',
      provider: 'search.test',
      sort: 'price',
      limit: 7,
      offset: 2,
      filters: { tier: 'discovered', min_pass_rate: 0.5, mainnet: true, q: 'a b' },
    });
  });

  it('recomputes freshness and directory membership against the server clock', async () => {
    h = await harness({ services: [{ id: 'cand_x', lastCheckAgoHours: 1, intervalHours: 1 }] });
    let r = await search('');
    expect(r.body.total).toBe(1);
    expect(r.body.items[0].evidence.freshness).toBe('fresh');
    h.clock.advance(61 * 60_000 + 1); // now 2h01m after the check: older than two intervals
    r = await search('?limit=49'); // a different query, so no cached result
    expect(r.body.total).toBe(0);
    r = await search('?scope=index');
    expect(r.body.items[0].evidence.freshness).toBe('stale');
  });

  it('answers the same query from one result for up to 5 minutes, then recomputes', async () => {
    h = await harness({ services: [{ id: 'cand_x', lastCheckAgoHours: 1.95, intervalHours: 1 }] });
    const a = await search('?scope=index');
    h.clock.advance(4 * 60_000 + 59_000);
    const b = await search('?scope=index&limit=50'); // same normalized query
    expect(b.body.generated_at).toBe(a.body.generated_at);
    expect(b.body.items[0].evidence.freshness).toBe('fresh'); // the cached result, computed when fresh
    h.clock.advance(1000);
    const c = await search('?scope=index');
    expect(c.body.generated_at).not.toBe(a.body.generated_at);
    expect(c.body.items[0].evidence.freshness).toBe('stale');
  });

  it("a new generation is never answered from the old generation's cache", async () => {
    h = await harness({ services: [{ id: 'cand_x' }] });
    expect((await search('?scope=index')).body.total).toBe(1);
    h.publish({ generation: 'g2', services: [{ id: 'cand_x' }, { id: 'cand_y' }] });
    await h.deps.site.reload();
    expect((await search('?scope=index')).body.total).toBe(2);
  });

  it('schedule_tier with Deprecation and Sunset headers until 2027-01-17, then dropped', async () => {
    h = await harness({ services: [{ id: 'cand_x', lastCheckAgoHours: null }] });
    const r = await search('?scope=index');
    expect(r.body.items[0].evidence.schedule_tier).toBe(r.body.items[0].evidence.check_interval);
    expect(r.res.headers.get('sunset')).toBe('Sun, 17 Jan 2027 00:00:00 GMT');
    expect(r.res.headers.get('deprecation')).toMatch(/^@\d+$/);
    const d = await h.json('/api/v1/services/cand_x');
    expect(d.body.evidence.schedule_tier).toBe('hourly');
    expect(d.res.headers.get('sunset')).toBeTruthy();
    h.clock.set('2027-01-17T00:00:00Z');
    const after = await search('?scope=index&limit=10');
    expect(after.body.items[0].evidence.schedule_tier).toBeUndefined();
    expect(after.res.headers.get('sunset')).toBeNull();
    expect(after.res.headers.get('deprecation')).toBeNull();
    const d2 = await h.json('/api/v1/services/cand_x');
    expect(d2.body.evidence.schedule_tier).toBeUndefined();
    expect(d2.res.headers.get('deprecation')).toBeNull();
  });

  it('prefixes links with serve.baseUrl when configured', async () => {
    h = await harness({ services: [{ id: 'cand_x' }], config: (c) => (c.serve.baseUrl = 'https://atlas.example/') });
    const r = await search('');
    expect(r.body.items[0].links).toEqual({
      page: 'https://atlas.example/services/cand_x',
      api: 'https://atlas.example/api/v1/services/cand_x',
    });
  });

  it('CORS for reads, not for writes', async () => {
    h = await harness({ services: [] });
    const r = await h.req('/api/v1/services', { headers: { Origin: 'https://agent.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.headers.get('access-control-expose-headers')).toContain('X-API-Status');
    const pre = await h.req('/api/v1/services', {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
    expect(pre.headers.get('access-control-allow-methods')).not.toContain('POST');
    const w = await h.req('/api/v1/feedback', { method: 'POST', headers: { Origin: 'https://agent.example' }, body: '{"kind":"other"}' });
    expect(w.headers.get('access-control-allow-origin')).toBeNull();
  });
});
