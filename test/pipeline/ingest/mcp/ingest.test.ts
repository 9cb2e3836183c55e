import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_DATA } from '../../../../pipeline/core/paths.ts';
import {
  fillRemoteUrl,
  httpJsonFetcher,
  ingestMcp,
  mcpCandidateId,
  normalizeMcpEntry,
  parseMcpEntry,
  sweepMcpDocument,
} from '../../../../pipeline/ingest/index.ts';
import { makeContext, testClock, withTestStore } from '../../../helpers/context.ts';
import { dumpIngestTables, mcpEntry, serveJson } from '../support.ts';

const SAMPLE = join(PROJECT_DATA, 'samples', 'mcp-registry.json');
const noRetry = httpJsonFetcher({ retries: 0, timeoutMs: 5000 });

/** A cursor-paged /v0.1/servers endpoint over `entries()`, 2 per page, honouring updated_since. */
function registry(entries: () => Record<string, unknown>[], legacyCursor = false) {
  return (u: URL) => {
    const since = u.searchParams.get('updated_since');
    const all = entries().filter((e) => {
      if (!since) return true;
      const m = (e._meta as Record<string, { updatedAt: string }>)['io.modelcontextprotocol.registry/official']!;
      return Date.parse(m.updatedAt) > Date.parse(since);
    });
    const start = Number(u.searchParams.get('cursor') ?? 0);
    const servers = all.slice(start, start + 2);
    const next = start + 2 < all.length ? String(start + 2) : undefined;
    return {
      body: {
        servers,
        metadata: { count: servers.length, ...(next ? (legacyCursor ? { next_cursor: next } : { nextCursor: next }) : {}) },
      },
    };
  };
}

describe('MCP registry ingest', () => {
  it('fills {variable} placeholders from default, value or first choice; otherwise the URL is templated', () => {
    expect(fillRemoteUrl('https://{tenant}.x.example/mcp', { tenant: { default: 'demo' } })).toEqual({
      url: 'https://demo.x.example/mcp',
      templated: false,
    });
    expect(fillRemoteUrl('https://{r}.x.example/{v}/sse', { r: { choices: ['eu', 'us'] }, v: { value: 'v2' } })).toEqual({
      url: 'https://eu.x.example/v2/sse',
      templated: false,
    });
    expect(fillRemoteUrl('https://x.example/{a}/{b}', { a: { default: 'one' }, b: { description: 'no default' } })).toEqual({
      url: 'https://x.example/{a}/{b}',
      templated: true,
    });
    expect(fillRemoteUrl('https://x.example/{a}', { a: { default: '../../admin?x=1' } })).toEqual({
      url: 'https://x.example/..%2F..%2Fadmin%3Fx%3D1',
      templated: false,
    });
    expect(fillRemoteUrl('https://x.example/mcp', null)).toEqual({ url: 'https://x.example/mcp', templated: false });
  });

  it('makes one service per (server name, remote URL) with the MCP facts; deleted → not listed', () => {
    const entry = parseMcpEntry({
      server: {
        name: 'io.github.a/b',
        title: 'B\u202E tools',
        description: 'd',
        remotes: [
          { type: 'streamable-http', url: 'https://b.example/mcp' },
          { type: 'sse', url: 'https://b.example/{path}', variables: { path: { default: 'sse' } } },
          { type: 'sse', url: 'javascript:alert(1)' },
        ],
      },
      _meta: { 'io.modelcontextprotocol.registry/official': { status: 'deleted', updatedAt: '2026-11-02T00:00:00Z' } },
    })!;
    const { records, skipped } = normalizeMcpEntry(entry, 's');
    expect(skipped).toEqual({ invalid_url: 1 });
    expect(records.map((r) => [r.id, r.url, r.remote_type, r.templated_url])).toEqual([
      [mcpCandidateId('io.github.a/b', 'https://b.example/mcp'), 'https://b.example/mcp', 'streamable-http', false],
      [mcpCandidateId('io.github.a/b', 'https://b.example/{path}'), 'https://b.example/sse', 'sse', false],
    ]);
    expect(records[0]).toMatchObject({
      type: 'mcp_server',
      protocol: 'mcp',
      pass_rule: 'mcp-reach/3',
      method: 'GET',
      name: 'B tools',
      mcp_status: 'deleted',
      mcp_server_name: 'io.github.a/b',
      listed: false,
      registry_updated_at: '2026-11-02T00:00:00.000Z',
    });
  });

  it('loads the sample snapshot (cursor paging, both cursor spellings); a second run gives the same rows and ids', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir);
      const a = await ingestMcp(ctx, store, { source: SAMPLE });
      expect(a.counts).toMatchObject({
        mode: 'full',
        complete: true,
        no_remotes: 3,
        templated: 0,
        deleted: 2,
        deprecated: 4,
        // deleted and deprecated servers never tracked get no row (and no probes)
        skipped_unknown_unlisted: 6,
      });
      // `https://mcp.byo.example/{account_id}/mcp` has no default for its variable.
      expect(a.counts.skipped).toMatchObject({ unfilled_placeholder: 1, withdrawn_untracked: 6, not_https: 0 });
      expect(a.counts.servers).toBeGreaterThanOrEqual(40);
      const first = await dumpIngestTables(store);
      const b = await ingestMcp(ctx, store, { source: SAMPLE });
      expect(b.counts).toMatchObject({ inserted: 0, updated: a.counts.inserted, delisted_missing: 0 });
      expect(await dumpIngestTables(store)).toEqual(first);
      const kinds = await store.all(
        "SELECT remote_type, count(*)::INT AS n FROM services WHERE protocol = 'mcp' GROUP BY ALL ORDER BY ALL",
      );
      expect(kinds.map((k) => (k as { remote_type: string }).remote_type)).toEqual(['sse', 'streamable-http']);
      // The older version listed next to the latest is not tracked.
      expect(await store.all("SELECT url FROM services WHERE mcp_server_name = 'dev.mcpworks/forecasts'")).toEqual([
        { url: 'https://forecasts.mcpworks.example/mcp' },
      ]);
      const hostile = await store.all<{ name: string }>("SELECT name FROM services WHERE host = 'hostile.prank.example'");
      expect(hostile[0]!.name.length).toBeLessThanOrEqual(120);
      expect(hostile[0]!.name).not.toMatch(/[\u0000-\u001F\u202A-\u202E\u2066-\u2069]/);
    });
  }, 30_000);

  it('syncs incrementally with updated_since after the first sync; deleted entries are delisted, absence is not', async () => {
    await withTestStore(async (store, dir) => {
      const clock = testClock('2026-11-10T00:00:00Z');
      const ctx = makeContext(dir, { clock });
      let entries = [
        mcpEntry('io.github.x/alpha', 'https://alpha.example/mcp', 'active', '2026-11-01T00:00:00Z'),
        mcpEntry('io.github.x/beta', 'https://beta.example/mcp', 'active', '2026-11-01T00:00:00Z'),
        mcpEntry('io.github.x/gamma', 'https://gamma.example/mcp', 'active', '2026-11-01T00:00:00Z'),
      ];
      const s = await serveJson(registry(() => entries, true));
      const src = `${s.url}/v0.1/servers`;
      const svc = (name: string) => mcpCandidateId(name, `https://${name.split('/')[1]}.example/mcp`);
      const state = async (name: string) =>
        (await store.all(`SELECT listed, mcp_status, unlisted_at, last_seen_at FROM services WHERE id = '${svc(name)}'`))[0];
      try {
        const full = await ingestMcp(ctx, store, { source: src, fetcher: noRetry, delayMs: 0 });
        expect(full.counts).toMatchObject({ mode: 'full', inserted: 3, pages: 2 });
        expect(
          s.requests.map((r) => [r.searchParams.get('version'), r.searchParams.get('cursor'), r.searchParams.get('updated_since')]),
        ).toEqual([
          ['latest', null, null],
          ['latest', '2', null],
        ]);

        // Later: beta is taken down, delta is new, gamma disappears from answers (unchanged).
        clock.set('2026-11-11T00:00:00Z');
        entries = [
          mcpEntry('io.github.x/alpha', 'https://alpha.example/mcp', 'active', '2026-11-01T00:00:00Z'),
          mcpEntry('io.github.x/beta', 'https://beta.example/mcp', 'deleted', '2026-11-10T12:00:00Z'),
          mcpEntry('io.github.x/delta', 'https://delta.example/mcp', 'active', '2026-11-10T13:00:00Z'),
        ];
        s.requests.length = 0;
        const inc = await ingestMcp(ctx, store, { source: src, fetcher: noRetry, delayMs: 0 });
        expect(inc.counts).toMatchObject({
          mode: 'incremental',
          updated_since: '2026-11-10T00:00:00.000Z',
          inserted: 1,
          delisted_status: 1,
          delisted_missing: 0,
        });
        expect(s.requests[0]!.searchParams.get('updated_since')).toBe('2026-11-10T00:00:00.000Z');
        expect(await state('io.github.x/beta')).toEqual({
          listed: false,
          mcp_status: 'deleted',
          unlisted_at: '2026-11-11 00:00:00',
          last_seen_at: '2026-11-10 00:00:00',
        });
        expect(await state('io.github.x/gamma')).toMatchObject({ listed: true });
        expect(await state('io.github.x/alpha')).toMatchObject({ listed: true, last_seen_at: '2026-11-10 00:00:00' }); // not in the incremental answer

        // beta comes back; a full sync then delists what is absent (gamma).
        clock.set('2026-11-12T00:00:00Z');
        entries = [
          mcpEntry('io.github.x/alpha', 'https://alpha.example/mcp', 'active', '2026-11-01T00:00:00Z'),
          mcpEntry('io.github.x/beta', 'https://beta.example/mcp', 'active', '2026-11-11T12:00:00Z'),
          mcpEntry('io.github.x/delta', 'https://delta.example/mcp', 'active', '2026-11-10T13:00:00Z'),
        ];
        const back = await ingestMcp(ctx, store, { source: src, fetcher: noRetry, delayMs: 0, full: true });
        expect(back.counts).toMatchObject({ mode: 'full', relisted: 1, delisted_missing: 1 });
        expect(await state('io.github.x/gamma')).toMatchObject({ listed: false, unlisted_at: '2026-11-12 00:00:00' });
        expect(
          await store.all(
            `SELECT event_at, listed, reason FROM listing_events WHERE service_id = '${svc('io.github.x/beta')}' ORDER BY event_at`,
          ),
        ).toEqual([
          { event_at: '2026-11-10 00:00:00', listed: true, reason: 'first_seen' },
          { event_at: '2026-11-11 00:00:00', listed: false, reason: 'deleted_status' },
          { event_at: '2026-11-12 00:00:00', listed: true, reason: 'status_active' },
        ]);
        expect(await store.all('SELECT source, last_sync_at, last_complete_at FROM sync_state')).toEqual([
          { source: 'mcp:official', last_sync_at: '2026-11-12 00:00:00', last_complete_at: '2026-11-12 00:00:00' },
        ]);
      } finally {
        await s.close();
      }
    });
  }, 60_000);

  it('a tracked server that turns deprecated leaves the directory (unlisted, history kept) and comes back when active', async () => {
    await withTestStore(async (store, dir) => {
      const clock = testClock('2026-11-10T00:00:00Z');
      const ctx = makeContext(dir, { clock });
      let entries = [mcpEntry('io.github.x/old', 'https://old.example/mcp', 'active', '2026-11-01T00:00:00Z')];
      const s = await serveJson(registry(() => entries));
      const src = `${s.url}/v0.1/servers`;
      const id = mcpCandidateId('io.github.x/old', 'https://old.example/mcp');
      try {
        await ingestMcp(ctx, store, { source: src, fetcher: noRetry, delayMs: 0 });
        clock.set('2026-11-11T00:00:00Z');
        entries = [mcpEntry('io.github.x/old', 'https://old.example/mcp', 'deprecated', '2026-11-10T12:00:00Z')];
        const dep = await ingestMcp(ctx, store, { source: src, fetcher: noRetry, delayMs: 0 });
        expect(dep.counts).toMatchObject({ delisted_status: 1, deprecated: 1, inserted: 0 });
        expect(await store.all(`SELECT listed, mcp_status, unlisted_at FROM services WHERE id = '${id}'`)).toEqual([
          { listed: false, mcp_status: 'deprecated', unlisted_at: '2026-11-11 00:00:00' },
        ]);
        expect(await store.all(`SELECT since, listed FROM service_activity WHERE service_id = '${id}' ORDER BY since`)).toEqual([
          { since: '2026-11-10 00:00:00', listed: true },
          { since: '2026-11-11 00:00:00', listed: false },
        ]);
        clock.set('2026-11-12T00:00:00Z');
        entries = [mcpEntry('io.github.x/old', 'https://old.example/mcp', 'active', '2026-11-11T12:00:00Z')];
        await ingestMcp(ctx, store, { source: src, fetcher: noRetry, delayMs: 0 });
        expect(await store.all(`SELECT event_at, listed, reason FROM listing_events WHERE service_id = '${id}' ORDER BY event_at`)).toEqual(
          [
            { event_at: '2026-11-10 00:00:00', listed: true, reason: 'first_seen' },
            { event_at: '2026-11-11 00:00:00', listed: false, reason: 'deprecated_status' },
            { event_at: '2026-11-12 00:00:00', listed: true, reason: 'status_active' },
          ],
        );
      } finally {
        await s.close();
      }
    });
  }, 30_000);

  it('reads the latest version only: an entry flagged not latest is set aside even when it is the only one', () => {
    const meta = (isLatest: boolean, publishedAt: string) => ({
      'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt, isLatest },
    });
    const s = sweepMcpDocument(
      [
        {
          server: { name: 'io.a/only-old', remotes: [{ type: 'sse', url: 'https://o.example/sse' }] },
          _meta: meta(false, '2026-10-01T00:00:00Z'),
        },
        {
          server: { name: 'io.a/two', remotes: [{ type: 'sse', url: 'https://t.example/v2' }] },
          _meta: meta(true, '2026-01-01T00:00:00Z'),
        },
        {
          server: { name: 'io.a/two', remotes: [{ type: 'sse', url: 'https://t.example/v1' }] },
          _meta: meta(false, '2026-09-01T00:00:00Z'),
        },
      ],
      'dump',
    );
    expect(s.entries.map((e) => e.server.remotes)).toEqual([[{ type: 'sse', url: 'https://t.example/v2' }]]);
    expect(s.older_version).toBe(2);
  });

  it('skips plain-http remotes (except hosts of the resolve map) and placeholders left unfilled', () => {
    const entry = parseMcpEntry({
      server: {
        name: 'io.github.a/c',
        remotes: [
          { type: 'streamable-http', url: 'http://plain.example/mcp' },
          { type: 'streamable-http', url: 'https://{host}/mcp', variables: { host: { description: 'your host' } } },
          { type: 'sse', url: 'https://c.example/%7Bregion%7D/sse' },
          { type: 'sse', url: 'http://c.fleet.test:4000/sse' },
          { type: 'streamable-http', url: 'https://c.example/mcp' },
        ],
      },
    })!;
    const plain = normalizeMcpEntry(entry, 's');
    expect(plain.skipped).toEqual({ not_https: 2, unfilled_placeholder: 2 });
    expect(plain.records.map((r) => r.url)).toEqual(['https://c.example/mcp']);
    const fleet = normalizeMcpEntry(entry, 's', { plainHttpHost: (h) => h.endsWith('.fleet.test') });
    expect(fleet.skipped).toEqual({ not_https: 1, unfilled_placeholder: 2 });
    expect(fleet.noted).toEqual({ http_url: 1 });
  });

  it('a malformed page leaves the database unchanged', async () => {
    await withTestStore(async (store, dir) => {
      const ctx = makeContext(dir);
      const entries = [
        mcpEntry('a/one', 'https://one.example/mcp'),
        mcpEntry('a/two', 'https://two.example/mcp'),
        mcpEntry('a/three', 'https://three.example/mcp'),
        mcpEntry('a/four', 'https://four.example/mcp'),
      ];
      let broken = false;
      const good = registry(() => entries);
      const s = await serveJson((u) => (broken && u.searchParams.get('cursor') ? { body: { servers: { not: 'a list' } } } : good(u)));
      try {
        await ingestMcp(ctx, store, { source: `${s.url}/v0.1/servers`, fetcher: noRetry, delayMs: 0 });
        const before = await dumpIngestTables(store);
        broken = true;
        entries.pop();
        await expect(
          ingestMcp(ctx, store, { source: `${s.url}/v0.1/servers`, fetcher: noRetry, delayMs: 0, full: true }),
        ).rejects.toMatchObject({
          code: 'source_failed',
          message: expect.stringMatching(/page 2 \(cursor 2\): not a \/v0.1\/servers page \(servers: /),
        });
        expect(await dumpIngestTables(store)).toEqual(before);
      } finally {
        await s.close();
      }
    });
  });
});
