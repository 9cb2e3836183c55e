import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/**
 * Materialize `evidence` (CONTRACTS.md) from view evidence_30d (pipeline/store/rules.sql, where each
 * figure's rule is stated). The session variable atlas_now must be set to `now` (computeAll does).
 */
export async function materializeEvidence(store: Store, now: Date): Promise<number> {
  await store.run(
    `CREATE OR REPLACE TABLE evidence AS
    SELECT e.*, $1::TIMESTAMP AS computed_at FROM evidence_30d e`,
    [timeParam(now)],
  );
  const [r] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM evidence');
  return Number(r?.n ?? 0);
}
