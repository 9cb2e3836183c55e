import { detailAtAnswer, freshnessAtAnswer, linkPrefix, summaryAtAnswer } from '../../site/contract/answer-time.ts';
import { FRESHNESS_VALUES } from '../../site/contract/common.ts';
import type { ServiceDetail } from '../../site/contract/service-detail.ts';
import type { ServiceSummary } from '../../site/contract/summary.ts';
import { scheduleTierServed } from './deprecation.ts';
import { freshnessAt, type Freshness } from './freshness.ts';
import type { SearchRow } from './row.ts';

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
 * published serialization (UTF-8, decoded piece by piece; every edit falls between characters) with
 * the answer-time values spliced in at the positions its layout noted (row.ts serializeSummary).
 * Rows without a layout take the reference path. A test holds the two equal.
 */
export function presentSummaryJson(row: SearchRow, r: SummaryRender): string {
  const l = row.layout;
  if (l === null) return JSON.stringify(presentSummary(row, r.opts));
  const bytes = row.summaryBytes;
  const from = row.summaryAt;
  const fresh = FRESHNESS_JSON[freshnessAt(row.lastCheckMs, row.intervalHours, r.nowMs)];
  // The edits in position order: at most freshness, the tier member and two link prefixes.
  const at: number[] = [l.freshFrom];
  const to: number[] = [l.freshTo];
  const text: string[] = [fresh];
  if (!r.tierServed) insertEdit(at, to, text, l.tierFrom, l.tierTo, '');
  if (r.base !== '') {
    if (l.pageAt >= 0) insertEdit(at, to, text, l.pageAt, l.pageAt, r.base);
    if (l.apiAt >= 0) insertEdit(at, to, text, l.apiAt, l.apiAt, r.base);
  }
  let out = '';
  let pos = 0;
  for (let k = 0; k < at.length; k++) {
    out += bytes.toString('utf8', from + pos, from + at[k]!) + text[k];
    pos = to[k]!;
  }
  return out + bytes.toString('utf8', from + pos, row.summaryEnd);
}

function insertEdit(at: number[], to: number[], text: string[], from: number, end: number, t: string): void {
  let k = at.length;
  while (k > 0 && at[k - 1]! > from) k--;
  at.splice(k, 0, from);
  to.splice(k, 0, end);
  text.splice(k, 0, t);
}

/**
 * The single-service object: freshness, the `fresh` criterion and membership recomputed like the
 * search does (membership = every other criterion passed at publish, and fresh now).
 */
export function presentDetail(detail: ServiceDetail, row: SearchRow, opts: PresentOptions): ServiceDetail {
  return detailAtAnswer(detail, row, opts);
}
