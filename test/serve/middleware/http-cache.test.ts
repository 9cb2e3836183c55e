import { afterEach, describe, expect, it } from 'vitest';
import {
  ageSeconds,
  httpDate,
  ifModifiedSinceUnchanged,
  ifNoneMatchMatches,
  notModifiedFor,
  strongEtag,
} from '../../../serve/middleware/http-cache.ts';
import { serverParts } from '../../../serve/mounts.ts';
import { CACHE_CONTROL, KEYED_CACHE_CONTROL, routePolicy } from '../../../site/contract/http-cache.ts';
import { harness, T0, type Harness } from '../harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const SEARCH = '/api/v1/services?scope=index&sort=name';
const G1_MODIFIED = new Date(T0).toUTCString();

/** One request, its body read as text. */
async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; res: Response }> {
  const res = await h.req(path, { headers });
  return { status: res.status, text: await res.text(), res };
}

describe('If-None-Match comparison (weak, RFC 9110)', () => {
  const tag = '"g1.abc"';
  it.each([
    ['"g1.abc"', true],
    ['W/"g1.abc"', true],
    ['"x", W/"g1.abc" , "y"', true],
    ['*', true],
    [' * ', true],
    ['"g1.ab"', false],
    ['"x", "y"', false],
    ['g1.abc', false],
    ['', false],
  ])('%j → %s', (header, expected) => {
    expect(ifNoneMatchMatches(header, tag)).toBe(expected);
  });
  it('no header never matches', () => {
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
  });
  it('a strong tag: quoted, generation first, keyed bodies marked', () => {
    const a = strongEtag('20261125T120000Z-ab12', '{"a":1}');
    expect(a).toMatch(/^"20261125T120000Z-ab12\.[A-Za-z0-9_-]+"$/);
    expect(strongEtag('20261125T120000Z-ab12', '{"a":1}', true)).not.toBe(a);
    expect(strongEtag('20261125T120000Z-ab12', '{"a":2}')).not.toBe(a);
    expect(strongEtag('g "2"', '{"a":1}')).toMatch(/^"g2\./);
  });
  it('the route table: first match wins, unknown paths are never stored', () => {
    expect(routePolicy('/api/v1/services').cls).toBe('search');
    expect(routePolicy('/api/v1/services/cand_a')).toMatchObject({ cls: 'published', keyed: true, vary: true });
    expect(routePolicy('/api/v1/status').cls).toBe('live');
    expect(routePolicy('/api/v1/stats').cls).toBe('published');
    expect(routePolicy('/healthz').cls).toBe('probe');
    expect(routePolicy('/mcp').cls).toBe('uncached');
    expect(routePolicy('').cls).toBe('uncached');
  });
});

describe('If-Modified-Since and Age', () => {
  const LM = 'Wed, 25 Nov 2026 12:00:00 GMT';
  const now = new Date('2026-11-25T12:10:00Z');
  it.each([
    [LM, true], // modified at the date sent: unchanged
    ['Wed, 25 Nov 2026 12:05:00 GMT', true],
    ['Wed, 25 Nov 2026 11:59:59 GMT', false],
    ['Wed, 25 Nov 2026 12:10:01 GMT', false], // after the server's clock: ignored
    ['not a date', false],
    ['', false],
  ])('If-Modified-Since %j → unchanged %s', (header, expected) => {
    expect(ifModifiedSinceUnchanged(header, LM, now)).toBe(expected);
  });
  it('no header or no Last-Modified is never unchanged', () => {
    expect(ifModifiedSinceUnchanged(undefined, LM, now)).toBe(false);
    expect(ifModifiedSinceUnchanged(LM, undefined, now)).toBe(false);
  });
  it('If-None-Match decides when present; If-Modified-Since only without it', () => {
    const headers = (h: Record<string, string>) => (n: string) => h[n];
    const tag = '"g1.abc"';
    expect(notModifiedFor(headers({ 'if-modified-since': LM }), tag, LM, now)).toBe(true);
    expect(notModifiedFor(headers({ 'if-none-match': '"g0.x"', 'if-modified-since': LM }), tag, LM, now)).toBe(false);
    expect(notModifiedFor(headers({ 'if-none-match': tag, 'if-modified-since': 'Tue, 24 Nov 2026 00:00:00 GMT' }), tag, LM, now)).toBe(
      true,
    );
    expect(notModifiedFor(headers({}), tag, LM, now)).toBe(false);
  });
  it('Age counts whole seconds rounded up and is never negative', () => {
    expect(ageSeconds(1_000, 1_000)).toBe(0);
    expect(ageSeconds(1_000, 1_001)).toBe(1);
    expect(ageSeconds(0, 200_000)).toBe(200);
    expect(ageSeconds(0, 299_500)).toBe(300);
    expect(ageSeconds(5_000, 1_000)).toBe(0);
  });
});

describe('HTTP caching of the server', () => {
  it('every route class gets its ETag, Cache-Control and Last-Modified', async () => {
    h = await harness({ services: [{ id: 'cand_a' }], mounts: serverParts().mounts });
    const cases: [string, string, string][] = [
      [SEARCH, CACHE_CONTROL.search, G1_MODIFIED],
      ['/api/v1/services/cand_a', CACHE_CONTROL.published, G1_MODIFIED],
      ['/api/v1/stats', CACHE_CONTROL.published, G1_MODIFIED],
      ['/api/v1/roadmap', CACHE_CONTROL.published, G1_MODIFIED],
      ['/api/v1/fields', CACHE_CONTROL.published, G1_MODIFIED],
      ['/api/v1/changes', CACHE_CONTROL.published, G1_MODIFIED],
      ['/api/v1/status', CACHE_CONTROL.live, G1_MODIFIED],
      ['/healthz', CACHE_CONTROL.probe, G1_MODIFIED],
      ['/openapi.json', CACHE_CONTROL.published, G1_MODIFIED],
      ['/', CACHE_CONTROL.live, G1_MODIFIED],
      ['/services/cand_a', CACHE_CONTROL.live, G1_MODIFIED],
      ['/status', CACHE_CONTROL.live, G1_MODIFIED],
      ['/assets/atlas.css', CACHE_CONTROL.asset, G1_MODIFIED],
    ];
    // Live bodies are stamped with the answer time: move the clock so it differs from the generation's.
    h.clock.advance(90_000);
    const answered = h.clock().toUTCString();
    for (const [path, cc, published] of cases) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      expect(r.res.headers.get('cache-control'), path).toBe(cc);
      expect(r.res.headers.get('etag'), path).toMatch(/^"g1\.[A-Za-z0-9_-]+"$/);
      const live = cc === CACHE_CONTROL.live || cc === CACHE_CONTROL.probe;
      if (path === SEARCH)
        expect(r.res.headers.get('last-modified'), path).toBe(answered); // computed now
      else if (path.startsWith('/assets/')) expect(r.res.headers.get('last-modified'), path).toBe(new Date(T0).toUTCString());
      else expect(r.res.headers.get('last-modified'), path).toBe(live ? answered : published);
      if (path.startsWith('/api/')) expect(r.res.headers.get('vary'), path).toContain('X-API-Key');
      expect(r.res.headers.get('access-control-expose-headers') ?? 'ETag', path).toContain('ETag');
    }
  });

  it.each([SEARCH, '/api/v1/services/cand_a', '/api/v1/stats', '/healthz'])(
    '%s: a matching If-None-Match answers 304 with no body and the same headers; a stale one 200',
    async (path) => {
      h = await harness({ services: [{ id: 'cand_a' }] });
      const first = await get(path);
      const etag = first.res.headers.get('etag')!;
      // The search sends its cached bytes with their length.
      if (path === SEARCH) expect(first.res.headers.get('content-length')).toBe(String(Buffer.byteLength(first.text)));
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const r = await get(path, { 'If-None-Match': inm });
        expect(r.status, inm).toBe(304);
        expect(r.text).toBe('');
        expect(r.res.headers.get('etag')).toBe(etag);
        expect(r.res.headers.get('cache-control')).toBe(first.res.headers.get('cache-control'));
        expect(r.res.headers.get('last-modified')).toBe(first.res.headers.get('last-modified'));
        expect(r.res.headers.get('content-type')).toBeNull();
        expect(r.res.headers.get('content-length') ?? '0').toBe('0');
        expect(r.res.headers.get('x-api-status')).toBe('preview');
      }
      const stale = await get(path, { 'If-None-Match': '"g0.stale"' });
      expect(stale.status).toBe(200);
      expect(stale.text).toBe(first.text);
      expect(stale.res.headers.get('etag')).toBe(etag);
    },
  );

  it('errors are no-store, with no validators (404, 400, 429, 503, writes)', async () => {
    h = await harness({
      services: [{ id: 'cand_a' }],
      config: (c) => {
        c.serve.rateLimits.anonymousPerMinute = 3;
      },
    });
    const errors = [await get('/api/v1/services/cand_nope'), await get('/api/v1/services?limit=0'), await get('/no/such/path')];
    errors.push(await get('/api/v1/stats'));
    errors.push(await get('/api/v1/stats'));
    expect(errors.map((r) => r.status)).toEqual([404, 400, 404, 429, 429]);
    for (const r of errors) {
      expect(r.res.headers.get('cache-control')).toBe('no-store');
      expect(r.res.headers.get('etag')).toBeNull();
    }
    const empty = await harness({ empty: true });
    try {
      const r = await empty.req('/api/v1/stats');
      expect(r.status).toBe(503);
      expect(r.headers.get('cache-control')).toBe('no-store');
    } finally {
      await empty.close();
    }
  });

  it('a rate-limited answer varies by the key headers', async () => {
    h = await harness({ services: [{ id: 'cand_a' }], mounts: serverParts().mounts });
    const r = await get('/status');
    expect(r.res.headers.get('ratelimit-limit')).not.toBeNull();
    expect(r.res.headers.get('vary')).toBe('Authorization, X-API-Key');
    // /healthz is not limited and its body does not depend on a key.
    expect((await get('/healthz')).res.headers.get('vary')).toBeNull();
  });

  it('a keyed service read is private and never shares the anonymous ETag', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const anon = await get('/api/v1/services/cand_a');
    const anonTag = anon.res.headers.get('etag')!;
    expect(anon.res.headers.get('cache-control')).toBe(CACHE_CONTROL.published);
    const k = await h.post('/api/v1/keys', {});
    expect(k.res.headers.get('cache-control')).toBe('no-store');
    const variants: Record<string, string>[] = [
      { Authorization: `Bearer ${k.body.key}` },
      { 'X-API-Key': k.body.key },
      { 'X-API-Key': 'atlas_unknown' },
    ];
    for (const headers of variants) {
      const r = await get('/api/v1/services/cand_a', headers);
      expect(r.status).toBe(200);
      expect(r.res.headers.get('cache-control')).toBe(KEYED_CACHE_CONTROL);
      expect(r.res.headers.get('vary')).toContain('Authorization, X-API-Key');
      expect(r.res.headers.get('etag')).not.toBe(anonTag);
      // The anonymous validator does not revalidate a keyed answer.
      expect((await get('/api/v1/services/cand_a', { ...headers, 'If-None-Match': anonTag })).status).toBe(200);
    }
  });

  it('the ETag changes when a new generation is loaded, and the old one no longer matches', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const paths = [SEARCH, '/api/v1/services/cand_a', '/api/v1/stats'];
    const before = await Promise.all(paths.map((p) => get(p)));
    h.clock.advance(5 * 60_000);
    h.publish({ generation: 'g2', services: [{ id: 'cand_a' }] });
    expect(await h.deps.site.reload()).toBe(true);
    for (const [i, p] of paths.entries()) {
      const old = before[i]!.res.headers.get('etag')!;
      const r = await get(p, { 'If-None-Match': old });
      expect(r.status, p).toBe(200);
      expect(r.res.headers.get('etag'), p).toMatch(/^"g2\./);
      expect(r.res.headers.get('etag'), p).not.toBe(old);
      if (p !== SEARCH) expect(r.res.headers.get('last-modified'), p).toBe(httpDate(h.clock()));
    }
  });

  it('the search ETag names the generation, the normalized query and the answer instant, not the request spelling', async () => {
    h = await harness({ services: [{ id: 'cand_a' }, { id: 'cand_b' }] });
    const etag = async (p: string) => {
      h.deps.searchCache.clear(); // every answer recomputed: equal tags must come from equal inputs, not from one cached entry
      const r = await get(p);
      expect(r.status, p).toBe(200);
      return { tag: r.res.headers.get('etag')!, text: r.text };
    };
    const a = await etag('/api/v1/services?scope=index&sort=name&limit=10');
    // Parameter order, defaults spelled out and letter case of case-insensitive values: the same query.
    for (const p of [
      '/api/v1/services?limit=10&sort=name&scope=index',
      '/api/v1/services?scope=index&sort=name&limit=10&offset=0',
      '/api/v1/services?scope=index&sort=name&limit=10&q=%20',
    ]) {
      const b = await etag(p);
      expect(b.tag, p).toBe(a.tag);
      expect(b.text, p).toBe(a.text); // a strong tag: equal tags, equal bytes
    }
    for (const p of [
      '/api/v1/services?scope=index&sort=name&limit=11',
      '/api/v1/services?scope=index&sort=name&limit=10&type=api_endpoint',
    ]) {
      expect((await etag(p)).tag, p).not.toBe(a.tag);
    }
    // Another answer instant is another body (`generated_at`), so another tag.
    h.clock.advance(1);
    const later = await etag('/api/v1/services?scope=index&sort=name&limit=10');
    expect(later.text).not.toBe(a.text);
    expect(later.tag).not.toBe(a.tag);
    // Another generation: another tag, even at the same instant for the same query.
    h.publish({ generation: 'g2', services: [{ id: 'cand_a' }, { id: 'cand_b' }] });
    expect(await h.deps.site.reload()).toBe(true);
    const g2 = await etag('/api/v1/services?scope=index&sort=name&limit=10');
    expect(g2.tag).toMatch(/^"g2\./);
    expect(g2.tag).not.toBe(later.tag);
  });

  it('a search answer from the result cache carries Age: computed at t, served at t+200 s, at most 100 s left', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const left = (r: Response) => Number(/max-age=(\d+)/.exec(r.headers.get('cache-control') ?? '')![1]) - Number(r.headers.get('age'));
    const computed = await get(SEARCH);
    expect(computed.res.headers.get('age')).toBe('0');
    h.clock.advance(200_000);
    const reused = await get(SEARCH);
    expect(reused.text).toBe(computed.text);
    expect(reused.res.headers.get('age')).toBe('200');
    expect(left(reused.res)).toBe(100);
    const cond = await get(SEARCH, { 'If-Modified-Since': computed.res.headers.get('last-modified')! });
    expect(cond.status).toBe(304);
    expect(cond.res.headers.get('age')).toBe('200');
    expect(left(cond.res)).toBe(100);
  });

  it('HEAD carries the same validators and honours If-None-Match', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const g = await get('/api/v1/stats');
    const head = await h.req('/api/v1/stats', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(g.res.headers.get('etag'));
    const cond = await h.req('/api/v1/stats', { method: 'HEAD', headers: { 'If-None-Match': g.res.headers.get('etag')! } });
    expect(cond.status).toBe(304);
  });
});
