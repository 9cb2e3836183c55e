import { afterEach, describe, expect, it } from 'vitest';
import { mountDiscovery } from '../../../serve/discovery/index.ts';
import { mountPages } from '../../../serve/pages/index.ts';
import { ErrorBody } from '../../../site/contract/error.ts';
import { BADGE_COLOR, buildServerJson, renderLlmsTxt } from '../../../site/discovery/index.ts';
import { runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';
import { harness, type Harness } from '../harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const BASE = 'https://atlas.example';
const withBase = { config: (c: { serve: { baseUrl?: string } }) => (c.serve.baseUrl = `${BASE}/`) };

describe('GET /llms.txt and /server.json', () => {
  it('answer the documents for the configured base URL, with ETag and Cache-Control', async () => {
    h = await harness({ mounts: [mountDiscovery], ...withBase });
    const llms = await h.req('/llms.txt');
    expect(llms.status).toBe(200);
    expect(llms.headers.get('content-type')).toMatch(/^text\/plain; charset=utf-8/);
    expect(await llms.text()).toBe(renderLlmsTxt(BASE));
    expect(llms.headers.get('cache-control')).toBe('public, max-age=300');
    expect(llms.headers.get('etag')).toMatch(/^"[^"]+"$/); // strong (no W/), from the one caching middleware

    const sj = await h.json('/server.json');
    expect(sj.status).toBe(200);
    expect(sj.body).toEqual(buildServerJson({ baseUrl: BASE, registryName: h.config.serve.registryName }));
    expect(sj.body.remotes[0].url).toBe(`${BASE}/mcp`);
  });

  it('use the default base URL when none is configured', async () => {
    h = await harness({ mounts: [mountDiscovery] });
    expect(await (await h.req('/llms.txt')).text()).toContain('http://127.0.0.1:8787/api/v1/services?q=weather');
  });
});

describe('GET /badges/{id}.svg', () => {
  it('is an SVG stating the 30-day figures, cacheable, 304 on a matching If-None-Match', async () => {
    h = await harness({ mounts: [mountDiscovery], services: [{ id: 'cand_a', checks30d: 200, passed30d: 197 }] });
    const res = await h.req('/badges/cand_a.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const svg = await res.text();
    expect(svg).toContain('197/200 passed (98.5%) · 30d');
    expect(svg).toContain('role="img"');
    expect(svg).toMatch(/<title>[^<]*200 ran, 197 passed \(98\.5%\), 0 missed; latest check fresh<\/title>/);
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();

    const again = await h.req('/badges/cand_a.svg', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    expect((await h.req('/badges/cand_a.svg', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
  });

  it('is evaluated at the answer instant: the latest check is stale once it is old', async () => {
    h = await harness({ mounts: [mountDiscovery], services: [{ id: 'cand_a', lastCheckAgoHours: 40, intervalHours: 24 }] });
    const before = await h.req('/badges/cand_a.svg');
    const svgBefore = await before.text();
    expect(svgBefore).toContain('latest check fresh</title>');
    h.clock.advance(9 * 3_600_000); // 49 h after a daily check: older than two intervals
    const after = await h.req('/badges/cand_a.svg');
    const svgAfter = await after.text();
    expect(svgAfter).toContain('latest check stale</title>');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });

  it('has one neutral colour for services in and out of the directory, passing and failing; the text states figures', async () => {
    h = await harness({
      mounts: [mountDiscovery],
      services: [
        { id: 'cand_in', checks30d: 200, passed30d: 197 },
        { id: 'cand_out', checks30d: 200, passed30d: 197, criteriaExceptFresh: false },
        { id: 'cand_failing', checks30d: 200, passed30d: 0, latestPassed: false, criteriaExceptFresh: false },
        { id: 'svc_stale', checks30d: 40, passed30d: 40, lastCheckAgoHours: 100 },
      ],
    });
    const inDirectory = async (id: string) => (await h.json(`/api/v1/services/${id}`)).body.in_directory;
    expect([await inDirectory('cand_in'), await inDirectory('cand_out'), await inDirectory('cand_failing')]).toEqual([true, false, false]);
    const svgs = new Map<string, string>();
    for (const id of ['cand_in', 'cand_out', 'cand_failing', 'svc_stale']) svgs.set(id, await (await h.req(`/badges/${id}.svg`)).text());
    const fills = (svg: string) => [...svg.matchAll(/fill="([^"]+)"/g)].map((m) => m[1]);
    for (const svg of svgs.values()) expect(fills(svg)).toEqual(fills(svgs.get('cand_in')!));
    expect(fills(svgs.get('cand_in')!)).toContain(BADGE_COLOR);
    expect(svgs.get('cand_in')).toContain('197/200 passed (98.5%) · 30d');
    expect(svgs.get('cand_out')).toContain('197/200 passed (98.5%) · 30d');
    expect(svgs.get('cand_failing')).toContain('0/200 passed (0%) · 30d');
    expect(svgs.get('svc_stale')).toContain('40/40 passed (100%) · 30d');
    // Same figures, same badge: membership changes nothing on it.
    expect(svgs.get('cand_out')!.replaceAll('cand_out', 'cand_in')).toBe(svgs.get('cand_in'));
    for (const svg of svgs.values()) expect(svg).not.toMatch(/directory/i);
  });

  it.each(['cand_unknown.svg', 'cand_a', 'cand_a.png', 'foo.svg', '..%2Fmanifest.svg', `cand_${'x'.repeat(300)}.svg`, '.svg'])(
    '/badges/%s → 404 with the error shape',
    async (file) => {
      h = await harness({ mounts: [mountDiscovery], services: [{ id: 'cand_a' }] });
      const r = await h.json(`/badges/${file}`);
      expect(r.status).toBe(404);
      expect(ErrorBody.parse(r.body).error).toBe('not_found');
    },
  );
});

describe('service page badge embed', () => {
  it('shows the badge from its own origin and the Markdown and HTML snippets with absolute URLs', async () => {
    h = await harness({ mounts: [mountPages, mountDiscovery], services: [{ id: 'cand_a' }], ...withBase });
    const res = await h.req('/services/cand_a');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<img class="atlas-badge" src="/badges/cand_a.svg"');
    expect(page).toContain(`[![Atlas evidence](${BASE}/badges/cand_a.svg)](${BASE}/services/cand_a)`);
    expect(page).toContain(`&lt;img src=&quot;${BASE}/badges/cand_a.svg&quot;`);
  });
});

describe('atlas serve --print-server-json', () => {
  it('prints the server.json of the configured base URL and exits 0 without serving', async () => {
    const { dir, cleanup } = tempDir('atlas-sj-');
    try {
      const r = await runCli(['--data', dir, 'serve', '--print-server-json'], { env: { ATLAS_BASE_URL: 'https://atlas.example/' } });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(buildServerJson({ baseUrl: BASE, registryName: 'io.github.atlas-directory/atlas' }));
    } finally {
      cleanup();
    }
  }, 60_000);
});
