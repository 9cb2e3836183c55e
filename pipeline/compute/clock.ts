import type { Store } from '../store/store.ts';

/**
 * A time as a query parameter (bound as `$n::TIMESTAMP`; the session time zone is UTC). Times are
 * always bound, never pasted into SQL text.
 */
export function timeParam(now: Date): string {
  if (Number.isNaN(now.getTime())) throw new Error('invalid compute time');
  return now.toISOString();
}

/**
 * The compute instant. The researcher-facing views of the rules file (pipeline/store/rules.sql) read
 * `atlas_compute_now()`, i.e. the session variable `atlas_now`; computeAll sets it once so every
 * figure of one run is computed at one instant.
 */
export async function setComputeNow(store: Store, now: Date): Promise<void> {
  await store.run('SET VARIABLE atlas_now = $1::TIMESTAMP', [timeParam(now)]);
}
