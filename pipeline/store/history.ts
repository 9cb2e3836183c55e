import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { writeMonthPartitions } from './export.ts';
import { applyChecksAll, dataDirOf, sqlPath } from './rules.ts';
import { withRun } from './runs.ts';
import type { Store } from './store.ts';

/**
 * Bounded history (docs/notes/history.md): raw checks older than the archive cut move to monthly
 * Parquet files under the data folder, and daily per-operation aggregates (table check_daily) keep
 * long-range charts cheap. Time is always a parameter (`now`); nothing here reads the clock.
 */

/**
 * Checks with checked_at before now − ARCHIVE_AFTER_DAYS are archived. The longest window any
 * published figure reads is 90 days (payment-term changes; checks: 30 days), so a cut at 100 days
 * leaves every window whole with ten days of margin (test/pipeline/store/history.test.ts checks the
 * figures are equal before and after archiving).
 */
export const ARCHIVE_AFTER_DAYS = 100;
const DAY_MS = 86_400_000;

/** Folder of the archived checks below the data folder ('/'-separated, as stored in archive_files). */
export const ARCHIVE_CHECKS_DIR = 'archive/checks';

export const archiveCutoff = (now: Date): Date => new Date(now.getTime() - ARCHIVE_AFTER_DAYS * DAY_MS);

export interface ArchiveResult {
  run_id: string;
  cutoff: string;
  /** Rows moved out of `checks` by this run. */
  archived_rows: number;
  /** Files this run wrote and listed in archive_files (one per month touched). */
  files: Array<{ path: string; month: string; rows: number; bytes: number }>;
  /** Files of earlier runs that never committed (not listed), removed. */
  removed_orphans: number;
  /** check_daily rows rewritten before the raw rows left. */
  daily_rows: number;
}

const toPosix = (p: string): string => p.split(sep).join('/');

function listParquet(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

/**
 * Move checks with checked_at < now − 100 days into `<data>/archive/checks/month=YYYY-MM/<run id>_0.parquet`.
 *
 * Crash safety, in order:
 * 1. Files of an earlier run that are not listed in archive_files never committed: their rows are
 *    still live. They are removed first.
 * 2. check_daily is brought up to date, so no day loses its aggregate when its raw rows leave.
 * 3. In one transaction: the rows are written to a staging folder (one file per month touched, named
 *    by the run id), renamed into place, listed in archive_files, and deleted from `checks`. A crash
 *    before COMMIT leaves files that are not listed (step 1 of the next run removes them; checks_all
 *    never reads them); after COMMIT, every archived row is in exactly one listed file and in no
 *    live row. Running it again at the same `now` archives nothing (the delete is by the same cut).
 * 4. View checks_all is re-created over the listed files.
 */
export async function archiveChecks(store: Store, now: Date, runId: string): Promise<ArchiveResult> {
  const dataDir = dataDirOf(store.path);
  const root = join(dataDir, ...ARCHIVE_CHECKS_DIR.split('/'));
  const cutoff = archiveCutoff(now).toISOString();

  const listed = new Set((await store.all<{ path: string }>('SELECT path FROM archive_files')).map((r) => r.path));
  let removed = 0;
  for (const f of listParquet(root)) {
    if (listed.has(toPosix(relative(dataDir, f)))) continue;
    rmSync(f, { force: true });
    removed++;
  }
  for (const d of existsSync(root) ? readdirSync(root) : []) {
    if (d.startsWith('.staging-')) rmSync(join(root, d), { recursive: true, force: true });
  }

  const daily = await refreshCheckDaily(store, now);
  const files: ArchiveResult['files'] = [];
  let archivedRows = 0;
  await store.transaction(async () => {
    // The rows to move, staged once: the files and the delete see the same rows (the cut is bound as
    // a parameter; COPY takes none).
    await store.run('CREATE OR REPLACE TEMP TABLE archive_batch AS SELECT * FROM checks WHERE checked_at < $1::TIMESTAMP', [cutoff]);
    try {
      const [n] = await store.all<{ n: number }>('SELECT count(*)::BIGINT AS n FROM temp.archive_batch');
      archivedRows = Number(n?.n ?? 0);
      if (!archivedRows) return;
      const staging = join(root, `.staging-${runId}`);
      try {
        // in time order: a window's query (view checks_all) skips the row groups outside it
        const select = 'SELECT * FROM temp.archive_batch ORDER BY checked_at, service_id, operation';
        for (const f of await writeMonthPartitions(store, select, 'checked_at', staging, { filePrefix: runId })) {
          const month = /month=(\d{4}-\d{2})/.exec(f)?.[1];
          if (!month) throw new Error(`archive: unexpected file ${f}`);
          const dest = join(root, `month=${month}`, basename(f));
          mkdirSync(dirname(dest), { recursive: true });
          renameSync(f, dest);
          const path = toPosix(relative(dataDir, dest));
          const [st] = await store.all<{ rows: number; lo: string; hi: string }>(
            `SELECT count(*)::BIGINT AS rows, min(checked_at)::VARCHAR AS lo, max(checked_at)::VARCHAR AS hi FROM read_parquet(${sqlPath(dest)})`,
          );
          const rows = Number(st?.rows ?? 0);
          const bytes = statSync(dest).size;
          await store.run('INSERT INTO archive_files VALUES ($1, $2, $3, $4, $5, $6::TIMESTAMP, $7::TIMESTAMP, $8::TIMESTAMP)', [
            path,
            month,
            runId,
            rows,
            bytes,
            String(st?.lo),
            String(st?.hi),
            now.toISOString(),
          ]);
          files.push({ path, month, rows, bytes });
        }
      } finally {
        rmSync(staging, { recursive: true, force: true });
      }
      const total = files.reduce((a, f) => a + f.rows, 0);
      if (total !== archivedRows) throw new Error(`archive: wrote ${total} rows, expected ${archivedRows}`);
      await store.run('DELETE FROM checks WHERE checked_at < $1::TIMESTAMP', [cutoff]);
    } finally {
      await store.run('DROP TABLE IF EXISTS temp.archive_batch');
    }
  });
  await applyChecksAll(store, false);
  return { run_id: runId, cutoff, archived_rows: archivedRows, files, removed_orphans: removed, daily_rows: daily };
}

/**
 * Bring check_daily up to `now`: the days from the day before the latest one already aggregated
 * (it was partial, and a late write may have landed the day before) are recomputed from the raw
 * checks with macro atlas_check_daily (rules.sql) and replaced; with no aggregate yet, every live
 * day. Checks dated after `now` wait for a later run. Returns the rows written.
 */
export async function refreshCheckDaily(store: Store, now: Date): Promise<number> {
  return store.transaction(async () => {
    const [r] = await store.all<{ lo: string | null }>(
      `SELECT coalesce((SELECT max(day) - INTERVAL 1 DAY FROM check_daily), (SELECT min(checked_at)::DATE FROM checks))::TIMESTAMP::VARCHAR AS lo`,
    );
    if (!r?.lo) return 0;
    await store.run('DELETE FROM check_daily WHERE day >= $1::TIMESTAMP::DATE', [r.lo]);
    await store.run('INSERT INTO check_daily SELECT * FROM atlas_check_daily($1::TIMESTAMP, $2::TIMESTAMP)', [r.lo, now.toISOString()]);
    const [n] = await store.all<{ n: number }>('SELECT count(*)::BIGINT AS n FROM check_daily WHERE day >= $1::TIMESTAMP::DATE', [r.lo]);
    return Number(n?.n ?? 0);
  });
}

/**
 * `atlas archive` and the cycle's daily step: archiveChecks at `clock()` as a `runs` row of kind
 * archive (its counts: rows archived, files written, orphans removed, daily rows rewritten).
 */
export async function runArchive(store: Store, clock: () => Date): Promise<ArchiveResult> {
  const now = clock();
  return withRun(store, 'archive', { clock, startedAt: now }, async (run) => {
    const r = await archiveChecks(store, now, run.id);
    run.counts = { archived_rows: r.archived_rows, files: r.files.length, removed_orphans: r.removed_orphans, daily_rows: r.daily_rows };
    return r;
  });
}
