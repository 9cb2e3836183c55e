import { generationAsOfMs, summaryAsOf } from '../contract/answer-time.ts';
import { API_STATUS } from '../contract/common.ts';
import type { IndexRecordFile } from '../contract/index.ts';
import { NOTES } from '../contract/index.ts';
import type { ServiceList, ServiceSummary } from './model.ts';

export const STATIC_PAGE_SIZE = 50;

/**
 * A published summary as the list shows it: the generation stage of answer-time completion
 * (site/contract/answer-time.ts), `monitoring_days` and `payment_terms.window_start` at the
 * generation's `data_as_of` (else `generated_at`), as the server completes them. The answer stage
 * (freshness, schedule_tier) is the publish's own: a static page is an answer at its publish instant.
 */
export function listedSummary(summary: IndexRecordFile['summary'], asOfMs: number): ServiceSummary {
  return summaryAsOf(summary, asOfMs);
}

/**
 * The default query (scope=directory, sort=evidence, first page) over the published index, for the
 * static `index.html`. Evidence order as the server's default sort (serve/search/order.ts): most
 * checks in 30 days, then most days of monitoring, then id. `dataAsOf`: when compute last ran.
 */
export function defaultDirectoryList(records: readonly IndexRecordFile[], generatedAt: Date, dataAsOf: string | null = null): ServiceList {
  const asOf = generationAsOfMs({ dataAsOf, generatedAt: generatedAt.toISOString() });
  const inDir = records.filter((r) => r.in_directory).map((r) => listedSummary(r.summary, asOf));
  const sorted = inDir.sort(compareEvidence);
  return {
    api_status: API_STATUS,
    generated_at: generatedAt.toISOString(),
    data_as_of: dataAsOf,
    notes: NOTES,
    query: { scope: 'directory', sort: 'evidence', limit: STATIC_PAGE_SIZE, offset: 0 },
    total: sorted.length,
    items: sorted.slice(0, STATIC_PAGE_SIZE),
  };
}

export function compareEvidence(a: ServiceSummary, b: ServiceSummary): number {
  return (
    b.evidence.checks_30d - a.evidence.checks_30d ||
    b.evidence.monitoring_days - a.evidence.monitoring_days ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
