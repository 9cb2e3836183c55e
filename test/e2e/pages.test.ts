import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../pipeline/core/log.ts';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { startDemo, type DemoHandle } from '../../cli/demo/run-demo.ts';
import { tempDir } from '../helpers/context.ts';
import { launchChromium } from './browser.ts';

/**
 * The browser test: a small demo world (real fleet, real probes, simulated history) served on a
 * free port, driven by headless Chromium — search, filter, open a service page, see its charts,
 * follow a link. Screenshots of the directory and one service page go to test/e2e/screenshots/.
 */
const SHOTS = join(PROJECT_ROOT, 'test', 'e2e', 'screenshots');

let demo: DemoHandle;
let browser: Browser;
let page: Page;
const tmp = tempDir('atlas-e2e-');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  demo = await startDemo({
    dataDir: tmp.dir,
    // Two weeks of history at a coarse step keep the charts full and the start under a minute.
    days: 14,
    port: 0,
    host: '127.0.0.1',
    size: 80,
    seed: 7,
    probeTimeoutMs: 1500,
    probeConcurrency: 64,
    coarseHours: 12,
    recentHours: 12,
    log: silentLogger,
    liveEveryMs: false,
  });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  page = await context.newPage();
});

afterAll(async () => {
  try {
    await browser?.close();
  } finally {
    try {
      await demo?.stop();
    } finally {
      tmp.cleanup();
    }
  }
});

describe('the demo world', () => {
  it('tracks every fleet behaviour and stores the verdict the fleet expects for discovered services', async () => {
    const items: Array<{
      tier: string;
      url: string;
      evidence: { last_check: { checked_at: string; passed: boolean; reason: string } | null };
    }> = [];
    for (let offset = 0; ; offset += 100) {
      const res = await fetch(`${demo.url}/api/v1/services?scope=index&limit=100&offset=${offset}`);
      const body = (await res.json()) as { total: number; items: typeof items };
      items.push(...body.items);
      if (offset + 100 >= body.total) break;
    }
    const byUrl = new Map(items.filter((i) => i.tier === 'discovered').map((i) => [i.url, i]));
    const seen = new Set<string>();
    let compared = 0;
    const mismatches: string[] = [];
    for (const ep of demo.fleet.endpoints) {
      const s = byUrl.get(ep.url);
      if (!s?.evidence.last_check) continue;
      seen.add(ep.behaviour);
      compared++;
      const want = ep.expectedAt(new Date(s.evidence.last_check.checked_at));
      if (want.passed !== s.evidence.last_check.passed || want.reason !== s.evidence.last_check.reason) {
        mismatches.push(`${ep.name} (${ep.behaviour}): expected ${want.reason}, stored ${s.evidence.last_check.reason}`);
      }
    }
    // Endpoints the registries list under another URL (filled templates) are matched by behaviour elsewhere.
    expect(compared).toBeGreaterThan(demo.fleet.endpoints.length * 0.8);
    expect(seen.size).toBeGreaterThan(new Set(demo.fleet.endpoints.map((e) => e.behaviour)).size * 0.8);
    // A loaded machine can turn a fast answer into a timeout now and then; anything else is a bug.
    const real = mismatches.filter((m) => !m.endsWith('stored timeout'));
    expect(real).toEqual([]);
    expect(mismatches.length).toBeLessThanOrEqual(Math.ceil(compared * 0.05));
  });
});

describe('web pages in Chromium', () => {
  it('shows the directory with results and a working search form', async () => {
    const res = await page.goto(`${demo.url}/`);
    expect(res?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Directory · Atlas');
    const rows = page.locator('table.results tbody tr');
    expect(await rows.count()).toBeGreaterThan(0);
    await expect(page.locator('#result-count').textContent()).resolves.toMatch(/\d+ services? in the directory/);
    await page.screenshot({ path: join(SHOTS, 'directory.png') });
  });

  it('searches by text with the plain GET form', async () => {
    await page.goto(`${demo.url}/`);
    await page.fill('#f-q', 'fleet');
    await Promise.all([page.waitForURL(/q=fleet/), page.click('form.search button[type=submit]')]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('fleet');
    await expect(page.inputValue('#f-q')).resolves.toBe('fleet');
    const names = await page.locator('table.results tbody tr td:first-child').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    for (const n of names) expect(n.toLowerCase()).toContain('fleet');
  });

  it('filters by type (the select submits itself) and by scope', async () => {
    await page.goto(`${demo.url}/`);
    await Promise.all([page.waitForURL(/type=mcp_server/), page.selectOption('#f-type', 'mcp_server')]);
    // Empty fields are left out of the URL by the script.
    expect(page.url()).not.toContain('network=');
    const types = await page.locator('table.results tbody tr td:nth-child(2)').allTextContents();
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['MCP server']));
    const dirCount = Number((await page.locator('#result-count strong').textContent()) ?? '0');
    await Promise.all([page.waitForURL(/scope=index/), page.check('input[name=scope][value=index]')]);
    const indexCount = Number((await page.locator('#result-count strong').textContent()) ?? '0');
    expect(indexCount).toBeGreaterThanOrEqual(dirCount);
    await expect(page.locator('#result-count').textContent()).resolves.toContain('tracked');
  });

  it('works without JavaScript: the form is a plain GET and the server renders the results', async () => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    try {
      const p = await ctx.newPage();
      await p.goto(`${demo.url}/`);
      await p.selectOption('#f-tier', 'reviewed');
      await Promise.all([p.waitForURL(/tier=reviewed/), p.click('form.search button[type=submit]')]);
      const tiers = await p.locator('table.results tbody tr .badge.tier-reviewed').count();
      const rows = await p.locator('table.results tbody tr').count();
      expect(rows).toBeGreaterThan(0);
      expect(tiers).toBe(rows);
    } finally {
      await ctx.close();
    }
  });

  it('opens a service page with both charts and follows a link back', async () => {
    await page.goto(`${demo.url}/?tier=reviewed&scope=index`);
    const first = page.locator('table.results tbody tr td:first-child a').first();
    const href = await first.getAttribute('href');
    expect(href).toMatch(/^\/services\/svc_/);
    await Promise.all([page.waitForURL(`**${href}`), first.click()]);
    await expect(page.locator('h1').textContent()).resolves.toBeTruthy();
    const history = page.locator('#chart-history svg');
    await expect(history.count()).resolves.toBe(1);
    expect(await page.locator('#chart-history svg rect.pass').count()).toBeGreaterThan(0);
    await expect(page.locator('#chart-latency svg circle').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('#h-criteria').textContent()).resolves.toMatch(/Why it is (not )?in the directory/);
    // The top of the page: identity, evidence and both charts.
    await page.screenshot({ path: join(SHOTS, 'service.png'), fullPage: true, clip: { x: 0, y: 0, width: 1100, height: 1150 } });
    // The badge: the img has loaded (non-zero natural size) and is an SVG with a <title>.
    const badge = page.locator('img.atlas-badge');
    await badge.scrollIntoViewIfNeeded();
    await expect(badge.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true);
    const badgeSrc = (await badge.getAttribute('src'))!;
    const svg = await page.request.get(`${demo.url}${badgeSrc}`);
    expect(svg.status()).toBe(200);
    expect(svg.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toMatch(/^<svg [^>]*role="img"[^>]*><title>Atlas checks of svc_/);
    await expect(page.locator('#badge-h + p + p + dl code').first().textContent()).resolves.toContain(
      `/badges/${href!.split('/').pop()}.svg`,
    );
    // Follow the link to the JSON of this service, then the breadcrumb back.
    const api = await page.locator('a', { hasText: 'JSON for this service' }).getAttribute('href');
    const json = await page.request.get(`${demo.url}${api}`);
    expect(json.status()).toBe(200);
    expect((await json.json()).id).toBe(href!.split('/').pop());
    await Promise.all([page.waitForURL(`${demo.url}/`), page.click('nav[aria-label=Breadcrumb] a')]);
    await expect(page.title()).resolves.toBe('Directory · Atlas');
  });

  it('marks registry names as third-party text on discovered services', async () => {
    await page.goto(`${demo.url}/?tier=discovered&scope=index`);
    expect(await page.locator('table.results tbody tr bdi.third-party').count()).toBeGreaterThan(0);
  });

  it('shows the status and reports pages', async () => {
    await page.goto(`${demo.url}/`);
    await Promise.all([page.waitForURL(/\/status$/), page.click('nav[aria-label=Main] a[href="/status"]')]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Status');
    expect(await page.locator('table tbody tr').count()).toBeGreaterThan(0);
    await Promise.all([page.waitForURL(/\/reports$/), page.click('nav[aria-label=Main] a[href="/reports"]')]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Weekly reports');
  });
});
