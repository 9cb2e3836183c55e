import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  McpOfficialMetaSchema,
  McpPageSchema,
  McpRemoteSchema,
  McpServerSchema,
  OFFICIAL_META,
} from '../../../pipeline/ingest/mcp/schema.ts';
import { X402AcceptSchema, X402ItemSchema, X402PageSchema } from '../../../pipeline/ingest/x402/schema.ts';
import { normalizeTags, sanitizeText, TEXT_LIMITS } from '../../../pipeline/core/sanitize.ts';
import { startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { testClock } from '../../helpers/context.ts';

/** Registries in their real formats, fetched with plain fetch at 127.0.0.1 (no resolver). */
const clock = testClock('2026-11-25T12:00:00Z');
let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet({ clock });
});
afterAll(async () => {
  await fleet?.close();
});

interface X402Page {
  x402Version: number;
  items: Array<Record<string, any>>;
  pagination: { limit: number; offset: number; total: number };
}
interface McpPage {
  servers: Array<{ server: Record<string, any>; _meta: Record<string, any> }>;
  metadata: { nextCursor?: string; count: number };
}

async function x402(params: string): Promise<X402Page> {
  const r = await fetch(`${fleet.x402RegistryUrl}?${params}`);
  expect(r.status).toBe(200);
  return (await r.json()) as X402Page;
}
async function mcp(params: string): Promise<McpPage> {
  const r = await fetch(`${fleet.mcpRegistryUrl}?${params}`);
  expect(r.status).toBe(200);
  return (await r.json()) as McpPage;
}

/** The careful client of docs/reference.md (Bazaar): step by the echoed limit, stop on empty page or total, dedupe. */
async function walkX402(limit: number): Promise<Map<string, Record<string, any>>> {
  const seen = new Map<string, Record<string, any>>();
  for (let offset = 0, guard = 0; guard < 1000; guard++) {
    const p = await x402(`type=http&limit=${limit}&offset=${offset}`);
    for (const it of p.items) seen.set(it.resource, it);
    if (p.items.length === 0 || offset + p.pagination.limit >= p.pagination.total) break;
    offset += p.pagination.limit;
  }
  return seen;
}

describe('x402 discovery registry', () => {
  const x402Listed = () => fleet.endpoints.filter((e) => e.protocol === 'x402' && e.listed);

  it('pages through every listed x402 endpoint with the real item shape', async () => {
    const first = await x402('type=http&limit=10&offset=0');
    expect(first.x402Version).toBe(2);
    expect(first.pagination).toEqual({ limit: 10, offset: 0, total: x402Listed().length });
    const all = await walkX402(10);
    expect([...all.keys()].sort()).toEqual(
      x402Listed()
        .map((e) => e.url)
        .sort(),
    );
    for (const it of all.values()) {
      expect(it.type).toBe('http');
      expect(Array.isArray(it.accepts) && it.accepts.length).toBeTruthy();
      expect(['string', 'number']).toContain(typeof it.lastUpdated);
      expect(it.extensions.bazaar.info.input.method).toMatch(/^(GET|POST)$/);
      expect(typeof it.quality.l30DaysUniquePayers).toBe('number');
    }
    const radar = all.get(fleet.endpoint('weather-radar').url)!;
    expect(radar.extensions.bazaar.info.input.method).toBe('POST');
    const v1 = all.get(fleet.endpoint('market-quote').url)!;
    expect(v1.x402Version).toBe(1);
    expect(v1.accepts[0].maxAmountRequired).toMatch(/^\d+$/);
    const mis = all.get(fleet.endpoint('x402-mislabelled').url)!;
    expect(mis.x402Version).toBe(2);
    expect(mis.accepts[0].network).toBe('base');
    expect(all.get(fleet.endpoint('weather-forecast').url)!.accepts[0].amount).toMatch(/^\d+$/);
    const payers = [...all.values()].map((i) => i.quality.l30DaysUniquePayers as number);
    expect(payers.some((p) => p >= 100)).toBe(true);
    expect(payers.some((p) => p >= 5 && p < 100)).toBe(true);
    expect(payers.some((p) => p < 5)).toBe(true);
    expect([...all.values()].some((i) => typeof i.lastUpdated === 'number')).toBe(true);
  });

  it('type=http filters out the one type=mcp item', async () => {
    const everything = await x402('limit=1000');
    expect(everything.items.filter((i) => i.type === 'mcp').length).toBe(1);
    expect((await x402('type=http&limit=1000')).items.every((i) => i.type === 'http')).toBe(true);
  });

  it('paging quirks: capped limit, a short page mid-run, repeated rows past the end', async () => {
    fleet.setRegistryQuirks({ maxLimit: 7, shortPageAt: 14, repeatPastEnd: true });
    try {
      const p = await x402('type=http&limit=50&offset=0');
      expect(p.pagination.limit).toBe(7);
      expect(p.items.length).toBe(7);
      expect((await x402('type=http&limit=7&offset=14')).items.length).toBe(4);
      const past = await x402(`type=http&limit=7&offset=${p.pagination.total + 7}`);
      expect(past.items.length).toBeGreaterThan(0);
      // A careful client still ends with every URL exactly once.
      expect((await walkX402(50)).size).toBe(x402Listed().length - 3);
    } finally {
      fleet.setRegistryQuirks({ maxLimit: 1000, shortPageAt: null, repeatPastEnd: false });
    }
  });

  it('junkRows quirk: two messy rows mid-listing that a careful ingest skips', async () => {
    fleet.setRegistryQuirks({ junkRows: true });
    try {
      const p = await x402('type=http&limit=1000');
      expect(p.pagination.total).toBe(x402Listed().length + 2);
      expect(p.items.filter((i) => i.resource === undefined).length).toBe(1);
      expect(p.items.filter((i) => i.resource === 'not a url' && i.accepts === null).length).toBe(1);
    } finally {
      fleet.setRegistryQuirks({ junkRows: false });
    }
  });

  it('carries hostile text (controls, bidi, markup, over-long) that the core sanitizer neutralises', async () => {
    const p = await x402('type=http&limit=1000');
    const geo = p.items.find((i) => i.resource === fleet.endpoint('geo').url)!;
    expect(geo.description).toMatch(/\u202E/);
    expect(geo.description.length).toBeGreaterThan(2000);
    const clean = sanitizeText(geo.description, TEXT_LIMITS.description)!;
    expect(clean).not.toMatch(/[\u0000-\u001F\u202A-\u202E]/);
    expect(clean.length).toBeLessThanOrEqual(TEXT_LIMITS.description);
    expect(normalizeTags(geo.tags)).toEqual(['geo-location', 'geo', 'maps', 'ok-tag']);
  });

  it('setListed(false) drops a resource; relisting brings it back', async () => {
    const url = fleet.endpoint('ocr').url;
    fleet.setListed('ocr', false);
    expect(fleet.endpoint('ocr').listed).toBe(false);
    expect((await walkX402(100)).has(url)).toBe(false);
    fleet.setListed('ocr', true);
    expect((await walkX402(100)).has(url)).toBe(true);
  });
});

describe('MCP registry', () => {
  async function walkMcp(params: string): Promise<McpPage['servers']> {
    const out: McpPage['servers'] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100; guard++) {
      const p = await mcp(`limit=4&${params}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(p.metadata.count).toBe(p.servers.length);
      out.push(...p.servers);
      cursor = p.metadata.nextCursor;
      if (!cursor) break;
    }
    return out;
  }
  const meta = (s: McpPage['servers'][number]) => s._meta['io.modelcontextprotocol.registry/official'];
  const isLifecycle = (s: McpPage['servers'][number]) => s.server.name.startsWith('io.fleet/lifecycle-');

  it('pages with cursors; version=latest hides older versions; deleted only with updated_since', async () => {
    const served = await walkMcp('version=latest');
    const latest = served.filter((s) => !isLifecycle(s));
    const names = latest.map((s) => s.server.name);
    expect(new Set(names).size).toBe(names.length);
    expect(latest.every((s) => meta(s).isLatest === true && meta(s).status === 'active')).toBe(true);
    expect(names).not.toContain('io.fleet/retired-mcp');
    const allVersions = await walkMcp('');
    expect(allVersions.length).toBe(served.length + 1);
    const withDeleted = await walkMcp('version=latest&updated_since=2020-01-01T00:00:00Z');
    const retired = withDeleted.find((s) => s.server.name === 'io.fleet/retired-mcp')!;
    expect(meta(retired).status).toBe('deleted');
    for (const s of withDeleted) {
      expect(Object.keys(meta(s)).sort()).toEqual(['isLatest', 'publishedAt', 'status', 'statusChangedAt', 'updatedAt']);
      expect(typeof s.server.description).toBe('string');
      if (!isLifecycle(s)) expect(s.server.version).toBe('1.0.0');
    }
  });

  it('serves the lifecycle examples: deprecated, deleted (with updated_since), an old version first, a {host} remote, a plain-http remote', async () => {
    const plain = (await walkMcp('version=latest')).filter(isLifecycle);
    const row = (s: McpPage['servers'][number]) =>
      `${s.server.name}@${s.server.version} ${meta(s).status} latest=${meta(s).isLatest} ${s.server.remotes[0].url.replace(/:\d+/, ':P')}`;
    expect(plain.map(row)).toEqual([
      'io.fleet/lifecycle-deprecated@1.0.0 deprecated latest=true http://lifecycle-deprecated.fleet.test:P/sse',
      'io.fleet/lifecycle-host-placeholder@1.0.0 active latest=true https://{host}/mcp',
      'io.fleet/lifecycle-plain-http@1.0.0 active latest=true http://plain-http-mcp.example.org/mcp',
      'io.fleet/lifecycle-versions@1.0.0 active latest=false http://lifecycle-versions.fleet.test:P/v1/sse',
      'io.fleet/lifecycle-versions@2.0.0 deprecated latest=true http://lifecycle-versions.fleet.test:P/v2/sse',
    ]);
    const withDeleted = (await walkMcp('include_deleted=true')).filter(isLifecycle);
    expect(withDeleted.map((s) => `${s.server.name} ${meta(s).status}`)).toContain('io.fleet/lifecycle-deleted deleted');
  });

  it('remotes: sse and streamable-http on one server, variables with and without a default', async () => {
    const servers = await walkMcp('version=latest');
    const tools = servers.find((s) => s.server.name === 'io.fleet/tools')!;
    expect(tools.server.remotes.map((r: { type: string }) => r.type).sort()).toEqual(['sse', 'streamable-http']);
    const tenant = servers.find((s) => s.server.name === 'io.fleet/mcp-template')!.server.remotes[0];
    expect(tenant.url).toMatch(/\/\{tenant\}\/mcp$/);
    expect(tenant.variables.tenant.default).toBe('acme');
    expect(fleet.endpoint('mcp-template').url).toBe(tenant.url.replace('{tenant}', 'acme'));
    const region = servers.find((s) => s.server.name === 'io.fleet/mcp-template-unfilled')!.server.remotes[0];
    expect(region.url).toMatch(/\/\{region\}\/mcp$/);
    expect(region.variables.region.default).toBeUndefined();
  });

  it('updated_since returns only entries changed since then; delisting makes an entry deleted', async () => {
    const since = clock().toISOString();
    expect((await walkMcp(`version=latest&updated_since=${since}`)).length).toBe(0);
    clock.advance(60_000);
    fleet.setListed('github-mcp', false);
    const changed = await walkMcp(`version=latest&updated_since=${since}`);
    expect(changed.map((s) => s.server.name)).toEqual(['io.fleet/github-mcp']);
    expect(meta(changed[0]!).status).toBe('deleted');
    expect(meta(changed[0]!).statusChangedAt).toBe(clock().toISOString());
    fleet.setListed('github-mcp', true);
    const back = await walkMcp(`version=latest&updated_since=${since}`);
    expect(meta(back[0]!).status).toBe('active');
  });
});

describe('registry pages satisfy the ingest schemas (pipeline/ingest/*/schema.ts)', () => {
  it('x402 pages, items and accepts', async () => {
    const page = X402PageSchema.parse(await x402('limit=1000'));
    for (const item of page.items) {
      const it = X402ItemSchema.parse(item);
      for (const a of it.accepts ?? []) X402AcceptSchema.parse(a);
    }
  });

  it('MCP pages, servers, remotes and official meta', async () => {
    const page = McpPageSchema.parse(await mcp('limit=100&updated_since=2020-01-01T00:00:00Z'));
    expect(page.servers.length).toBeGreaterThan(10);
    for (const entry of page.servers) {
      const server = McpServerSchema.parse(entry.server);
      for (const r of server.remotes ?? []) McpRemoteSchema.parse(r);
      McpOfficialMetaSchema.parse((entry._meta as Record<string, unknown>)[OFFICIAL_META]);
    }
  });
});
