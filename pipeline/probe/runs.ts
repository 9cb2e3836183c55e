import type { Store } from '../store/store.ts';

/**
 * The counts of a probe run's `runs` row (written through the store's `withRun`): aggregated in SQL
 * from the checks this run stored (what is in the table, not what we think we wrote). A run killed
 * with SIGKILL stays `running` with no finished_at: that is the evidence of it.
 */
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
  return aggregateCounts(rows, terms[0]?.n ?? 0);
}

/** The stored-side counts from (rule, reason, passed) tallies: the one aggregation for the table and for batch files. */
export function aggregateCounts(
  rows: ReadonlyArray<{ rule: string; reason: string; passed: boolean; n: number }>,
  paymentTerms: number,
): Pick<RunCounts, 'stored' | 'passed' | 'failed' | 'by_reason' | 'by_rule' | 'payment_terms'> {
  const by_reason: Record<string, number> = {};
  const by_rule: Record<string, { passed: number; failed: number }> = {};
  let passed = 0;
  let failed = 0;
  for (const r of rows) {
    by_reason[r.reason] = (by_reason[r.reason] ?? 0) + r.n;
    const b = by_rule[r.rule] ?? { passed: 0, failed: 0 };
    by_rule[r.rule] = b;
    if (r.passed) {
      passed += r.n;
      b.passed += r.n;
    } else {
      failed += r.n;
      b.failed += r.n;
    }
  }
  return { stored: passed + failed, passed, failed, by_reason, by_rule, payment_terms: paymentTerms };
}
