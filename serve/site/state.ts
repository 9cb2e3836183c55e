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
