import { describe, expect, it } from 'vitest';
import { BADGE_COLOR, badgeMessage, badgeSnippets, escapeXml, formatPassRate, renderBadge } from '../../../site/discovery/index.ts';

const input = (o: Partial<Parameters<typeof renderBadge>[0]> = {}) => ({
  id: 'cand_a',
  checks30d: 200,
  passed30d: 197,
  missed30d: 3,
  passRate: 0.985 as number | null,
  freshness: 'fresh' as const,
  ...o,
});

/** Every fill of an SVG, in order. */
const fills = (svg: string) => [...svg.matchAll(/fill="([^"]+)"/g)].map((m) => m[1]);

describe('badge', () => {
  it('states the 30-day figures: checks, passes, pass rate', () => {
    expect(badgeMessage(input())).toBe('197/200 passed (98.5%) · 30d');
    expect(formatPassRate(1)).toBe('100%');
    expect(formatPassRate(0)).toBe('0%');
    expect(formatPassRate(0.12345)).toBe('12.3%');
    expect(badgeMessage(input({ checks30d: 0, passed30d: 0, passRate: null, freshness: 'no_data' }))).toBe('no checks · 30d');
  });

  it('is an accessible SVG: role img, aria-label and <title> state the figures, no verdict', () => {
    const svg = renderBadge(input());
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('role="img"');
    const title = 'Atlas checks of cand_a in the last 30 days: 200 ran, 197 passed (98.5%), 3 missed; latest check fresh';
    expect(svg).toContain(`<title>${title}</title>`);
    expect(svg).toContain(`aria-label="${title}"`);
    expect(svg).not.toMatch(/directory|pass(es|ing)? the|fail(s|ing)\b|good|bad|healthy/i);
  });

  it('has one neutral colour whatever the figures and freshness', () => {
    const states = [
      input(),
      input({ checks30d: 200, passed30d: 0, passRate: 0 }),
      input({ freshness: 'stale' }),
      input({ checks30d: 0, passed30d: 0, missed30d: 0, passRate: null, freshness: 'no_data' }),
    ];
    const all = states.map((b) => fills(renderBadge(b)));
    for (const f of all) expect(f).toEqual(all[0]);
    expect(all[0]).toContain(BADGE_COLOR);
  });

  it('grows with its text', () => {
    const width = (svg: string) => Number(/width="(\d+)"/.exec(svg)?.[1]);
    expect(width(renderBadge(input({ passRate: 1 })))).toBeLessThan(
      width(renderBadge(input({ checks30d: 12345, passed30d: 12000, passRate: 12000 / 12345 }))),
    );
  });

  it('escapes every text', () => {
    expect(escapeXml(`<a href="x">&'`)).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;');
    const svg = renderBadge(input({ id: 'cand_<script>&"' }));
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('cand_&#60;script&#62;&#38;&#34;');
  });

  it('gives absolute Markdown and HTML snippets', () => {
    const s = badgeSnippets({ baseUrl: 'https://atlas.example/', id: 'cand_a' });
    expect(s.markdown).toBe('[![Atlas evidence](https://atlas.example/badges/cand_a.svg)](https://atlas.example/services/cand_a)');
    expect(s.html).toBe(
      '<a href="https://atlas.example/services/cand_a"><img src="https://atlas.example/badges/cand_a.svg" alt="Atlas evidence for cand_a"></a>',
    );
  });
});
