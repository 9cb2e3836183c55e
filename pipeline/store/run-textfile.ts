import { dirname, join } from 'node:path';
import { METRICS_DIR, writeRunTextfile } from '../core/textfile-metrics.ts';
import type { Run, RunStatus } from './runs.ts';
import type { Store } from './store.ts';

/**
 * After a run's row is finished (withRun): its textfile `<data>/metrics/atlas_<kind>.prom`, with
 * the times of its `runs` row (the injected clock's, like the table) and the latest successful run
 * of the kind from the table, so a failed run keeps reporting when the kind last succeeded. The
 * folder is the database's (`<data>/atlas.duckdb`); an in-memory store writes none. Best effort:
 * the run's outcome is already recorded, so a failure here is swallowed and never changes it.
 */
export async function recordRunTextfile(store: Store, run: Run, status: Exclude<RunStatus, 'running'>): Promise<void> {
  if (store.path === ':memory:' || store.path === '') return;
  try {
    const rows = await store.all<{ started: number | null; finished: number | null; last_ok: number | null }>(
      `SELECT epoch(r.started_at) AS started, epoch(r.finished_at) AS finished,
              (SELECT epoch(max(finished_at)) FROM runs WHERE kind = $2 AND status IN ('ok', 'partial')) AS last_ok
       FROM runs r WHERE r.id = $1`,
      [run.id, run.kind],
    );
    const row = rows[0];
    const started = toNumber(row?.started);
    const finished = toNumber(row?.finished);
    await writeRunTextfile(join(dirname(store.path), METRICS_DIR), {
      kind: run.kind,
      status,
      durationSeconds: started !== null && finished !== null ? Math.max(0, finished - started) : 0,
      lastSuccessSeconds: toNumber(row?.last_ok),
      counts: run.counts,
      stepsMs: run.steps,
    });
  } catch {
    // best effort (see above): a full disk or a broken database already shows in the run's own row
  }
}

function toNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}
