import { API_STATUS } from '../contract/common.ts';
import type { IndexRecordFile } from '../contract/index.ts';
import { monitoringAsOfMs, NOTES, withMonitoringDays, withTermsWindowStart } from '../contract/index.ts';
import type { ServiceList, ServiceSummary } from './model.ts';

export const STATIC_PAGE_SIZE = 50;

/**
 * A published summary as the list shows it: `monitoring_days` and `payment_terms.window_start` at
 * the generation's `data_as_of` (else `generated_at`), the instant the server completes them to
 * (site/contract/monitoring.ts, site/contract/terms-window.ts).
 */
export function listedSummary(summary: IndexRecordFile['summary'], asOfMs: number): ServiceSummary {
  return {
    ...summary,
    evidence: withMonitoringDays(summary.evidence, asOfMs),
    payment_terms: withTermsWindowStart(summary.payment_terms, asOfMs),
  };
}

/**
 * The default query (scope=directory, sort=evidence, first page) over the published index, for the
 * static `index.html`. Evidence order as the server's default sort (serve/search/order.ts): most
 * checks in 30 days, then most days of monitoring, then id. `dataAsOf`: when compute last ran.
 */
export function defaultDirectoryList(records: readonly IndexRecordFile[], generatedAt: Date, dataAsOf: string | null = null): ServiceList {
  const asOf = monitoringAsOfMs(dataAsOf, generatedAt.toISOString());
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
