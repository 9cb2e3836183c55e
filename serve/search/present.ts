import { detailAtAnswer, freshnessAtAnswer, linkPrefix, summaryAtAnswer } from '../../site/contract/answer-time.ts';
import { FRESHNESS_VALUES } from '../../site/contract/common.ts';
import type { ServiceDetail } from '../../site/contract/service-detail.ts';
import type { ServiceSummary } from '../../site/contract/summary.ts';
import { scheduleTierServed } from './deprecation.ts';
import { freshnessAt, type Freshness } from './freshness.ts';
import type { SearchRow } from './row.ts';
import { SLOT } from './template.ts';

/**
 * Published objects are shared by every request; these return shallow copies with the values that
 * depend on the answer's time (freshness, schedule_tier) and on the server (absolute links when
 * `baseUrl` is configured): the answer stage of site/contract/answer-time.ts, whose freshness
 * inputs a row carries (lastCheckMs, intervalHours, criteriaExceptFresh).
 */
export interface PresentOptions {
  now: Date;
  baseUrl?: string | undefined;
}

/** A row's freshness at `now` (site/contract/answer-time.ts freshnessAtAnswer). @public */
export function rowFreshness(row: SearchRow, now: Date): Freshness {
  return freshnessAtAnswer(row, now);
}

/** The published summary of a row, as a new object (parsed from the row's serialization). */
export function summaryOf(row: SearchRow): ServiceSummary {
  return JSON.parse(row.summaryBytes.toString('utf8', row.summaryAt, row.summaryEnd)) as ServiceSummary;
}

/** The reference presentation, as an object (the MCP tool and pages read it; presentSummaryJson must serialize to the same bytes). */
export function presentSummary(row: SearchRow, opts: PresentOptions): ServiceSummary {
  return summaryAtAnswer(summaryOf(row), row, opts);
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
  const b = linkPrefix(opts.baseUrl);
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
  const first = row.layout;
  if (first === null) return JSON.stringify(presentSummary(row, r.opts));
  const t = row.templates;
  const end = first + 1 + t[first]! * 3;
  const bytes = row.summaryBytes;
  const at = row.summaryAt;
  let out = '';
  let pos = 0;
  for (let k = first + 1; k < end; k += 3) {
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
  return detailAtAnswer(detail, row, opts);
}
