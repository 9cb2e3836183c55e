import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../pipeline/core/config.ts';
import { startServer, type RunningServer } from '../../../serve/index.ts';
import { CACHE_CONTROL, type CacheClass, KEY_VARY, KEYED_CACHE_CONTROL, routePolicy } from '../../../site/contract/http-cache.ts';
import { makeContext, tempDir, testClock, type TestClock } from '../../helpers/context.ts';
import { writeGeneration } from '../fixture.ts';

/**
 * HTTP caching through the real Node server (`startServer`, @hono/node-server) on 127.0.0.1 port 0,
 * read with a real HTTP client: the in-process tests (test/serve/middleware/http-cache.test.ts) call
 * `app.request()`, which never goes through the adapter's response path, where the ETag was once
 * lost. Every route class, with rate limits on and off.
 */
const GENERATED = '2026-11-25T12:00:00.000Z';
const STARTED = '2026-11-25T12:01:00.000Z';
const ANSWERED = '2026-11-25T12:01:30.000Z';
const http = (iso: string) => new Date(iso).toUTCString();

const report = (id: string) => ({
  api_status: 'preview',
  id,
  week_start: '2026-11-16',
  week_end: '2026-11-22',
  status: 'final',
  frozen_at: GENERATED,
  generated_at: GENERATED,
  report: {},
  corrections: [],
});

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

async function send(
  url: string,
  opts: { method?: 'GET' | 'HEAD' | 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const r = await request(url, { method: opts.method ?? 'GET', headers: opts.headers, body: opts.body });
  const text = await r.body.text();
  const headers: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(r.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  return { status: r.statusCode, headers, text };
}

interface World {
  server: RunningServer;
  clock: TestClock;
  close(): Promise<void>;
}

async function world(rateLimited: boolean): Promise<World> {
  const tmp = tempDir('atlas-http-cache-');
  const clock = testClock(STARTED);
  const config = defaultConfig();
  config.serve.rateLimits.enabled = rateLimited;
  config.serve.rateLimits.anonymousPerMinute = 1_000_000;
  config.serve.rateLimits.keyedPerMinute = 1_000_000;
  const ctx = makeContext(tmp.dir, { clock, config });
  writeGeneration(ctx.paths.publicDir, {
    generation: 'g1',
    now: new Date(GENERATED),
    services: [{ id: 'cand_a' }, { id: 'svc_b' }],
    reports: { '2026-11-16': report('2026-11-16'), current: report('current') },
  });
  let server: RunningServer;
  try {
    server = await startServer(ctx, { port: 0, host: '127.0.0.1', watchIntervalMs: 60_000, followIntervalMs: 60_000, replicaId: 't' });
  } catch (e) {
    tmp.cleanup();
    throw e;
  }
  // Live bodies are stamped with the answer time: move it away from the generation's and the start's.
  clock.set(ANSWERED);
  return {
    server,
    clock,
    async close() {
      try {
        await server.close();
      } finally {
        tmp.cleanup();
      }
    },
  };
}

type Modified = 'generation' | 'answer' | 'start';
/** Every route class the server answers a cacheable GET on: path, class, Last-Modified, varies by key. */
const ROUTES: [string, CacheClass, Modified, boolean][] = [
  // API JSON
  ['/api/v1/services', 'search', 'answer', true],
  ['/api/v1/services?scope=index&sort=name', 'search', 'answer', true],
  ['/api/v1/services/cand_a', 'published', 'generation', true],
  ['/api/v1/stats', 'published', 'generation', true],
  ['/api/v1/status', 'live', 'answer', true],
  ['/api/v1/reports', 'published', 'generation', true],
  ['/api/v1/reports/2026-11-16', 'published', 'generation', true],
  ['/api/v1/reports/current', 'published', 'generation', true],
  ['/api/v1/changes?days=30', 'published', 'generation', true],
  ['/api/v1/fields', 'published', 'generation', true],
  ['/api/v1/roadmap', 'published', 'generation', true],
  // Documents
  ['/openapi.json', 'published', 'generation', false],
  ['/llms.txt', 'published', 'generation', false],
  ['/server.json', 'published', 'generation', false],
  ['/badges/cand_a.svg', 'published', 'generation', false],
  // The probe
  ['/healthz', 'probe', 'answer', false],
  // HTML pages
  ['/', 'live', 'answer', false],
  ['/services/cand_a', 'live', 'answer', false],
  ['/status', 'live', 'answer', false],
  ['/reports', 'live', 'answer', false],
  // Static files
  ['/assets/atlas.css', 'asset', 'start', false],
  ['/assets/atlas.js', 'asset', 'start', false],
];
const MODIFIED: Record<Modified, string> = { generation: http(GENERATED), answer: http(ANSWERED), start: http(STARTED) };

describe.each([
  { rateLimited: false, label: 'rate limits off' },
  { rateLimited: true, label: 'rate limits on' },
])('HTTP caching over a real socket ($label)', ({ rateLimited }) => {
  let w: World;
  beforeAll(async () => {
    w = await world(rateLimited);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('the route table covers every class of the policy table', () => {
    expect([...new Set(ROUTES.map(([, cls]) => cls))].sort()).toEqual(['asset', 'live', 'probe', 'published', 'search']);
    for (const [p, cls] of ROUTES) expect(routePolicy(p.split('?')[0]!).cls, p).toBe(cls);
  });

  it.each(ROUTES)(
    '%s: validators and cache rules on the 200; If-None-Match and If-Modified-Since answer 304',
    async (path, cls, modified, varies) => {
      const cc = CACHE_CONTROL[cls];
      const url = `${w.server.url}${path}`;
      const first = await send(url);
      expect(first.status, `${path}: ${first.text.slice(0, 200)}`).toBe(200);
      expect(first.text.length, path).toBeGreaterThan(0);
      const etag = first.headers.etag;
      expect(etag, path).toMatch(/^"g1\.[A-Za-z0-9_-]{27}"$/);
      expect(first.headers['cache-control'], path).toBe(cc);
      expect(first.headers['last-modified'], path).toBe(MODIFIED[modified]);
      expect(first.headers['x-api-status'], path).toBe('preview');
      if (varies || (rateLimited && path !== '/healthz')) expect(first.headers.vary, path).toBe(KEY_VARY);
      else expect(first.headers.vary, path).toBeUndefined();
      if (rateLimited && path !== '/healthz') expect(first.headers['ratelimit-limit'], path).toBeDefined();
      // Only a search answer, reused from the result cache, says how long it has been kept.
      expect(first.headers.age, path).toBe(cls === 'search' ? '0' : undefined);

      const conditionals: Record<string, string>[] = [
        { 'If-None-Match': etag! },
        { 'If-None-Match': `"g0.other", W/${etag}` },
        { 'If-None-Match': '*' },
        { 'If-Modified-Since': first.headers['last-modified']! },
      ];
      for (const headers of conditionals) {
        const r = await send(url, { headers });
        const what = `${path} ${JSON.stringify(headers)}`;
        expect(r.status, what).toBe(304);
        expect(r.text, what).toBe('');
        expect(r.headers.etag, what).toBe(etag);
        expect(r.headers['cache-control'], what).toBe(cc);
        expect(r.headers['last-modified'], what).toBe(first.headers['last-modified']);
        expect(r.headers.vary, what).toBe(first.headers.vary);
        expect(r.headers['content-type'], what).toBeUndefined();
        expect(r.headers['x-api-status'], what).toBe('preview');
      }

      // A HEAD carries the same validators; a conditional HEAD is a 304 too.
      const head = await send(url, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.etag, path).toBe(etag);
      expect((await send(url, { method: 'HEAD', headers: { 'If-None-Match': etag! } })).status, path).toBe(304);

      // Validators that do not match: the full answer again, byte for byte.
      const before = new Date(Date.parse(first.headers['last-modified']!) - 1000).toUTCString();
      const mismatched: Record<string, string>[] = [
        { 'If-None-Match': '"g0.stale"' },
        { 'If-Modified-Since': before },
        // If-None-Match decides when present, even beside a matching If-Modified-Since.
        { 'If-None-Match': '"g0.stale"', 'If-Modified-Since': first.headers['last-modified']! },
        // A date after the server's clock is ignored.
        { 'If-Modified-Since': new Date(Date.parse(ANSWERED) + 3_600_000).toUTCString() },
        { 'If-Modified-Since': 'not a date' },
      ];
      for (const headers of mismatched) {
        const r = await send(url, { headers });
        expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(200);
        expect(r.text).toBe(first.text);
        expect(r.headers.etag).toBe(etag);
      }
    },
  );

  it('a keyed read of a service is private, no-store, with its own ETag', async () => {
    const created = await send(`${w.server.url}/api/v1/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    const key = (JSON.parse(created.text) as { key: string }).key;
    const url = `${w.server.url}/api/v1/services/cand_a`;
    const anonymous = await send(url);
    const keyed = await send(url, { headers: { Authorization: `Bearer ${key}` } });
    expect(keyed.status).toBe(200);
    expect(keyed.text).toContain('referral_id');
    expect(keyed.headers['cache-control']).toBe(KEYED_CACHE_CONTROL);
    expect(keyed.headers.vary).toBe(KEY_VARY);
    expect(keyed.headers.etag).toMatch(/^"g1\.k/);
    expect(keyed.headers.etag).not.toBe(anonymous.headers.etag);
    expect((await send(url, { headers: { 'X-API-Key': key, 'If-None-Match': anonymous.headers.etag! } })).status).toBe(200);
  });

  it('/mcp, writes and errors are never stored and carry no validators', async () => {
    const mcp = await send(`${w.server.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cache-test', version: '0' } },
      }),
    });
    expect(mcp.status, mcp.text.slice(0, 200)).toBe(200);
    expect(mcp.text).toContain('serverInfo');
    const mcpGet = await send(`${w.server.url}/mcp`, { headers: { 'If-None-Match': '*' } });
    expect(mcpGet.status).toBe(405);
    const feedback = await send(`${w.server.url}/api/v1/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'other', note: 'cache test' }),
    });
    expect(feedback.status).toBe(201);
    const errors = [
      await send(`${w.server.url}/api/v1/services/cand_nope`),
      await send(`${w.server.url}/api/v1/services?limit=0`),
      await send(`${w.server.url}/no/such/path`, { headers: { 'If-None-Match': '*' } }),
    ];
    expect(errors.map((e) => e.status)).toEqual([404, 400, 404]);
    for (const r of [mcp, mcpGet, feedback, ...errors]) {
      expect(r.headers['cache-control']).toBe('no-store');
      expect(r.headers.etag).toBeUndefined();
      expect(r.headers['last-modified']).toBeUndefined();
    }
  });
});

describe('a search answer reused from the result cache (real socket, injected clock)', () => {
  it('carries Age, so max-age minus Age never lets it outlive the result: computed at t, served at t+200 s, 100 s left', async () => {
    const w = await world(false);
    try {
      const url = `${w.server.url}/api/v1/services?scope=index&sort=pass_rate`;
      const left = (a: Answer) => Number(/max-age=(\d+)/.exec(a.headers['cache-control'] ?? '')![1]) - Number(a.headers.age);
      const t = w.clock().getTime();
      const computed = await send(url);
      expect(computed.headers.age).toBe('0');
      expect(left(computed)).toBe(300);

      w.clock.set(new Date(t + 200_000));
      const reused = await send(url);
      expect(reused.text).toBe(computed.text); // the same result, not recomputed
      expect(reused.headers.etag).toBe(computed.headers.etag);
      expect(reused.headers['last-modified']).toBe(computed.headers['last-modified']);
      expect(reused.headers.age).toBe('200');
      expect(left(reused)).toBe(100);
      const revalidated = await send(url, { headers: { 'If-None-Match': computed.headers.etag! } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.age).toBe('200');
      expect(left(revalidated)).toBe(100);

      // A part second counts as a whole one: Age never understates.
      w.clock.set(new Date(t + 299_500));
      const last = await send(url);
      expect(last.text).toBe(computed.text);
      expect(last.headers.age).toBe('300');
      expect(left(last)).toBe(0);

      // Five minutes on, the result is computed again: a new instant, validators and Age.
      w.clock.set(new Date(t + 300_000));
      const again = await send(url);
      expect(again.headers.age).toBe('0');
      expect(again.headers['last-modified']).toBe(new Date(t + 300_000).toUTCString());
      expect(again.headers.etag).not.toBe(computed.headers.etag);
    } finally {
      await w.close();
    }
  });
});
