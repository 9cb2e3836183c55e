import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.ts';

/**
 * Each ingest writes one `runs` row (kind `ingest_listings` | `ingest_x402` | `ingest_mcp`): started
 * as `running` outside the data transaction, finished as `ok` or `failed` with counts or the error,
 * so a failed source still leaves a record in the service's own status history.
 */
export type IngestRunKind = 'ingest_listings' | 'ingest_x402' | 'ingest_mcp';

export async function startRun(store: Store, kind: IngestRunKind, startedAt: Date, args: Record<string, unknown>): Promise<string> {
  const stamp = startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const id = `${kind}_${stamp}_${randomBytes(4).toString('hex')}`;
  await store.run(`INSERT INTO runs (id, kind, started_at, status, args) VALUES ($1, $2, $3::TIMESTAMP, 'running', $4::JSON)`, [
    id,
    kind,
    startedAt.toISOString(),
    JSON.stringify(args),
  ]);
  return id;
}

export async function finishRun(
  store: Store,
  id: string,
  finishedAt: Date,
  outcome: { status: 'ok' | 'partial' | 'failed'; counts?: object; error?: string },
): Promise<void> {
  await store.run(`UPDATE runs SET finished_at = $2::TIMESTAMP, status = $3, counts = $4::JSON, error = $5 WHERE id = $1`, [
    id,
    finishedAt.toISOString(),
    outcome.status,
    outcome.counts ? JSON.stringify(outcome.counts) : null,
    outcome.error ?? null,
  ]);
}

/** Run `body` between startRun and finishRun; a thrown error marks the run failed and is re-thrown. */
export async function withRun<T extends { counts: object; status?: 'ok' | 'partial' }>(
  store: Store,
  kind: IngestRunKind,
  now: () => Date,
  args: Record<string, unknown>,
  body: (runId: string) => Promise<T>,
): Promise<T & { runId: string }> {
  const runId = await startRun(store, kind, now(), args);
  try {
    const out = await body(runId);
    await finishRun(store, runId, now(), { status: out.status ?? 'ok', counts: out.counts });
    return { ...out, runId };
  } catch (e) {
    await finishRun(store, runId, now(), { status: 'failed', error: (e as Error).message?.slice(0, 2000) ?? String(e) }).catch(
      () => undefined,
    );
    throw e;
  }
}
