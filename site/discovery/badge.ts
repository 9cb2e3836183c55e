import type { Freshness } from '../contract/index.ts';

/**
 * A service's badge: a small shields-style SVG, label "atlas", message the 30-day check figures
 * "<passed>/<checks> passed (<pass rate>) · 30d" (e.g. "1412/1440 passed (98.1%) · 30d"). Pure: the
 * caller supplies figures already evaluated at the answer instant.
 *
 * It states figures, never a verdict: one neutral colour whatever the figures or directory
 * membership (a colour per state would grade the service), and no membership in any of its texts.
 * The <title> and aria-label repeat the figures with the missed checks and the freshness of the
 * latest check. Every text is XML-escaped; the width comes from a fixed per-character approximation.
 */
export interface BadgeInput {
  /** Service id (in the title only). */
  id: string;
  /** Scheduled checks that ran in the 30-day window, and of those the ones that passed. */
  checks30d: number;
  passed30d: number;
  /** Scheduled checks that did not run in the window (never counted as failures). */
  missed30d: number;
  /** Share of checks passed in the 30-day window; null without checks. */
  passRate: number | null;
  freshness: Freshness;
}

/** The one fill of the message, whatever the figures: a neutral slate (white text on it is above 7:1). */
export const BADGE_COLOR = '#3b4a5a';

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

export function badgeMessage(b: Pick<BadgeInput, 'checks30d' | 'passed30d' | 'passRate'>): string {
  if (b.checks30d === 0) return 'no checks · 30d';
  return `${b.passed30d}/${b.checks30d} passed (${formatPassRate(b.passRate)}) · 30d`;
}

export function badgeTitle(b: BadgeInput): string {
  return `Atlas checks of ${b.id} in the last 30 days: ${b.checks30d} ran, ${b.passed30d} passed (${formatPassRate(b.passRate)}), ${b.missed30d} missed; latest check ${FRESHNESS_WORD[b.freshness]}`;
}

const textWidth = (s: string) => [...s].length * CHAR_PX + 2 * PAD_PX;

export function renderBadge(b: BadgeInput): string {
  const message = badgeMessage(b);
  const title = escapeXml(badgeTitle(b));
  const lw = textWidth(LABEL);
  const mw = textWidth(message);
  const w = lw + mw;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" viewBox="0 0 ${w} 20" role="img" aria-label="${title}"><title>${title}</title><rect width="${lw}" height="20" fill="${LABEL_COLOR}"/><rect x="${lw}" width="${mw}" height="20" fill="${BADGE_COLOR}"/><g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"><text x="${lw / 2}" y="14">${escapeXml(LABEL)}</text><text x="${lw + mw / 2}" y="14">${escapeXml(message)}</text></g></svg>`;
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
