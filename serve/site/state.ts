import type { ModerationDecision } from '../../site/contract/moderation.ts';
import type { ReceiptVerdictEntry } from '../../site/contract/receipt-verdict.ts';
import type { RunLog } from '../../site/contract/run-log.ts';
import type { Columns } from '../search/columns.ts';
import type { SearchRow } from '../search/row.ts';
import type { Sort } from '../search/query.ts';

/**
 * One loaded generation of the published tree (CONTRACTS.md "Published tree"), immutable once
 * built. The server holds one reference and swaps it whole when the `current` pointer moves, so a
 * request sees either the old or the new generation, never a mix.
 */
export interface SiteState {
  /** Real path of the generation folder (not via `current`, which may move under us). */
  dir: string;
  generation: string;
  generatedAt: string;
  manifest: Record<string, unknown>;
  /** Every tracked service (index scope), compiled for filtering. */
  rows: SearchRow[];
  byId: Map<string, SearchRow>;
  /** The search fields as typed columns (see search/columns.ts). */
  columns: Columns;
  /** Row positions presorted per sort order, so a search is one pass with no sort. */
  orders: Record<Sort, Int32Array>;
  /** Small published resources, loaded whole; null when the generation does not have the file. */
  resources: SiteResources;
  /**
   * The published run log (`run-log.json`): the runs the status windows are recomputed over at
   * answer time; null for a generation published without one.
   */
  runLog: RunLog | null;
  /**
   * `data_as_of` of the responses with computed figures: when compute last ran before this
   * generation was published (from the run log, else the published stats); null when unknown.
   */
  dataAsOf: string | null;
  /**
   * The last full directory evaluation's instant (`manifest.json` `directory_full_evaluation_at`):
   * what a single-service file's `directory.evaluated_at` is completed with
   * (site/contract/directory-evaluated.ts); null when none or for an older generation.
   */
  fullEvaluationAt: string | null;
  /**
   * The published moderation decisions by outcome report id (`index/moderation.json`); a report not
   * in it is pending. Empty for a generation published without the file.
   */
  moderation: ReadonlyMap<string, ModerationDecision>;
  /**
   * The published receipt verdicts by outcome report id (`index/moderation.json` `receipts`); a report
   * with a receipt not in it is pending verification. Empty for a generation published without them.
   */
  receiptVerdicts: ReadonlyMap<string, ReceiptVerdictEntry>;
  /** Weekly reports by id (`YYYY-MM-DD` and `current`). */
  reports: Map<string, Record<string, unknown>>;
  /** When this generation was loaded (server clock), for /healthz. */
  loadedAt: string;
}

export interface SiteResources {
  stats: Record<string, unknown> | null;
  status: Record<string, unknown> | null;
  roadmap: Record<string, unknown> | null;
  fields: Record<string, unknown> | null;
  changes: Record<string, unknown> | null;
  reportsIndex: Record<string, unknown> | null;
  healthz: Record<string, unknown> | null;
  openapi: Record<string, unknown> | null;
}
