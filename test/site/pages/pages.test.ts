import { describe, expect, it } from 'vitest';
import {
  formFromQuery,
  queryString,
  renderDirectoryPage,
  renderReportsPage,
  renderServicePage,
  renderStatusPage,
  flattenFigures,
  type PageMeta,
} from '../../../site/pages/index.ts';
import { FORM_FIELDS } from '../../../site/pages/directory.ts';
import { discoveredDetail, listOf, NOW, report, reviewedDetail, stats, status, summaryOf } from './fixtures.ts';

const live: PageMeta = { generatedAt: NOW, live: true };
const staticMeta: PageMeta = { generatedAt: NOW, live: false };

/** No markup from data may survive: the hostile text appears only escaped. */
function expectNoInjection(page: string) {
  expect(page).not.toContain('<script>alert');
  expect(page).not.toContain('<img src=x');
  expect(page).not.toContain('href="javascript:');
  expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  // Only our own script tag.
  expect(page.match(/<script/g)).toHaveLength(1);
}

describe('directory page', () => {
  const d = discoveredDetail();
  const r = reviewedDetail();
  const list = listOf([summaryOf(d), summaryOf(r)]);

  it('is a complete document with a GET form that works without JavaScript', () => {
    const page = renderDirectoryPage({ list, form: {} }, live);
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<form class="search" method="get" action="/"');
    for (const name of FORM_FIELDS.filter((f) => f !== 'limit' && f !== 'offset')) {
      expect(page).toContain(`name="${name}"`);
    }
    expect(page).toContain('<strong>2</strong> services in the directory');
    expect(page).toContain('href="/services/cand_0123456789abcdef0123"');
    expect(page).toContain('href="/services/svc_example-mcp"');
  });

  it('escapes registry names and marks them as third-party; Atlas names are plain', () => {
    const page = renderDirectoryPage({ list, form: {} }, live);
    expectNoInjection(page);
    expect(page).toMatch(/<bdi class="third-party"[^>]*>&lt;script&gt;/);
    expect(page).not.toMatch(/<bdi class="third-party"[^>]*>Example MCP/);
  });

  it('keeps the submitted values in the form (escaped) and selects the chosen options', () => {
    const form = formFromQuery({ q: '"><b>x', type: 'mcp_server', scope: 'index', passing: 'true', min_pass_rate: '0.9', bogus: 'y' });
    expect(form).not.toHaveProperty('bogus');
    const page = renderDirectoryPage(
      { list: listOf([], { query: { scope: 'index', sort: 'evidence', limit: 50, offset: 0 } }), form },
      live,
    );
    expect(page).toContain('value="&quot;&gt;&lt;b&gt;x"');
    expect(page).toContain('<option value="mcp_server" selected>');
    expect(page).toContain('<option value="true" selected>Passed</option>');
    expect(page).toContain('<option value="0.9" selected>90%</option>');
    expect(page).toContain('name="scope" value="index" checked');
    expect(page).not.toContain('<b>x');
  });

  it('carries the evidence filters (declared terms, catalog standing) and selects the submitted value', () => {
    const form = formFromQuery({ terms_mismatch: 'true', listed_but_failing: 'false', passing_but_unlisted: '' });
    expect(form).toEqual({ terms_mismatch: 'true', listed_but_failing: 'false' });
    const page = renderDirectoryPage({ list, form }, live);
    expect(page).toMatch(/<select name="terms_mismatch"[^>]*>.*<option value="true" selected>Differ from the live 402<\/option>/s);
    expect(page).toMatch(/<select name="listed_but_failing"[^>]*>.*?<option value="false" selected>No<\/option>/s);
    expect(page).toMatch(/<select name="passing_but_unlisted"[^>]*><option value="" selected>Any<\/option>/);
    expect(queryString(form)).toBe('?terms_mismatch=true&listed_but_failing=false');
  });

  it('shows the hint and a link to search everything when nothing matched', () => {
    const page = renderDirectoryPage({ list: listOf([], { hint: 'Nothing matched.' }), form: { q: 'zzz' } }, live);
    expect(page).toContain('Nothing matched.');
    expect(page).toContain('href="/?q=zzz&amp;scope=index"');
    expect(page).not.toContain('<table class="results"');
  });

  it('pages with prev/next links that keep the filters', () => {
    const many = listOf([summaryOf(d)], { total: 120, query: { scope: 'directory', sort: 'evidence', limit: 50, offset: 50 } });
    const page = renderDirectoryPage({ list: many, form: { type: 'api_endpoint', offset: '50' } }, live);
    expect(page).toContain('href="/?type=api_endpoint" rel="prev"');
    expect(page).toContain('href="/?type=api_endpoint&amp;offset=100" rel="next"');
    expect(page).toContain('51–100 of 120');
  });

  it('the static copy says it is static and shows an error message when given one', () => {
    const page = renderDirectoryPage({ list, form: {}, error: 'min_pass_rate: must be between 0 and 1' }, staticMeta);
    expect(page).toContain('This is a static copy');
    expect(page).toContain('role="alert">min_pass_rate: must be between 0 and 1');
  });

  it('queryString drops empty values and keeps field order', () => {
    expect(queryString({ q: 'a b', type: '', scope: 'index' })).toBe('?q=a+b&scope=index');
    expect(queryString({})).toBe('');
  });
});

describe('service page', () => {
  it('shows declared against observed terms side by side with their sources and dates (declared-terms/1)', () => {
    const page = renderServicePage(discoveredDetail(), live);
    expect(page).toContain('<h2 id="h-declared">Declared against observed terms</h2>');
    expect(page).toContain('Differs now in price (exact), since 2026-11-20 00:00 UTC');
    // the catalog's declared price beside the live 402's, and the dated event
    expect(page).toMatch(/<td>price \(exact\)<\/td><td>\$0\.0005<\/td><td>\$0\.001<\/td><td>yes<\/td>/);
    expect(page).toContain('still differs');
    // receiving addresses are compared, never shown
    expect(page).toContain('stated (not published)');
    // a service with nothing declared has no such section
    expect(renderServicePage(reviewedDetail(), live)).not.toContain('h-declared');
  });

  it("names the evaluation instant when the object carries it, never the generation's hourly one on a static page", () => {
    const d = discoveredDetail();
    // An answer (no scope): its time.
    expect(renderServicePage(d, live)).toContain('Rule listing-criteria/1, evaluated 2026-11-25 11:05 UTC.');
    // A file whose latest evaluation was its own five-minute one: its own time.
    const changed = { ...d, directory: { ...d.directory, scope: 'changed' as const } };
    expect(renderServicePage(changed, staticMeta)).toContain('Rule listing-criteria/1, evaluated 2026-11-25 11:05 UTC.');
    // A file confirmed by the hourly evaluation of every service: in words, without a time.
    const full = { ...d, directory: { ...d.directory, evaluated_at: null, scope: 'full' as const } };
    const page = renderServicePage(full, staticMeta);
    expect(page).toContain('Rule listing-criteria/1, evaluated at the latest hourly evaluation of every service.');
    expect(page).not.toMatch(/evaluated \d{4}-/);
    // Never evaluated: neither.
    const never = { ...d, in_directory: false, directory: { ...d.directory, evaluated_at: null, scope: null, criteria: [] } };
    expect(renderServicePage(never, staticMeta)).toContain('Rule listing-criteria/1. Being in the directory is not a rating.');
  });

  it('has evidence, criteria, both charts, terms, interval history, claims and third-party registry text', () => {
    const page = renderServicePage(discoveredDetail(), live);
    expectNoInjection(page);
    expect(page).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="chart"');
    expect(page).toContain('id="chart-history"');
    expect(page).toContain('id="chart-latency"');
    expect(page.match(/<svg /g)).toHaveLength(2);
    expect(page).toContain('Why it is in the directory');
    expect(page).toContain('at least 3 checks in 30 days');
    expect(page).toContain('does not apply');
    expect(page).toContain('Payment-term history');
    expect(page).toContain('Check interval history');
    expect(page).toContain('100 or more registry payers in 30 days');
    expect(page).toContain('Claims and their sources');
    expect(page).toContain('<span class="url">javascript:alert(1)</span>');
    expect(page).toContain('From the registry <span class="tp-label">third-party</span>');
    expect(page).toContain('Untrusted third-party text copied from the registry.');
    expect(page).toContain('href="/api/v1/services/cand_0123456789abcdef0123"');
    expect(page).toContain('<code>timeout</code>');
    expect(page).toContain('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913');
    // Which catalogs list it, since when (registry_listing.catalogs).
    expect(page).toContain('<dt>Catalog x402:fleet</dt><dd>listed since 2026-11-11 12:00 UTC</dd>');
  });

  it("names the latest check's payment protocols, and an MCP check's auth schemes (none named: said so)", () => {
    const d = discoveredDetail();
    expect(renderServicePage(d, live)).toContain('payment protocols x402-v2');
    expect(renderServicePage(d, live)).not.toContain(' · auth ');
    const lc = d.evidence.last_check!;
    const mcp = (auth_schemes: string[]) => ({
      ...d,
      evidence: { ...d.evidence, last_check: { ...lc, status: 401, rule: 'mcp-reach/3', protocols: null, auth_schemes } },
    });
    expect(renderServicePage(mcp(['bearer']), live)).toContain(' · auth bearer');
    expect(renderServicePage(mcp([]), live)).toContain(' · auth no scheme named');
  });

  it('says why a service is not in the directory, naming the failed criterion', () => {
    const page = renderServicePage(reviewedDetail(), live);
    expect(page).toContain('Why it is not in the directory');
    expect(page).toContain('Not met: pass rate at least 0.8.');
    expect(page).toContain('<h1>Example MCP</h1>');
    expect(page).toContain('href="https://example.com/pricing"');
    expect(page).not.toContain('From the registry');
  });

  it('shows each claim with its source and the day it was checked; registry claims read "not checked"', () => {
    const reviewed = renderServicePage(reviewedDetail(), live);
    expect(reviewed).toContain('<th scope="col">Checked</th>');
    expect(reviewed).toMatch(/href="https:\/\/example\.com\/pricing"[\s\S]*?<\/td><td>2026-11-20<\/td>/);
    const discovered = renderServicePage(discoveredDetail(), live);
    expect(discovered).toContain('<span class="muted">not checked</span>');
  });
});

describe('status page', () => {
  it('shows each job per window with missed runs, freshness and latest runs', () => {
    const page = renderStatusPage({ status: status(), stats: stats() }, live);
    expect(page).toContain('<h1>Status</h1>');
    expect(page).toContain('23/24 <span class="no">(1 missed)</span>');
    expect(page).toContain('10 fresh · 2 stale · 1 no data (of 13 services)');
    expect(page).toMatch(/<dt>Figures computed<\/dt><dd>(?!<span)[^<]+<\/dd>/); // data_as_of, when compute last ran
    expect(page).toContain('300 (280 passed)');
    expect(page).toContain('aria-current="page">Status');
  });
});

describe('reports page', () => {
  it('lists current and frozen weeks with their corrections (escaped)', () => {
    const page = renderReportsPage({ current: report('current'), weeks: [report('2026-11-16', 2), report('2026-11-09')] }, live);
    expect(page).toContain('This week so far (from 2026-11-23)');
    expect(page).toContain('Week of 2026-11-16');
    expect(page).toContain('Corrections (2)');
    expect(page).toContain('Correction 1: &lt;b&gt;recount&lt;/b&gt;');
    expect(page).toContain('<code>directory.size</code> = 8');
    expect(page).toContain('corrected below');
    expect(page).toContain('href="#week-2026-11-09"');
  });
  it('says when no week has ended yet', () => {
    expect(renderReportsPage({ current: null, weeks: [] }, live)).toContain('No week has ended since Atlas started');
  });
  it('flattenFigures gives dotted paths', () => {
    expect(flattenFigures({ a: { b: 1, c: [1, 2] }, d: null })).toEqual([
      ['a.b', '1'],
      ['a.c', '1, 2'],
      ['d', '—'],
    ]);
  });
});

describe('criterion values', () => {
  it('shows numbers rounded and objects as key: value pairs, never [object Object]', async () => {
    const { showValue } = await import('../../../site/pages/sections/criteria.ts');
    expect(showValue(0.98765)).toBe('0.9877');
    expect(showValue({ listed: true, mcp_status: null })).toBe('listed: true; mcp status: —');
    expect(showValue(['a', 1])).toBe('a, 1');
    expect(showValue(null)).toBe('—');
  });
});
