import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './store.ts';

/**
 * The rules file (rules.sql next to this module): the one home of every rule that produces a
 * published figure, as DuckDB macros and views (docs/CONTRACTS.md "Rules"). It holds no table and is
 * not a migration: every statement is CREATE OR REPLACE and the file runs whenever the database is
 * opened, so the definitions in a database are always the ones of the code that opened it.
 *
 * - Read-write open: after the migrations (migrate() applies it too, for a database it just created
 *   or upgraded), the definitions are persisted, replacing those of an older version.
 * - Read-only open (`atlas sql`, researchers): DuckDB lets a read-only database create TEMP macros
 *   and views, which shadow the persisted ones for that connection. So a read-only reader sees the
 *   rules of its own code even when the file was last written by another version.
 * - A database whose migrations are not all applied yet gets no rules on open (views are bound when
 *   created, and their tables may not exist yet); migrate() applies them once it is up to date.
 */
const HERE = dirname(fileURLToPath(import.meta.url));
export const RULES_FILE = join(HERE, 'rules.sql');

let cached: string | undefined;
/** The rules file's text (read once per process). */
export function rulesSql(): string {
  cached ??= readFileSync(RULES_FILE, 'utf8');
  return cached;
}

/** The same statements as TEMP definitions (for a read-only connection). */
export function tempRulesSql(): string {
  return rulesSql().replace(/\bCREATE OR REPLACE (MACRO|VIEW)\b/g, 'CREATE OR REPLACE TEMP $1');
}

/**
 * Stores whose connection already holds this process's rules (and in which mode). The file is read
 * once per process, so a second application on the same open store would re-create identical
 * definitions: opening applies them, then migrate() and every cycle of a long-running process (the
 * demo, `atlas serve`'s tests, a loop of cycles) would again, and re-binding every macro and view is
 * one of the costliest statements of a small cycle. A migration that ran forces them again (`force`).
 */
const appliedTo = new WeakMap<Store, 'rw' | 'ro'>();

/** (Re-)create every rule: persisted on a read-write connection, TEMP on a read-only one. */
export async function applyRules(store: Store, opts: { readOnly?: boolean; force?: boolean } = {}): Promise<void> {
  const mode = opts.readOnly ? 'ro' : 'rw';
  if (opts.force || appliedTo.get(store) !== mode) {
    await store.run(opts.readOnly ? tempRulesSql() : rulesSql());
    appliedTo.set(store, mode);
  }
  await applyChecksAll(store, opts.readOnly ?? false);
}

/** A path as a SQL string literal (COPY targets and file lists cannot be bound parameters). */
export const sqlPath = (p: string): string => `'${p.replace(/'/g, "''")}'`;

/** The data folder of a database file: archive paths in `archive_files` are relative to it. */
export const dataDirOf = (dbPath: string): string => dirname(dbPath);

/**
 * View checks_all over the live table and the archived files (`files`: absolute paths). With no
 * file it stays the live table (rules.sql); DuckDB refuses an empty file list.
 */
export function checksAllSql(files: readonly string[], readOnly: boolean): string {
  const create = readOnly ? 'CREATE OR REPLACE TEMP VIEW' : 'CREATE OR REPLACE VIEW';
  const view = files.length
    ? `${create} checks_all AS SELECT * FROM checks UNION ALL SELECT * FROM atlas_archived_checks([${files.map(sqlPath).join(', ')}])`
    : `${create} checks_all AS SELECT * FROM checks`;
  return `${view};\n${CHECKS_ALL_COMMENT}`;
}

/** checks_all's comment for researchers (the other views' are at the end of rules.sql). */
const CHECKS_ALL_COMMENT =
  "COMMENT ON VIEW checks_all IS 'Every check that ran: the live table checks plus the checks archived to Parquet after 100 days (archive_files lists the files); same columns as checks.'";

/**
 * Re-create checks_all with the files `archive_files` lists (pipeline/store/history.ts writes them).
 * Only listed files are read, never a glob: a file written by an archive run that did not commit is
 * not listed, and its rows are still live. A listed file that is missing (a data folder copied
 * without its archive, e.g. the researchers' snapshot) is left out, so the database still opens.
 */
export async function applyChecksAll(store: Store, readOnly: boolean): Promise<void> {
  if (store.path === ':memory:') return;
  const rows = await store.all<{ path: string }>('SELECT path FROM archive_files ORDER BY path');
  const dir = dataDirOf(store.path);
  const files = rows.map((r) => join(dir, ...r.path.split('/'))).filter((f) => existsSync(f));
  await store.run(checksAllSql(files, readOnly));
}

const migrationVersions = (): number[] =>
  readdirSync(join(HERE, 'migrations'))
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .map((f) => Number(f.slice(0, 3)));

/** Whether every migration of this code is applied (the tables the rules read exist). */
export async function isMigrated(store: Store): Promise<boolean> {
  const [t] = await store.all<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = 'schema_migrations'",
  );
  if (!Number(t?.n)) return false;
  const done = new Set((await store.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
  return migrationVersions().every((v) => done.has(v));
}

/** On open: the rules, when the database is fully migrated (else migrate() applies them later). */
export async function applyRulesOnOpen(store: Store, readOnly: boolean): Promise<void> {
  if (await isMigrated(store)) await applyRules(store, { readOnly });
}
