import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Store } from './store.ts';

/**
 * Researchers' snapshot (docs/research-guide.md, "Tables and views"): a copy of the database that nobody writes to, so a long
 * read-only session never blocks the next pipeline run. Written to a temporary file, then renamed
 * over the previous snapshot (atomic on one filesystem). The temporary files of a process killed
 * mid-copy (named after its pid, a full database copy each) are removed first: only the pipeline,
 * which holds the database read-write, writes snapshots, and DuckDB allows one such process, so no
 * other copy can be in progress.
 */
export async function refreshSnapshot(store: Store, target: string): Promise<{ path: string; bytes: number }> {
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}`;
  const stale = `${basename(target)}.tmp-`;
  for (const f of readdirSync(dirname(target))) if (f.startsWith(stale)) rmSync(join(dirname(target), f), { force: true });
  const alias = 'atlas_snapshot_tmp';
  // ATTACH takes no bound parameters (DuckDB's parser refuses `$1` there): the path is quoted as a
  // string literal instead, with its quotes doubled.
  await store.run(`ATTACH '${tmp.replace(/'/g, "''")}' AS ${alias}`);
  try {
    const [{ db } = { db: '' }] = await store.all<{ db: string }>('SELECT current_database() AS db');
    // An identifier cannot be bound either: quoted, with any `"` doubled.
    await store.run(`COPY FROM DATABASE "${db.replace(/"/g, '""')}" TO ${alias}`);
  } finally {
    await store.run(`DETACH ${alias}`);
  }
  renameSync(tmp, target);
  if (existsSync(`${tmp}.wal`)) rmSync(`${tmp}.wal`, { force: true });
  return { path: target, bytes: statSync(target).size };
}
