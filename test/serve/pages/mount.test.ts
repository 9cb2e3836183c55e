import { buildOpenApi } from '../../../site/contract/openapi.ts';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../../pipeline/core/clock.ts';
import { defaultConfig } from '../../../pipeline/core/config.ts';
import { silentLogger } from '../../../pipeline/core/log.ts';
import { closeDeps, createApp, createDeps, type AppDeps } from '../../../serve/index.ts';
import { mountPages } from '../../../serve/pages/index.ts';
import type { IndexRecord, ServiceDetail } from '../../../site/contract/index.ts';
import { tempDir } from '../../helpers/context.ts';
import { discoveredDetail, NOW, report, reviewedDetail, stats, status, summaryOf } from '../../site/pages/fixtures.ts';
import { writeIndexFiles } from '../../helpers/index-files.ts';

// mountPages against the real server (createApp + createDeps) over a hand-written generation.
const t = tempDir('atlas-pages-serve-');
let deps: AppDeps;
let app: ReturnType<typeof createApp>;

function writeJson(path: string, body: unknown) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(body));
}

function record(d: ServiceDetail): IndexRecord {
  return {
    summary: summaryOf(d),
    in_directory: d.in_directory,
    search: {
      haystack: `${d.name} ${d.host} ${d.url} ${d.operator ?? ''}`.toLowerCase(),
      payers_30d: d.registry_usage?.payers_30d ?? null,
      listed: d.tier === 'discovered' ? true : null,
      latest_passed: d.evidence.last_check?.passed ?? null,
      last_check_at: d.evidence.last_check?.checked_at ?? null,
      check_interval_hours: d.evidence.check_interval_hours,
      terms_changes_90d: d.payment_terms?.changes_90d ?? null,
      criteria_except_fresh: d.in_directory,
    },
  };
}

beforeAll(async () => {
  const gen = join(t.dir, 'public', 'generations', 'g1');
  const details = [discoveredDetail(), reviewedDetail()];
  writeIndexFiles(gen, details.map(record));
  for (const d of details) writeJson(join(gen, 'api', 'v1', 'services', `${d.id}.json`), d);
  writeJson(join(gen, 'api', 'v1', 'status.json'), status());
  writeJson(join(gen, 'api', 'v1', 'stats.json'), stats());
  writeJson(join(gen, 'api', 'v1', 'reports', 'index.json'), {
    api_status: 'preview',
    generated_at: NOW.toISOString(),
    items: [{ id: '2026-11-16' }],
    current: null,
  });
  writeJson(join(gen, 'api', 'v1', 'reports', '2026-11-16.json'), report('2026-11-16', 1));
  writeJson(join(gen, 'manifest.json'), {
    generation: 'g1',
    generated_at: NOW.toISOString(),
    rule: 'listing-criteria/1',
    api_version: '0.1.0-preview',
    counts: { services: 2, in_directory: 1, details: 2, reports: 1, changes: 0 },
    pages: true,
  });
  symlinkSync(join('generations', 'g1'), join(t.dir, 'public', 'current'));
  deps = await createDeps({
    clock: fixedClock(NOW),
    config: defaultConfig(),
    secret: 'test-secret-0123456789abcdef',
    log: silentLogger,
    siteDir: join(t.dir, 'public'),
    inboxDir: join(t.dir, 'inbox'),
    replicaId: 'test',
    mounts: [mountPages],
    openapi: buildOpenApi,
  });
  app = createApp(deps);
});

afterAll(async () => {
  try {
    if (deps) await closeDeps(deps);
  } finally {
    t.cleanup();
  }
});

describe('mountPages', () => {
  it('renders the directory server-side from searchServices (default scope: directory)', async () => {
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const body = await res.text();
    expect(body).toContain('<strong>1</strong> service in the directory');
    expect(body).toContain('href="/services/cand_0123456789abcdef0123"');
    expect(body).not.toContain('This is a static copy');
  });

  it('filters with the form parameters and ignores parameters the form does not have', async () => {
    const body = await (await app.request('/?scope=index&type=mcp_server&utm_source=x')).text();
    expect(body).toContain('<strong>1</strong> service tracked');
    expect(body).toContain('href="/services/svc_example-mcp"');
    expect(body).not.toContain('href="/services/cand_');
  });

  it('filters with the evidence selects: declared terms differ, listed but not failing (in process and over a socket)', async () => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    try {
      await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
      const { port } = server.address() as AddressInfo;
      const viaSocket = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).text();
      for (const get of [async (path: string) => (await app.request(path)).text(), viaSocket]) {
        for (const q of ['terms_mismatch=true', 'listed_but_failing=false']) {
          const body = await get(`/?scope=index&${q}`);
          expect(body).toContain('<strong>1</strong> service tracked');
          expect(body).toContain('href="/services/cand_0123456789abcdef0123"');
          expect(body).not.toContain('href="/services/svc_example-mcp"');
        }
        expect(await get('/?scope=index&passing_but_unlisted=true')).toContain('<strong>0</strong> services tracked');
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers a bad parameter with 400 and the form, naming the problem', async () => {
    const res = await app.request('/?min_pass_rate=7');
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(body).toContain('role="alert"');
    expect(body).toContain('min_pass_rate');
    expect(body).toContain('<form class="search"');
  });

  it('serves a service page with its charts, and 404 pages for unknown or malformed ids', async () => {
    const res = await app.request('/services/svc_example-mcp');
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('id="chart-history"');
    expect(body).toContain('Why it is not in the directory');
    expect((await app.request('/services/svc_nope')).status).toBe(404);
    const bad = await app.request('/services/%3Cscript%3E');
    expect(bad.status).toBe(404);
    expect(await bad.text()).not.toContain('<script>');
  });

  it('serves status, reports and the assets', async () => {
    // Live: freshness is counted over the served index at the server's clock (both services were
    // checked within two intervals of NOW), not copied from the published status.json (10 / 2 / 1).
    expect(await (await app.request('/status')).text()).toContain('2 fresh · 0 stale · 0 no data (of 2 services)');
    expect(await (await app.request('/reports')).text()).toContain('Corrections (1)');
    const css = await app.request('/assets/atlas.css');
    expect(css.headers.get('content-type')).toContain('text/css');
    const js = await app.request('/assets/atlas.js');
    expect(js.headers.get('content-type')).toContain('javascript');
  });
});
