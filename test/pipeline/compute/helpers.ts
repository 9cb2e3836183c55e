import { computeAll, setComputeNow, type ComputeOptions } from '../../../pipeline/compute/index.ts';
import { fixedClock } from '../../../pipeline/core/clock.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import { makeContext, withTestStore } from '../../helpers/context.ts';

/** A fresh migrated database for one test, always closed and removed. */
export const withDb = <T>(fn: (store: Store, dir: string) => Promise<T>): Promise<T> => withTestStore(fn, 'atlas-compute-');

/** Run computeAll under a fixed clock at `iso`. */
export async function computeAt(store: Store, dir: string, iso: string, opts: ComputeOptions = {}) {
  return computeAll(makeContext(dir, { clock: fixedClock(new Date(iso)) }), store, opts);
}

/** Rows of a view or table at a simulated instant (sets atlas_now). */
export async function viewAt<T = Record<string, unknown>>(store: Store, iso: string, sql: string): Promise<T[]> {
  await setComputeNow(store, new Date(iso));
  return store.all<T>(sql);
}

export interface EvidenceRow {
  service_id: string;
  operations: number;
  check_interval_hours: number | null;
  check_interval: string | null;
  check_interval_rule: string;
  monitoring_since: string;
  monitoring_days: number;
  limited_evidence: boolean;
  checks_30d: number;
  passed_30d: number;
  missed_30d: number;
  pass_rate: number | null;
  freshness: string;
  last_check_at: string | null;
  last_check: string | null;
  latest_passed: boolean | null;
}

export async function evidenceAt(store: Store, iso: string, id: string): Promise<EvidenceRow> {
  const [r] = await viewAt<EvidenceRow>(store, iso, `SELECT * FROM evidence_30d WHERE service_id = '${id}'`);
  if (!r) throw new Error(`no evidence row for ${id}`);
  return r;
}

export async function intervalOf(store: Store, id: string, op = 'primary'): Promise<number> {
  const [r] = await store.all<{ h: number }>(`SELECT interval_hours AS h FROM operations WHERE service_id = '${id}' AND id = '${op}'`);
  return Number(r?.h);
}

export async function changesOf(store: Store, id: string, op = 'primary') {
  return store.all<{ changed_at: string; from_hours: number | null; to_hours: number; reason: string }>(
    `SELECT strftime(changed_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS changed_at, from_hours, to_hours, reason FROM interval_changes
     WHERE service_id = '${id}' AND operation = '${op}' ORDER BY changed_at, (from_hours IS NULL) DESC`,
  );
}
