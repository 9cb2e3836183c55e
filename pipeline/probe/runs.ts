import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.ts';

/**
 * The `runs` row of a probe run: inserted as `running` before the first request, finished with
 * counts aggregated in SQL from the checks this run stored (what is in the table, not what we think we
 * wrote). A run killed with SIGKILL stays `running` with no finished_at: that is the evidence of it.
 */
export const newRunId = (kind: string, now: Date): string =>
  `${kind}_${now.toISOString().replace(/[-:.]/g, '').replace('T', 't').toLowerCase()}_${randomBytes(3).toString('hex')}`;

export async function startRun(
  store: Store,
  r: { id: string; kind: string; scheduledAt: Date; startedAt: Date; args: unknown },
): Promise<void> {
  await store.run(
    `INSERT INTO runs (id, kind, scheduled_at, started_at, status, args) VALUES ($1, $2, $3::TIMESTAMP, $4::TIMESTAMP, 'running', $5::JSON)`,
    [r.id, r.kind, r.scheduledAt.toISOString(), r.startedAt.toISOString(), JSON.stringify(r.args)],
  );
}

export interface RunCounts {
  due: number;
  probed: number;
  stored: number;
  skipped_existing_slot: number;
  passed: number;
  failed: number;
  by_reason: Record<string, number>;
  by_rule: Record<string, { passed: number; failed: number }>;
  payment_terms: number;
  sink_errors: number;
}

export async function storedCounts(
  store: Store,
  runId: string,
): Promise<Pick<RunCounts, 'stored' | 'passed' | 'failed' | 'by_reason' | 'by_rule' | 'payment_terms'>> {
  const rows = await store.all<{ rule: string; reason: string; passed: boolean; n: number }>(
    'SELECT rule, reason, passed, count(*)::INTEGER AS n FROM checks WHERE run_id = $1 GROUP BY ALL ORDER BY ALL',
    [runId],
  );
  const terms = await store.all<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM payment_terms p JOIN checks c USING (service_id, operation, slot) WHERE c.run_id = $1`,
    [runId],
  );
  const by_reason: Record<string, number> = {};
  const by_rule: Record<string, { passed: number; failed: number }> = {};
  let passed = 0;
  let failed = 0;
  for (const r of rows) {
    by_reason[r.reason] = (by_reason[r.reason] ?? 0) + r.n;
    const b = (by_rule[r.rule] ??= { passed: 0, failed: 0 });
    if (r.passed) {
      passed += r.n;
      b.passed += r.n;
    } else {
      failed += r.n;
      b.failed += r.n;
    }
  }
  return { stored: passed + failed, passed, failed, by_reason, by_rule, payment_terms: terms[0]?.n ?? 0 };
}

export async function finishRun(
  store: Store,
  id: string,
  finishedAt: Date,
  status: 'ok' | 'partial' | 'failed',
  counts: unknown,
  error: string | null,
): Promise<void> {
  await store.run(`UPDATE runs SET finished_at = $2::TIMESTAMP, status = $3, counts = $4::JSON, error = $5 WHERE id = $1`, [
    id,
    finishedAt.toISOString(),
    status,
    JSON.stringify(counts),
    error,
  ]);
}
