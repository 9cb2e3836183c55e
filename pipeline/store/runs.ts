import { randomUUID } from 'node:crypto';
import type { RunStatus } from '../../site/contract/common.ts';
import type { Store } from './store.ts';

/** The service's own runs (the `runs` table): one row per job run, started then finished (statuses: the contract's RUN_STATUSES). */
export type { RunStatus };

export async function startRun(
  store: Store,
  kind: string,
  startedAt: Date,
  opts: { scheduledAt?: Date; args?: unknown } = {},
): Promise<string> {
  const id = `run_${kind}_${startedAt.getTime().toString(36)}_${randomUUID().slice(0, 8)}`;
  await store.run(
    `INSERT INTO runs (id, kind, scheduled_at, started_at, status, args) VALUES ($1, $2, $3::TIMESTAMP, $4::TIMESTAMP, 'running', $5::JSON)`,
    [id, kind, opts.scheduledAt ? opts.scheduledAt.toISOString() : null, startedAt.toISOString(), JSON.stringify(opts.args ?? {})],
  );
  return id;
}

export async function finishRun(
  store: Store,
  id: string,
  finishedAt: Date,
  result: { status: Exclude<RunStatus, 'running'>; counts?: unknown; error?: string | null },
): Promise<void> {
  await store.run(`UPDATE runs SET finished_at = $2::TIMESTAMP, status = $3, counts = $4::JSON, error = $5 WHERE id = $1`, [
    id,
    finishedAt.toISOString(),
    result.status,
    JSON.stringify(result.counts ?? {}),
    result.error ?? null,
  ]);
}

/** Start time of the latest successful run of a kind (ok or partial), or null. */
export async function lastRunAt(store: Store, kind: string): Promise<Date | null> {
  const rows = await store.all<{ t: string | null }>(
    `SELECT max(started_at) AS t FROM runs WHERE kind = $1 AND status IN ('ok', 'partial')`,
    [kind],
  );
  const t = rows[0]?.t;
  return t ? new Date(`${t.replace(' ', 'T')}Z`) : null;
}
