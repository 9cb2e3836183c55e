import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { AtlasError } from '../core/errors.ts';
import { isMigrated, RULES_FILE, sqlPath } from './rules.ts';
import type { Store } from './store.ts';

/**
 * Research export (`atlas export`, docs/research-guide.md): the tables a researcher needs as Parquet
 * (or CSV) files. `checks`, the one table that grows without bound, is Hive-partitioned by the UTC
 * month of `checked_at` (`checks/month=YYYY-MM/…`); every other table is one file. The rules file
 * (rules.sql) is copied beside them, so the views behind every published figure can be re-created
 * over the files (docs/research-guide.md shows how).
 *
 * Secrets and personal data are never exported:
 * - `keys` (API key hashes, requesters' labels and contact) is not exported at all;
 * - `feedback` loses `contact` (a way to reach the sender) and `address_hash` (the sender's address);
 * - `outcomes` loses `key_id` and `idempotency_key`, which tie a report to the key holder who sent it,
 *   and `receipt`, the raw x402 receipt, which names the payer (usually the reporter's wallet); the
 *   verdict on it (`outcome_receipt_checks`: state, reason, the signer's keyed hash) is exported;
 * - `outcome_moderation` loses `note` (an operator's free text, which may describe the sender).
 *
 * The table list is explicit, not "every table": a new table is exported only once someone decides
 * it holds nothing secret (test/pipeline/store/export.test.ts fails until the list names every table).
 */
export interface ExportTable {
  table: string;
  /** Columns left out (secrets, personal data). */
  exclude?: readonly string[];
  /** Hive-partitioned by the UTC month (`month=YYYY-MM`) of this timestamp column. */
  monthOf?: string;
  /** Row order in the files (stable output, better compression). */
  orderBy?: string;
  /** The relation read, when not the table itself (checks: view checks_all, live and archived). */
  from?: string;
}

export const EXPORT_TABLES: readonly ExportTable[] = [
  { table: 'services', orderBy: 'id' },
  { table: 'operations', orderBy: 'service_id, id' },
  { table: 'checks', from: 'checks_all', monthOf: 'checked_at', orderBy: 'service_id, operation, slot' },
  { table: 'check_daily', orderBy: 'service_id, operation, day' },
  { table: 'payment_terms', orderBy: 'service_id, operation, slot' },
  { table: 'offer_signatures', orderBy: 'service_id, operation, slot, offer_index' },
  { table: 'registry_max_prices', orderBy: 'service_id' },
  { table: 'interval_changes', orderBy: 'service_id, operation, changed_at' },
  { table: 'listing_events', orderBy: 'service_id, event_at' },
  { table: 'catalog_listing', orderBy: 'service_id, catalog_kind, catalog' },
  { table: 'catalog_listing_history', orderBy: 'service_id, catalog_kind, catalog, listed_at' },
  { table: 'service_activity', orderBy: 'service_id, since' },
  { table: 'operation_activity', orderBy: 'service_id, operation, since' },
  { table: 'runs', orderBy: 'started_at, id' },
  { table: 'directory', orderBy: 'since, service_id' },
  { table: 'directory_evaluations', orderBy: 'evaluated_at, scope' },
  { table: 'doc_snapshots', orderBy: 'service_id, url, fetched_at' },
  { table: 'changes', orderBy: 'detected_at, id' },
  { table: 'reports', orderBy: 'week' },
  { table: 'report_corrections', orderBy: 'week, seq' },
  { table: 'outcomes', exclude: ['key_id', 'idempotency_key', 'receipt'], orderBy: 'received_at, id' },
  { table: 'outcome_moderation', exclude: ['note'], orderBy: 'report_id, seq' },
  { table: 'outcome_receipt_checks', orderBy: 'report_id' },
  { table: 'feedback', exclude: ['contact', 'address_hash'], orderBy: 'received_at, id' },
  { table: 'sync_state', orderBy: 'source' },
  { table: 'networks', orderBy: 'id' },
  { table: 'evidence', orderBy: 'service_id' },
  { table: 'terms_summary', orderBy: 'service_id' },
  { table: 'terms_changes', orderBy: 'service_id, changed_at' },
  { table: 'signed_offers_summary', orderBy: 'service_id' },
  { table: 'signed_offer_events', orderBy: 'service_id, event_at' },
  { table: 'service_derived', orderBy: 'service_id' },
  // Declared against observed payment terms (rule declared-terms/1, migration 060): the declarations
  // over time (receiving addresses only as the same salted hashes payment_terms holds) and compute's
  // outputs.
  { table: 'declared_terms', orderBy: 'service_id, source_kind, source, since' },
  { table: 'declared_differences', orderBy: 'service_id, source_kind, source, dimension, began_at' },
  { table: 'declared_comparisons', orderBy: 'service_id, source_kind, source' },
  { table: 'declared_state', orderBy: 'service_id' },
  { table: 'service_catalog_standing', orderBy: 'service_id' },
  { table: 'schema_migrations', orderBy: 'version' },
];

/** Tables deliberately left out of the export, with the reason (printed nowhere; read by the test). */
export const NOT_EXPORTED: Readonly<Record<string, string>> = {
  keys: 'API key hashes and the requesters’ labels and contact',
  archive_files: 'bookkeeping of the check archive (paths under the data folder); the archived rows are exported in checks',
  cluster_inbox_watermark: 'bookkeeping of the load from PostgreSQL (a transaction id); the rows it loaded are exported in their tables',
};

export type ExportFormat = 'parquet' | 'csv';

export interface ExportedFile {
  table: string;
  /** Path relative to the export folder, '/'-separated. */
  path: string;
  rows: number;
  bytes: number;
}

export interface ExportResult {
  dir: string;
  files: ExportedFile[];
}

export interface ExportOptions {
  format?: ExportFormat;
  /** Replace a non-empty `out` (written beside it first, then swapped in). */
  force?: boolean;
  /** Suffix of the temporary folder (tests); random by default. */
  tmpTag?: string;
}

/** A path as a SQL string literal: COPY's target cannot be a bound parameter, so quotes are doubled. */
export { sqlPath };
const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

const isNonEmptyDir = (p: string): boolean => existsSync(p) && (!statSync(p).isDirectory() || readdirSync(p).length > 0);

/**
 * Write the export into `out`. A non-empty `out` is refused (bad_usage, exit 2) unless `force`.
 * Everything is written into a sibling `out.tmp-…` first, then renamed into place, so `out` never
 * holds a partial export: with `force` the old folder is renamed aside, the new one renamed in, and
 * only then the old one removed. Only reads the store (a read-only open is enough).
 */
export async function exportTables(store: Store, out: string, opts: ExportOptions = {}): Promise<ExportResult> {
  const format = opts.format ?? 'parquet';
  if (isNonEmptyDir(out) && !opts.force) throw new AtlasError('bad_usage', `--out ${out} is not empty; pass --force to replace it`);
  if (!(await isMigrated(store)))
    throw new AtlasError('bad_usage', `database ${store.path} is not up to date; run \`atlas init\` (or any pipeline command) first`);
  const missing = await missingTables(store);
  if (missing.length) throw new AtlasError('internal', `tables missing from ${store.path}: ${missing.join(', ')}`);

  mkdirSync(dirname(out), { recursive: true });
  const tag = opts.tmpTag ?? `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = `${out}.tmp-${tag}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  try {
    const files: ExportedFile[] = [];
    for (const t of EXPORT_TABLES) files.push(...(await exportOne(store, tmp, t, format)));
    copyFileSync(RULES_FILE, join(tmp, 'rules.sql'));
    files.push({ table: '', path: 'rules.sql', rows: 0, bytes: statSync(join(tmp, 'rules.sql')).size });
    swapIn(tmp, out, tag);
    return { dir: out, files };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

async function missingTables(store: Store): Promise<string[]> {
  const rows = await store.all<{ t: string }>(
    "SELECT table_name AS t FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'",
  );
  const have = new Set(rows.map((r) => r.t));
  return EXPORT_TABLES.map((t) => t.table).filter((t) => !have.has(t));
}

async function exportOne(store: Store, dir: string, t: ExportTable, format: ExportFormat): Promise<ExportedFile[]> {
  const cols = t.exclude?.length ? `* EXCLUDE (${t.exclude.map(ident).join(', ')})` : '*';
  const order = t.orderBy ? ` ORDER BY ${t.orderBy}` : '';
  const source = ident(t.from ?? t.table);
  if (t.monthOf) {
    const target = join(dir, t.table);
    const paths = await writeMonthPartitions(store, `SELECT ${cols} FROM ${source}${order}`, t.monthOf, target, { format });
    return countFiles(store, dir, t.table, paths, format);
  }
  const target = join(dir, `${t.table}.${format}`);
  await store.run(`COPY (SELECT ${cols} FROM ${source}${order}) TO ${sqlPath(target)} (${copyFormat(format)})`);
  return countFiles(store, dir, t.table, [target], format);
}

const copyFormat = (format: ExportFormat): string => (format === 'csv' ? 'FORMAT csv, HEADER true' : 'FORMAT parquet, COMPRESSION zstd');

/**
 * Write the rows of `select` into Hive partitions by the UTC month of its column `monthOf`:
 * `target/month=2026-11/<file>` (the research export's checks, and the check archive,
 * pipeline/store/history.ts). The month lives in the folder name only (DuckDB drops partition
 * columns from the files); readers get it back with hive_partitioning. `filePrefix` names the files
 * `<prefix>_0.parquet`, … (DuckDB's default: data_0). No row writes no file; the folder is created
 * either way. Returns the written files' paths, sorted.
 */
export async function writeMonthPartitions(
  store: Store,
  select: string,
  monthOf: string,
  target: string,
  opts: { format?: ExportFormat; filePrefix?: string } = {},
): Promise<string[]> {
  mkdirSync(target, { recursive: true });
  const pattern = opts.filePrefix ? `, FILENAME_PATTERN ${sqlPath(`${opts.filePrefix}_{i}`)}` : '';
  await store.run(
    `COPY (SELECT *, strftime(${ident(monthOf)}, '%Y-%m') AS month FROM (${select})) TO ${sqlPath(target)} (${copyFormat(opts.format ?? 'parquet')}, PARTITION_BY (month), OVERWRITE_OR_IGNORE true${pattern})`,
  );
  return listFiles(target);
}

function listFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name))
    .sort();
}

/** Rows as read back from each written file (what a researcher will see), and its size. */
async function countFiles(store: Store, dir: string, table: string, paths: string[], format: ExportFormat): Promise<ExportedFile[]> {
  const out: ExportedFile[] = [];
  for (const p of paths) {
    const reader = format === 'csv' ? `read_csv(${sqlPath(p)}, header = true)` : `read_parquet(${sqlPath(p)})`;
    const [r] = await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${reader}`);
    out.push({ table, path: relative(dir, p).split(sep).join('/'), rows: Number(r?.n ?? 0), bytes: statSync(p).size });
  }
  return out;
}

function swapIn(tmp: string, out: string, tag: string): void {
  if (!existsSync(out)) {
    renameSync(tmp, out);
    return;
  }
  if (!isNonEmptyDir(out)) {
    rmSync(out, { recursive: true });
    renameSync(tmp, out);
    return;
  }
  // Two renames on one filesystem: `out` is either the old export or the new one, never a mix.
  const old = join(dirname(out), `${basename(out)}.old-${tag}`);
  renameSync(out, old);
  try {
    renameSync(tmp, out);
  } catch (e) {
    renameSync(old, out);
    throw e;
  }
  rmSync(old, { recursive: true, force: true });
}
