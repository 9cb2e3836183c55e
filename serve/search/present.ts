import { FRESHNESS_VALUES } from '../../site/contract/common.ts';
import type { ServiceDetail } from '../../site/contract/service-detail.ts';
import type { ServiceSummary } from '../../site/contract/summary.ts';
import { scheduleTierServed, withScheduleTier } from './deprecation.ts';
import { freshnessAt, type Freshness } from './freshness.ts';
import type { SearchRow } from './row.ts';
import { SLOT } from './template.ts';

/**
 * Published objects are shared by every request; these return shallow copies with the values that
 * depend on the answer's time (freshness, schedule_tier) and on the server (absolute links when
 * `baseUrl` is configured).
 */
export interface PresentOptions {
  now: Date;
  baseUrl?: string | undefined;
}

function links(l: { page: string; api: string }, baseUrl: string | undefined): { page: string; api: string } {
  if (!baseUrl) return l;
  const b = baseUrl.replace(/\/+$/, '');
  const abs = (p: string) => (p.startsWith('/') ? `${b}${p}` : p);
  return { page: abs(l.page), api: abs(l.api) };
}

export function rowFreshness(row: SearchRow, now: Date): Freshness {
  return freshnessAt(row.lastCheckMs, row.intervalHours, now.getTime());
}

/** The published summary of a row, as a new object (parsed from the row's serialization). */
export function summaryOf(row: SearchRow): ServiceSummary {
  return JSON.parse(row.summaryBytes.toString('utf8', row.summaryAt, row.summaryEnd)) as ServiceSummary;
}

/** The reference presentation, as an object (the MCP tool and pages read it; presentSummaryJson must serialize to the same bytes). */
export function presentSummary(row: SearchRow, opts: PresentOptions): ServiceSummary {
  const s = summaryOf(row);
  const evidence = withScheduleTier({ ...s.evidence, freshness: rowFreshness(row, opts.now) }, opts.now) as ServiceSummary['evidence'];
  return { ...s, evidence, links: links(s.links, opts.baseUrl) };
}

/**
 * What every summary of one answer shares: the answer instant, whether `schedule_tier` is still
 * served then, and the base URL as it appears inside a JSON string ('' when links stay relative).
 */
export interface SummaryRender {
  opts: PresentOptions;
  nowMs: number;
  tierServed: boolean;
  base: string;
}

export function summaryRender(opts: PresentOptions): SummaryRender {
  const b = opts.baseUrl ? opts.baseUrl.replace(/\/+$/, '') : '';
  return { opts, nowMs: opts.now.getTime(), tierServed: scheduleTierServed(opts.now), base: b ? JSON.stringify(b).slice(1, -1) : '' };
}

const FRESHNESS_JSON = Object.fromEntries(FRESHNESS_VALUES.map((v) => [v, JSON.stringify(v)])) as Record<Freshness, string>;

/**
 * `JSON.stringify(presentSummary(row, opts))` without building or serializing an object: the row's
 * summary template (template.ts) joined with this answer's slot values — the freshness at the
 * answer instant, the `schedule_tier` member while it is served, the base URL before relative
 * links (UTF-8 decoded segment by segment; every slot falls between characters). Rows without a
 * template take the reference path. A test holds the two equal.
 */
export function presentSummaryJson(row: SearchRow, r: SummaryRender): string {
  const t = row.layout;
  if (t === null) return JSON.stringify(presentSummary(row, r.opts));
  const bytes = row.summaryBytes;
  const at = row.summaryAt;
  let out = '';
  let pos = 0;
  for (let k = 0; k < t.length; k += 3) {
    const slot = t[k + 2]!;
    if (slot === SLOT.SCHEDULE_TIER && r.tierServed) continue; // the published member stays as it is
    out += bytes.toString('utf8', at + pos, at + t[k]!) + slotValue(slot, row, r);
    pos = t[k + 1]!;
  }
  return out + bytes.toString('utf8', at + pos, row.summaryEnd);
}

function slotValue(slot: number, row: SearchRow, r: SummaryRender): string {
  if (slot === SLOT.FRESHNESS) return FRESHNESS_JSON[freshnessAt(row.lastCheckMs, row.intervalHours, r.nowMs)];
  if (slot === SLOT.BASE) return r.base;
  return ''; // SCHEDULE_TIER no longer served
}

/**
 * The single-service object: freshness, the `fresh` criterion and membership recomputed like the
 * search does (membership = every other criterion passed at publish, and fresh now).
 */
export function presentDetail(detail: ServiceDetail, row: SearchRow, opts: PresentOptions): ServiceDetail {
  const freshness = rowFreshness(row, opts.now);
  const fresh = freshness === 'fresh';
  const inDirectory = row.criteriaExceptFresh && fresh;
  const evidence = withScheduleTier({ ...detail.evidence, freshness }, opts.now) as ServiceDetail['evidence'];
  const criteria = detail.directory.criteria.map((c) =>
    c.id === 'fresh' ? { ...c, passed: c.applies ? fresh : null, value: freshness } : c,
  );
  return {
    ...detail,
    evidence,
    links: links(detail.links, opts.baseUrl),
    in_directory: inDirectory,
    directory: { ...detail.directory, in_directory: inDirectory, criteria },
  };
}
