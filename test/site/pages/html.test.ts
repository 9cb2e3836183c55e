import { describe, expect, it } from 'vitest';
import { esc, html, link, raw, safeHref, thirdParty } from '../../../site/pages/html.ts';

describe('html', () => {
  it('escapes every interpolated string', () => {
    const out = html`<p title="${'"><x>'}">${'<script>&'}</p>`.value;
    expect(out).toBe('<p title="&quot;&gt;&lt;x&gt;">&lt;script&gt;&amp;</p>');
  });
  it('keeps Html values and joins arrays; drops null, undefined and false', () => {
    expect(html`<ul>${['a', 'b'].map((x) => html`<li>${x}</li>`)}</ul>`.value).toBe('<ul><li>a</li><li>b</li></ul>');
    expect(html`${null}${undefined}${false}${0}`.value).toBe('0');
    expect(html`${raw('<b>ok</b>')}`.value).toBe('<b>ok</b>');
  });
  it('esc covers both quote kinds', () => {
    expect(esc(`'"`)).toBe('&#39;&quot;');
  });
  it('refuses non-http links and renders them as text', () => {
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,x')).toBeNull();
    expect(safeHref('//evil.example/')).toBeNull();
    expect(safeHref('/services/svc_a')).toBe('/services/svc_a');
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(link('javascript:alert(1)').value).toBe('<span class="url">javascript:alert(1)</span>');
    expect(link('https://example.com/').value).toContain('rel="noopener noreferrer nofollow"');
  });
  it('marks third-party text and isolates it', () => {
    const out = thirdParty('<i>hi</i>').value;
    expect(out).toMatch(/^<bdi class="third-party" title="[^"]+">&lt;i&gt;hi&lt;\/i&gt;<\/bdi>$/);
    expect(thirdParty(null).value).toBe('');
  });
});
