import { html as honoHtml } from 'hono/html';
import { describe, expect, it } from 'vitest';
import { html, join, link, raw } from '../../../site/pages/html.ts';

/**
 * site/pages/html.ts stays hand-written (a synchronous `Html` value the page functions compose),
 * but its escaping must match hono's `html` template, the library's well-kept equivalent, on
 * hostile registry text: the same five characters, the same entities.
 */
const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '&lt;b&gt; &amp;amp; &#60;',
  '<!-- --><![CDATA[x]]>',
  '\u202egnp.exe',
  `${'<b>'.repeat(10_000)}deep`,
];

describe('pages html escaping vs hono/html', () => {
  it('escapes interpolated text exactly like hono, in content and in quoted attributes', () => {
    for (const s of HOSTILE) {
      expect(html`<p title="${s}">${s}</p>`.value).toBe(String(honoHtml`<p title="${s}">${s}</p>`));
    }
  });

  it('never lets interpolated text become markup; only raw() and nested html do', () => {
    const out = html`<ul>${join(HOSTILE.map((s) => html`<li>${s}</li>`))}</ul>${raw('<svg></svg>')}`.value;
    expect(out).not.toMatch(/<(script|img|b)[\s>]/);
    expect(out).toContain('<svg></svg>');
    expect(link('javascript:alert(1)', '<x>').value).toBe('<span class="url">&lt;x&gt;</span>');
  });
});
