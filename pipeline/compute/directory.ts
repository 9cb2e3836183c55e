import { type DirectoryScope, LISTING_CRITERIA_RULE } from '../../site/contract/common.ts';
import type { CriterionResult } from '../../site/contract/directory.ts';
import { jobEveryMs } from '../../site/contract/run-windows.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/** Directory membership rule id and criterion ids: one constant each, in the contract. */
export { LISTING_CRITERIA_RULE };
export { CRITERION_IDS, type CriterionId } from '../../site/contract/directory.ts';

/** One criterion's result as stored in `directory.criteria` and published (contract CriterionResult). */
export type Criterion = CriterionResult;

/** The contract's directory scopes (site/contract/common.ts). */
export type { DirectoryScope };

/** A full evaluation is due when the last one is a compute slot old (the contract's schedule: an hour) or there is none (docs/notes/compute.md). */
export const FULL_EVALUATION_EVERY_MS = jobEveryMs('compute');

export async function lastFullEvaluation(store: Store): Promise<Date | null> {
  const [r] = await store.all<{ at: string | null }>("SELECT max(evaluated_at) AS at FROM directory WHERE scope = 'full'");
  const iso = dbTimeToIso(r?.at ?? null);
  return iso ? new Date(iso) : null;
}

/** Pure form of the rule, for callers that already know the last full evaluation. */
export function fullEvaluationDueAt(lastFull: Date | null, now: Date): boolean {
  return lastFull === null || now.getTime() - lastFull.getTime() >= FULL_EVALUATION_EVERY_MS;
}

export async function isFullEvaluationDue(store: Store, now: Date): Promise<boolean> {
  return fullEvaluationDueAt(await lastFullEvaluation(store), now);
}

/**
 * Which services an evaluation covers. full: every service. changed (every five minutes): services
 * never evaluated, placed or updated since their last evaluation (created_at / updated_at), or
 * checked since it (up to the evaluation instant, bound as $1).
 */
const TARGETS = (scope: DirectoryScope) =>
  scope === 'full'
    ? 'SELECT id AS service_id FROM services'
    : `SELECT s.id AS service_id FROM services s LEFT JOIN last_eval l ON l.service_id = s.id
       WHERE l.evaluated_at IS NULL OR s.created_at > l.evaluated_at OR s.updated_at > l.evaluated_at
       UNION
       SELECT DISTINCT c.service_id FROM checks c JOIN last_eval l ON l.service_id = c.service_id
       WHERE c.checked_at > (SELECT min(evaluated_at) FROM last_eval) AND c.checked_at > l.evaluated_at AND c.checked_at <= $1::TIMESTAMP`;

/**
 * Appends one `directory` row per evaluated service: the rule listing-criteria/1 is view
 * listing_criteria (pipeline/store/rules.sql), which states each criterion and builds the stored
 * criteria JSON. Parameters: $1 the evaluation instant, $2 the scope.
 */
export const DIRECTORY_SQL = (scope: DirectoryScope) => `
INSERT INTO directory (evaluated_at, service_id, in_directory, rule, scope, criteria)
WITH last_eval AS (SELECT service_id, evaluated_at FROM directory_current),
targets AS (${TARGETS(scope)})
SELECT $1::TIMESTAMP, l.service_id, l.in_directory, l.rule, $2, l.criteria
FROM listing_criteria l SEMI JOIN targets g ON g.service_id = l.service_id`;

/**
 * Evaluate listing-criteria/1 at `now` over the evidence and payment terms this compute run
 * materialized (tables `evidence` and `terms_summary`): temporary views named like the rules' own
 * evidence_30d and terms_90d shadow them for this connection while the directory is evaluated, so
 * membership is judged on exactly the published figures, without computing them twice.
 */
export async function evaluateDirectory(
  store: Store,
  now: Date,
  scope: DirectoryScope,
): Promise<{ evaluated: number; inDirectory: number }> {
  const at = timeParam(now);
  try {
    await store.run('CREATE OR REPLACE TEMP VIEW evidence_30d AS SELECT * FROM main.evidence');
    await store.run('CREATE OR REPLACE TEMP VIEW terms_90d AS SELECT * FROM main.terms_summary');
    await store.run(DIRECTORY_SQL(scope), [at, scope]);
  } finally {
    await store.run('DROP VIEW IF EXISTS temp.terms_90d');
    await store.run('DROP VIEW IF EXISTS temp.evidence_30d');
  }
  const [r] = await store.all<{ n: number; d: number }>(
    'SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE in_directory)::INTEGER AS d FROM directory WHERE evaluated_at = $1::TIMESTAMP AND scope = $2',
    [at, scope],
  );
  return { evaluated: Number(r?.n ?? 0), inDirectory: Number(r?.d ?? 0) };
}

/** Alias used by the cycle: whether an hourly full directory evaluation is due at `now`. */
export const fullEvaluationDue = isFullEvaluationDue;
