import { describe, expect, it } from 'vitest';
import { BADGE_COLORS, badgeMessage, badgeSnippets, escapeXml, formatPassRate, renderBadge } from '../../../site/discovery/index.ts';

const input = (o: Partial<Parameters<typeof renderBadge>[0]> = {}) => ({
  id: 'cand_a',
  passRate: 0.985 as number | null,
  freshness: 'fresh' as const,
  inDirectory: true,
  ...o,
});

describe('badge', () => {
  it('says the 30-day pass rate and freshness', () => {
    expect(badgeMessage(input())).toBe('98.5% · fresh');
    expect(formatPassRate(1)).toBe('100%');
    expect(formatPassRate(0)).toBe('0%');
    expect(formatPassRate(0.12345)).toBe('12.3%');
    expect(badgeMessage(input({ passRate: null, freshness: 'no_data' }))).toBe('no checks · no data');
  });

  it('is an accessible SVG: role img, aria-label and <title> say the state, membership included', () => {
    const svg = renderBadge(input());
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('role="img"');
    expect(svg).toMatch(/aria-label="[^"]*in the directory"/);
    expect(svg).toContain('<title>Atlas evidence for cand_a: 30-day pass rate 98.5%, evidence fresh, in the directory</title>');
    expect(renderBadge(input({ inDirectory: false }))).toContain('not in the directory</title>');
  });

  it('is coloured by state', () => {
    expect(renderBadge(input())).toContain(`fill="${BADGE_COLORS.in}"`);
    expect(renderBadge(input({ inDirectory: false, freshness: 'stale' }))).toContain(`fill="${BADGE_COLORS.stale}"`);
    expect(renderBadge(input({ inDirectory: false, freshness: 'no_data', passRate: null }))).toContain(`fill="${BADGE_COLORS.no_data}"`);
    expect(renderBadge(input({ inDirectory: false, passRate: 0.5 }))).toContain(`fill="${BADGE_COLORS.out}"`);
  });

  it('grows with its text', () => {
    const width = (svg: string) => Number(/width="(\d+)"/.exec(svg)?.[1]);
    expect(width(renderBadge(input({ passRate: 1 })))).toBeLessThan(width(renderBadge(input({ passRate: null, freshness: 'no_data' }))));
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
