import type { Freshness } from '../contract/index.ts';

/**
 * A service's badge: a small shields-style SVG, label "atlas", message "<30-day pass rate> · <freshness>"
 * (e.g. "98.5% · fresh"). Pure: the caller supplies figures already evaluated at the answer instant.
 *
 * Colour follows the state, and the words always say it too (colour is never the only signal):
 * green in the directory; amber stale; grey no data; red fresh but not in the directory (it fails a
 * listing criterion, usually the pass rate). Whether it is in the directory is in the <title> and
 * aria-label. Every text is XML-escaped; the width comes from a fixed per-character approximation.
 */
export interface BadgeInput {
  /** Service id (in the title only). */
  id: string;
  /** Share of checks passed in the 30-day window; null without checks. */
  passRate: number | null;
  freshness: Freshness;
  inDirectory: boolean;
}

export const BADGE_COLORS = { in: '#2e7d32', stale: '#9a5b00', no_data: '#616161', out: '#c62828' } as const;

const LABEL = 'atlas';
const LABEL_COLOR = '#555';
/** Average advance of an 11px Verdana glyph, in px (fixed-width approximation), and side padding. */
const CHAR_PX = 7;
const PAD_PX = 6;

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** "98.5%", "100%", "0%": one decimal, none when whole. */
export function formatPassRate(rate: number | null): string {
  if (rate === null) return 'no checks';
  const pct = Math.round(rate * 1000) / 10;
  return `${pct}%`;
}

const FRESHNESS_WORD: Record<Freshness, string> = { fresh: 'fresh', stale: 'stale', no_data: 'no data' };

export function badgeMessage(b: Pick<BadgeInput, 'passRate' | 'freshness'>): string {
  return `${formatPassRate(b.passRate)} · ${FRESHNESS_WORD[b.freshness]}`;
}

export function badgeColor(b: Pick<BadgeInput, 'freshness' | 'inDirectory'>): string {
  if (b.inDirectory) return BADGE_COLORS.in;
  if (b.freshness === 'stale') return BADGE_COLORS.stale;
  if (b.freshness === 'no_data') return BADGE_COLORS.no_data;
  return BADGE_COLORS.out;
}

export function badgeTitle(b: BadgeInput): string {
  return `Atlas evidence for ${b.id}: 30-day pass rate ${formatPassRate(b.passRate)}, evidence ${FRESHNESS_WORD[b.freshness]}, ${b.inDirectory ? 'in the directory' : 'not in the directory'}`;
}

const textWidth = (s: string) => [...s].length * CHAR_PX + 2 * PAD_PX;

export function renderBadge(b: BadgeInput): string {
  const message = badgeMessage(b);
  const title = escapeXml(badgeTitle(b));
  const lw = textWidth(LABEL);
  const mw = textWidth(message);
  const w = lw + mw;
  const color = badgeColor(b);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" viewBox="0 0 ${w} 20" role="img" aria-label="${title}"><title>${title}</title><rect width="${lw}" height="20" fill="${LABEL_COLOR}"/><rect x="${lw}" width="${mw}" height="20" fill="${color}"/><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="${lw / 2}" y="14">${escapeXml(LABEL)}</text><text x="${lw + mw / 2}" y="14">${escapeXml(message)}</text></g></svg>`;
}

/** The embed snippets a service page shows (absolute URLs). */
export function badgeSnippets(opts: { baseUrl: string; id: string }): { url: string; page: string; markdown: string; html: string } {
  const b = opts.baseUrl.replace(/\/+$/, '');
  const id = encodeURIComponent(opts.id);
  const url = `${b}/badges/${id}.svg`;
  const page = `${b}/services/${id}`;
  return {
    url,
    page,
    markdown: `[![Atlas evidence](${url})](${page})`,
    html: `<a href="${escapeXml(page)}"><img src="${escapeXml(url)}" alt="Atlas evidence for ${escapeXml(opts.id)}"></a>`,
  };
}
