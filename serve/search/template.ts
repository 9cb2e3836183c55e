import type { ServiceSummary } from '../../site/contract/summary.ts';

/**
 * A published summary's JSON as a template: static text with slots where presentSummaryJson
 * (present.ts) puts the answer-time values. Kept as `[from, to, slot]` triples in ascending order,
 * in UTF-8 bytes of the published JSON: the bytes between slots are the static segments, and
 * `[from, to)` is what the slot replaces —
 * - FRESHNESS: the `evidence.freshness` value;
 * - SCHEDULE_TIER: the `evidence.schedule_tier` member with one separating comma, kept while the
 *   name is served and dropped after;
 * - BASE: nothing (from = to), where a base URL goes in front of a relative `links.page` / `links.api`.
 */
export type SummaryTemplate = readonly number[];

export const SLOT = { FRESHNESS: 0, SCHEDULE_TIER: 1, BASE: 2 } as const;

/**
 * Stand-ins for the answer-time values, written once through JSON.stringify so the slots are found
 * where the serializer put them, never by parsing its output. A summary holding a sentinel's text
 * elsewhere finds it more than once and gets no template (it is presented the reference way).
 */
const SENTINEL = {
  freshness: '\u0001atlas:freshness\u0001',
  scheduleTier: '\u0001atlas:schedule_tier\u0001',
  base: '\u0001atlas:base\u0001',
};
const FRESHNESS_TEXT = JSON.stringify(SENTINEL.freshness);
const TIER_TEXT = JSON.stringify(SENTINEL.scheduleTier);
const BASE_TEXT = JSON.stringify(SENTINEL.base).slice(1, -1); // inside a string
const TIER_NAME = '"schedule_tier":';

/** Where one sentinel sits in the stand-in JSON, and the published text it stands for there. */
interface Mark {
  from: number;
  to: number;
  slot: number;
  published: string;
}

const isRelative = (link: unknown): boolean => typeof link === 'string' && link.startsWith('/');

/**
 * The shape the template serves like presentSummary does: `freshness` and a `schedule_tier` equal
 * to `check_interval` in `evidence`, and links of exactly `page` then `api`, both strings
 * (presentSummary rebuilds them in that order). Other shapes get no template.
 */
function templatable(s: ServiceSummary): boolean {
  const e = s.evidence as Record<string, unknown>;
  const links = s.links as Record<string, unknown>;
  if (!('freshness' in e) || !('schedule_tier' in e) || !('check_interval' in e)) return false;
  if (JSON.stringify(e.schedule_tier) !== JSON.stringify(e.check_interval)) return false;
  const keys = Object.keys(links);
  return keys.length === 2 && keys[0] === 'page' && keys[1] === 'api' && typeof links.page === 'string' && typeof links.api === 'string';
}

/** Every occurrence of `text` in `json`. */
function occurrences(json: string, text: string): number[] {
  const out: number[] = [];
  for (let p = json.indexOf(text); p >= 0; p = json.indexOf(text, p + text.length)) out.push(p);
  return out;
}

/** The `schedule_tier` member around its sentinel at `p`, with the comma before it (or after it, when first). */
function tierMark(json: string, p: number, valueJson: string): Mark | null {
  const name = p - TIER_NAME.length;
  const end = p + TIER_TEXT.length;
  if (!json.startsWith(TIER_NAME, name)) return null;
  if (json[name - 1] === ',') return { from: name - 1, to: end, slot: SLOT.SCHEDULE_TIER, published: `,${TIER_NAME}${valueJson}` };
  if (json[end] === ',') return { from: name, to: end + 1, slot: SLOT.SCHEDULE_TIER, published: `${TIER_NAME}${valueJson},` };
  return null;
}

/** The sentinels of the stand-in JSON in position order (null: one is missing or occurs too often). */
function marksOf(json: string, s: ServiceSummary): Mark[] | null {
  const fresh = occurrences(json, FRESHNESS_TEXT);
  const tier = occurrences(json, TIER_TEXT);
  const base = occurrences(json, BASE_TEXT);
  const relative = (isRelative(s.links.page) ? 1 : 0) + (isRelative(s.links.api) ? 1 : 0);
  if (fresh.length !== 1 || tier.length !== 1 || base.length !== relative) return null;
  const tierMember = tierMark(json, tier[0]!, JSON.stringify(s.evidence.check_interval));
  if (tierMember === null) return null;
  const marks: Mark[] = [
    { from: fresh[0]!, to: fresh[0]! + FRESHNESS_TEXT.length, slot: SLOT.FRESHNESS, published: JSON.stringify(s.evidence.freshness) },
    tierMember,
    ...base.map((p) => ({ from: p, to: p + BASE_TEXT.length, slot: SLOT.BASE, published: '' })),
  ];
  return marks.sort((a, b) => a.from - b.from);
}

/**
 * A summary's published JSON (what `JSON.stringify(s)` gives) and its template: the summary is
 * serialized once with sentinels in the answer-time members; the published JSON is that text with
 * each sentinel replaced by the published value it stands for (the members keep their order, so
 * nothing else differs). `template` is null for summaries of another shape.
 */
export function summaryTemplate(s: ServiceSummary): { json: string; template: SummaryTemplate | null } {
  if (!templatable(s)) return { json: JSON.stringify(s), template: null };
  const mark = (link: string): string => (isRelative(link) ? `${SENTINEL.base}${link}` : link);
  const standIn = JSON.stringify({
    ...s,
    evidence: { ...s.evidence, freshness: SENTINEL.freshness, schedule_tier: SENTINEL.scheduleTier },
    links: { page: mark(s.links.page), api: mark(s.links.api) },
  });
  const marks = marksOf(standIn, s);
  if (marks === null) return { json: JSON.stringify(s), template: null };
  let json = '';
  let bytes = 0;
  let pos = 0;
  const template: number[] = [];
  for (const m of marks) {
    const segment = standIn.slice(pos, m.from);
    json += segment + m.published;
    bytes += Buffer.byteLength(segment);
    const from = bytes;
    bytes += Buffer.byteLength(m.published);
    template.push(from, bytes, m.slot);
    pos = m.to;
  }
  return { json: json + standIn.slice(pos), template };
}
