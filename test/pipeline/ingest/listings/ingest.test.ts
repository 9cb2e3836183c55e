import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_DATA } from '../../../../pipeline/core/paths.ts';
import { ingestListings, readListingDir } from '../../../../pipeline/ingest/index.ts';
import { parseListingText } from '../../../../pipeline/ingest/listings/read.ts';
import { listingRows } from '../../../../pipeline/ingest/listings/rows.ts';
import { openStore } from '../../../../pipeline/store/store.ts';
import { runCli } from '../../../helpers/cli.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../../helpers/context.ts';
import { dumpIngestTables } from '../support.ts';

const SHIPPED = join(PROJECT_DATA, 'listings');

/** A copy of the shipped listings in a temp folder, to edit freely. */
function copyListings(to: string): string {
  const dir = join(to, 'listings');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(SHIPPED)) copyFileSync(join(SHIPPED, f), join(dir, f));
  return dir;
}

const editJson = (file: string, fn: (doc: Record<string, unknown>) => void) => {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  fn(doc);
  writeFileSync(file, JSON.stringify(doc, null, 2));
};

describe('reviewed listings', () => {
  it('ships at least 20 active listings covering all three types, every statement sourced and dated', () => {
    const set = readListingDir(SHIPPED);
    expect(set.rejected).toEqual([]);
    const active = set.valid.filter((v) => v.listing.active);
    expect(active.length).toBeGreaterThanOrEqual(20);
    expect(new Set(active.map((v) => v.listing.type))).toEqual(new Set(['api_endpoint', 'mcp_server', 'task_marketplace']));
    for (const { listing } of set.valid) {
      const primary = listing.operations.filter((o) => o.primary);
      expect(primary).toHaveLength(1);
      const stated = [...Object.values(listing.sources), ...Object.values(listing.claims)];
      for (const c of stated) {
        expect(c!.source_url).toMatch(/^https:\/\//);
        expect(c!.checked_at).toMatch(/^2026-\d{2}-\d{2}$/);
      }
      // Inactive listings say why (unconfirmed or closed); they are never presented as reviewed fact.
      expect(listing.active).toBe(listing.inactive_because === undefined);
      if (!listing.active) continue;
      expect(listing.sources.operator).toBeDefined();
      expect(listing.sources.endpoint).toBeDefined();
      if (listing.type === 'api_endpoint') {
        expect(primary[0]!.expected_statuses).toContain(402);
        expect(listing.claims.networks?.source_url).toMatch(/^https:\/\//);
      }
      expect(listing.operations.some((o) => o.kind === 'documentation' && o.interval === 'daily')).toBe(true);
    }
  });

  it('refuses any interval other than the fixed schedule/1 one: calls hourly, documentation daily', () => {
    const base = JSON.parse(readFileSync(join(SHIPPED, 'github-mcp.json'), 'utf8')) as { operations: Array<Record<string, unknown>> };
    const primary = base.operations.find((o) => o.primary)!;
    const docs = base.operations.find((o) => o.kind === 'documentation')!;
    const withOps = (operations: unknown[]) => parseListingText('github-mcp.json', JSON.stringify({ ...base, operations }));
    const issues = (r: ReturnType<typeof withOps>) => ('issues' in r ? r.issues.map((i) => `${i.path}: ${i.message}`) : []);
    expect('listing' in withOps([primary, docs, { ...primary, id: 'export', primary: false }])).toBe(true);
    expect(issues(withOps([primary, docs, { ...primary, id: 'export', primary: false, interval: 'daily' }]))).toEqual([
      'operations.2.interval: every call of a reviewed service is checked hourly (schedule/1, fixed)',
    ]);
    expect(issues(withOps([{ ...primary, interval: 'daily' }, docs]))).toEqual([
      'operations.0.interval: every call of a reviewed service is checked hourly (schedule/1, fixed)',
    ]);
    expect(issues(withOps([primary, { ...docs, interval: 'hourly' }]))).toEqual([
      'operations.1.interval: documentation is checked daily (schedule/1, fixed)',
    ]);
  });

  it('rejects an active listing without sources, and an inactive_because listing that is still active', () => {
    const base = JSON.parse(readFileSync(join(SHIPPED, 'github-mcp.json'), 'utf8')) as Record<string, unknown>;
    const noSources = parseListingText('github-mcp.json', JSON.stringify({ ...base, sources: {} }));
    expect('issues' in noSources && noSources.issues.map((i) => i.path)).toEqual([
      'sources.operator',
      'sources.endpoint',
      'sources.documentation',
    ]);
    const stillActive = parseListingText(
      'github-mcp.json',
      JSON.stringify({ ...base, inactive_because: { reason: 'unconfirmed', note: 'no source', checked_at: '2026-11-26' } }),
    );
    expect('issues' in stillActive && stillActive.issues.map((i) => i.path)).toEqual(['active']);
    const undated = parseListingText(
      'github-mcp.json',
      JSON.stringify({ ...base, claims: { access: { value: 'OAuth', source_url: 'https://github.com/github/github-mcp-server' } } }),
    );
    expect('issues' in undated && undated.issues.map((i) => i.path)).toEqual(['claims.access.checked_at']);
    // Inactive and unconfirmed: no sources and no networks needed (nothing is stated as fact).
    const firecrawl = parseListingText(
      join(SHIPPED, 'firecrawl-x402-search.json'),
      readFileSync(join(SHIPPED, 'firecrawl-x402-search.json'), 'utf8'),
    );
    expect('listing' in firecrawl && firecrawl.listing.inactive_because?.reason).toBe('unconfirmed');
  });

  it('stores every sourced statement as a claim with its URL and check day, networks as CAIP-2', () => {
    const file = join(SHIPPED, 'coingecko-x402.json');
    const parsed = parseListingText(file, readFileSync(file, 'utf8'));
    if (!('listing' in parsed)) throw new Error('coingecko listing rejected');
    const { service } = listingRows(parsed.listing, file);
    expect(Object.keys(service.claims)).toEqual(['operator', 'endpoint', 'documentation', 'access', 'price_usd', 'networks']);
    expect(service.claims.operator).toMatchObject({ value: 'CoinGecko', checked_at: '2026-11-26' });
    expect(service.claims.endpoint!.value).toBe('GET https://pro-api.coingecko.com/api/v3/x402/simple/price?ids=bitcoin&vs_currencies=usd');
    expect(service.claims.documentation!.value).toEqual(['https://docs.coingecko.com/ai-integration/x402']);
    expect(service.claims.price_usd).toMatchObject({
      value: 0.01,
      source_url: 'https://docs.coingecko.com/docs/x402',
      checked_at: '2026-11-25',
    });
    expect(service.claims.networks!.value).toEqual(['eip155:8453', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp']);
    expect(service.operator_networks).toEqual(service.claims.networks!.value);
  });

  it('reports a bad file with its path and each zod path, and still loads the others', async () => {
    const t = tempDir();
    const store = await openTestStore(t.dir);
    try {
      const dir = copyListings(t.dir);
      editJson(join(dir, 'coingecko-x402.json'), (d) => {
        (d.operations as Record<string, unknown>[])[0]!.url = 'not a url';
        d.type = 'api';
      });
      writeFileSync(join(dir, 'broken.json'), '{ "id": "svc_broken", ');
      writeFileSync(join(dir, 'misnamed.json'), readFileSync(join(SHIPPED, 'mturk.json')));
      const r = await ingestListings(makeContext(t.dir), store, dir);
      const byFile = new Map(r.rejected.map((x) => [x.file, x.issues.map((i) => i.path)]));
      expect([...byFile.keys()].sort()).toEqual([join(dir, 'broken.json'), join(dir, 'coingecko-x402.json'), join(dir, 'misnamed.json')]);
      expect(byFile.get(join(dir, 'coingecko-x402.json'))).toEqual(expect.arrayContaining(['type', 'operations.0.url']));
      expect(byFile.get(join(dir, 'broken.json'))).toEqual(['(root)']);
      expect(byFile.get(join(dir, 'misnamed.json'))).toEqual(['id']);
      expect(r.counts.loaded).toBe(readdirSync(SHIPPED).length - 1);
      const ids = (await store.all<{ id: string }>("SELECT id FROM services WHERE tier = 'reviewed' ORDER BY id")).map((x) => x.id);
      expect(ids).toContain('svc_mturk');
      expect(ids).not.toContain('svc_coingecko-x402');
      const run = await store.all<{ status: string }>("SELECT status FROM runs WHERE kind = 'ingest_listings'");
      expect(run).toEqual([{ status: 'partial' }]);
    } finally {
      store.close();
      t.cleanup();
    }
  }, 60_000);

  it('the CLI loads the good files and exits 2 naming the bad file and zod path', async () => {
    const t = tempDir();
    try {
      const dir = join(t.dir, 'in');
      mkdirSync(dir);
      copyFileSync(join(SHIPPED, 'deepwiki-mcp.json'), join(dir, 'deepwiki-mcp.json'));
      const bad = JSON.parse(readFileSync(join(SHIPPED, 'github-mcp.json'), 'utf8')) as Record<string, unknown>;
      (bad.operations as Record<string, unknown>[])[0]!.expected_statuses = [];
      writeFileSync(join(dir, 'github-mcp.json'), JSON.stringify(bad));
      const r = await runCli(['--data', join(t.dir, 'data'), '--now', '2026-11-25T12:00:00Z', 'ingest', 'listings', '--dir', dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(join(dir, 'github-mcp.json'));
      expect(r.stderr).toContain('operations.0.expected_statuses');
      const store = await openStore(join(t.dir, 'data', 'atlas.duckdb'), { readOnly: true });
      try {
        expect(await store.all('SELECT id, active FROM services ORDER BY id')).toEqual([{ id: 'svc_deepwiki-mcp', active: true }]);
      } finally {
        store.close();
      }
    } finally {
      t.cleanup();
    }
  }, 120_000);

  it('is idempotent: a second run gives the same rows and ids', async () => {
    const t = tempDir();
    const store = await openTestStore(t.dir);
    try {
      const ctx = makeContext(t.dir);
      await ingestListings(ctx, store, SHIPPED);
      const first = await dumpIngestTables(store);
      const again = await ingestListings(ctx, store, SHIPPED);
      expect(again.counts.inserted).toBe(0);
      expect(again.counts.operations_inserted).toBe(0);
      expect(await dumpIngestTables(store)).toEqual(first);
      const svc = first.services!.find((s) => (s as { id: string }).id === 'svc_coingecko-x402') as Record<string, unknown>;
      expect(svc).toMatchObject({
        tier: 'reviewed',
        name_source: 'atlas',
        protocol: 'x402',
        active: true,
        listed: true,
        operator_price_usd: 0.01,
      });
      expect(svc.monitoring_since).toBe('2026-11-20 09:00:00');
      expect(first.interval_changes!.filter((c) => (c as { service_id: string }).service_id === 'svc_coingecko-x402')).toEqual([
        {
          service_id: 'svc_coingecko-x402',
          operation: 'docs',
          changed_at: '2026-11-20 09:00:00',
          from_hours: null,
          to_hours: 24,
          rule: 'schedule/1',
          reason: 'reviewed_fixed',
        },
        {
          service_id: 'svc_coingecko-x402',
          operation: 'primary',
          changed_at: '2026-11-20 09:00:00',
          from_hours: null,
          to_hours: 1,
          rule: 'schedule/1',
          reason: 'reviewed_fixed',
        },
      ]);
    } finally {
      store.close();
      t.cleanup();
    }
  }, 60_000);

  it('a listing that disappears or is set inactive becomes active=false (kept, operations disabled); a rejected file changes nothing', async () => {
    const t = tempDir();
    const store = await openTestStore(t.dir);
    try {
      const clock = testClock('2026-11-25T12:00:00Z');
      const ctx = makeContext(t.dir, { clock });
      const dir = copyListings(t.dir);
      await ingestListings(ctx, store, dir);
      rmSync(join(dir, 'olas-mech-marketplace.json'));
      editJson(join(dir, 'deepwiki-mcp.json'), (d) => (d.active = false));
      editJson(join(dir, 'github-mcp.json'), (d) => (d.name = ''));
      clock.advance(3_600_000);
      const r = await ingestListings(ctx, store, dir);
      expect(r.counts.deactivated).toBe(1);
      const rows = await store.all<{ id: string; active: boolean; enabled: boolean[] }>(
        `SELECT s.id, s.active, list(o.enabled ORDER BY o.id) AS enabled FROM services s JOIN operations o ON o.service_id = s.id
         WHERE s.id IN ('svc_olas-mech-marketplace', 'svc_deepwiki-mcp', 'svc_github-mcp', 'svc_mturk') GROUP BY ALL ORDER BY s.id`,
      );
      expect(rows).toEqual([
        { id: 'svc_deepwiki-mcp', active: false, enabled: [false, false] },
        { id: 'svc_github-mcp', active: true, enabled: [true, true] },
        { id: 'svc_mturk', active: false, enabled: [false, false] }, // shipped inactive (closed)
        { id: 'svc_olas-mech-marketplace', active: false, enabled: [false, false] },
      ]);
      // Reactivated when the file comes back.
      copyFileSync(join(SHIPPED, 'olas-mech-marketplace.json'), join(dir, 'olas-mech-marketplace.json'));
      await ingestListings(ctx, store, dir);
      expect(await store.all("SELECT active FROM services WHERE id = 'svc_olas-mech-marketplace'")).toEqual([{ active: true }]);
    } finally {
      store.close();
      t.cleanup();
    }
  }, 60_000);
});
