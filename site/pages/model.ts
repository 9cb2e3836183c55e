import type { EvidenceFile, ServiceDetailFile } from '../contract/index.ts';

/**
 * Inputs of the page renderers: the contract types (site/contract; the published JSON and the
 * server's answers have exactly these shapes) plus the two small series the charts take.
 */
export type {
  ServiceSummary,
  ServiceList,
  ServiceDetail,
  ServiceDetailFile,
  EvidenceFile,
  CriterionResult,
  Status,
  RunRecord,
  Stats,
} from '../contract/index.ts';

/**
 * A service page's input: an answer of the server (ServiceDetail) or a published single-service file
 * with `evidence.monitoring_days` left off (a static page shows no day count, pipeline/publish/write-pages.ts).
 */
export type ServicePageData = Omit<ServiceDetailFile, 'evidence'> & { evidence: EvidenceFile & { monitoring_days?: number } };

/** One check as the charts need it (a CheckRecord satisfies it). */
export interface CheckPoint {
  checked_at: string;
  passed: boolean;
  latency_ms: number | null;
}

/** One UTC day of checks (a DailyChecks satisfies it). */
export interface DayBucket {
  day: string; // YYYY-MM-DD
  checks: number;
  passed: number;
  median_latency_ms: number | null;
}

/** Page-wide facts that are not part of the data. */
export interface PageMeta {
  /**
   * When the data was computed (publish) or answered (serve); shown in the footer. Null on the
   * static service pages: each is shared by every generation whose data for the service is the same
   * (docs/notes/incremental-publish.md), so it carries no publish instant.
   */
  generatedAt: Date | null;
  /** True when rendered by the server: the search form filters live. False for the static tree. */
  live: boolean;
  /** The instance's public base URL (config serve.baseUrl) for absolute links such as embed snippets. */
  baseUrl?: string;
}
