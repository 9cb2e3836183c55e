import { type DirectoryScope, LISTING_CRITERIA_RULE } from '../../site/contract/common.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/** Directory membership rule id and criterion ids: one constant each, in the contract. */
export { LISTING_CRITERIA_RULE };
export { CRITERION_IDS } from '../../site/contract/directory.ts';

/** The contract's directory scopes (site/contract/common.ts). */
export type { DirectoryScope };

/**
 * A full evaluation is due when the last one is an hour old or there is none (docs/notes/compute.md):
 * every service is re-evaluated each hour, whatever the cycle cadence; the cycles between evaluate
 * the services checked or placed since (scope `changed`).
 */
export const FULL_EVALUATION_EVERY_MS = 3_600_000;

export async function lastFullEvaluation(store: Store): Promise<Date | null> {
  const [r] = await store.all<{ at: string | null }>("SELECT max(evaluated_at) AS at FROM directory_evaluations WHERE scope = 'full'");
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
export const TARGETS = (scope: DirectoryScope) =>
  scope === 'full'
    ? 'SELECT id AS service_id FROM services'
    : `SELECT s.id AS service_id FROM services s LEFT JOIN last_eval l ON l.service_id = s.id
       WHERE l.evaluated_at IS NULL OR s.created_at > l.evaluated_at OR s.updated_at > l.evaluated_at
       UNION
       SELECT DISTINCT c.service_id FROM checks c JOIN last_eval l ON l.service_id = c.service_id
       WHERE c.checked_at > (SELECT min(evaluated_at) FROM last_eval) AND c.checked_at > l.evaluated_at AND c.checked_at <= $1::TIMESTAMP`;

/**
 * The evaluation of the targeted services into temporary table `directory_eval`: the rule
 * listing-criteria/1 is view listing_criteria (pipeline/store/rules.sql), which states each criterion
 * and builds the stored criteria JSON. Parameter ($1, changed scope only): the evaluation instant.
 */
export const DIRECTORY_EVAL_SQL = (scope: DirectoryScope) => `
CREATE OR REPLACE TEMP TABLE directory_eval AS
WITH last_eval AS (SELECT service_id, evaluated_at FROM directory_current),
targets AS (${TARGETS(scope)})
SELECT l.service_id, l.in_directory, l.rule, l.criteria
FROM listing_criteria l SEMI JOIN targets g ON g.service_id = l.service_id`;

/**
 * `directory` holds transitions (migration 004): the evaluation is compared with each service's
 * current row (view directory_current). Same membership, rule and criteria JSON (every criterion's
 * applies, passed, value and threshold): the row is confirmed (evaluated_at and scope move to this
 * evaluation). Anything different, or no row yet: a new row starts, `since` = evaluated_at = this
 * evaluation. A second evaluation at the same instant replaces a row that instant started.
 * Statements in order: compare (no parameter), confirm ($1 instant, $2 scope), replace ($1), insert ($1, $2).
 */
const SAME_STATE = `c.in_directory = e.in_directory AND c.rule = e.rule AND c.criteria::VARCHAR = e.criteria::VARCHAR`;
export const DIRECTORY_TRANSITION_SQL = [
  `CREATE OR REPLACE TEMP TABLE directory_cmp AS
   SELECT e.*, c.since AS current_since, coalesce(${SAME_STATE}, false) AS same
   FROM temp.directory_eval e LEFT JOIN directory_current c ON c.service_id = e.service_id`,
  `UPDATE directory SET evaluated_at = $1::TIMESTAMP, scope = $2
   FROM temp.directory_cmp x WHERE x.same AND directory.service_id = x.service_id AND directory.since = x.current_since`,
  `DELETE FROM directory USING temp.directory_cmp x
   WHERE NOT x.same AND x.current_since = $1::TIMESTAMP AND directory.service_id = x.service_id AND directory.since = x.current_since`,
  `INSERT INTO directory (service_id, since, evaluated_at, in_directory, rule, scope, criteria)
   SELECT service_id, $1::TIMESTAMP, $1::TIMESTAMP, in_directory, rule, $2, criteria FROM temp.directory_cmp WHERE NOT same`,
] as const;

/**
 * Evaluate listing-criteria/1 at `now` over the evidence and payment terms this compute run
 * materialized (tables `evidence` and `terms_summary`): temporary views named like the rules' own
 * evidence_30d and terms_90d shadow them for this connection while the directory is evaluated, so
 * membership is judged on exactly the published figures, without computing them twice. Writes a
 * transition only where a service's state changed, and one `directory_evaluations` row.
 */
export async function evaluateDirectory(
  store: Store,
  now: Date,
  scope: DirectoryScope,
): Promise<{ evaluated: number; inDirectory: number; transitions: number }> {
  const at = timeParam(now);
  try {
    await store.run('CREATE OR REPLACE TEMP VIEW evidence_30d AS SELECT * FROM main.evidence');
    await store.run('CREATE OR REPLACE TEMP VIEW terms_90d AS SELECT * FROM main.terms_summary');
    // a full evaluation's targets do not depend on the instant (no parameter to bind)
    await store.run(DIRECTORY_EVAL_SQL(scope), scope === 'full' ? undefined : [at]);
  } finally {
    await store.run('DROP VIEW IF EXISTS temp.terms_90d');
    await store.run('DROP VIEW IF EXISTS temp.evidence_30d');
  }
  try {
    const [compare, confirm, replace, insert] = DIRECTORY_TRANSITION_SQL;
    await store.run(compare);
    await store.run(confirm, [at, scope]);
    await store.run(replace, [at]);
    await store.run(insert, [at, scope]);
    const [r] = await store.all<{ n: number; d: number; t: number }>(
      `SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE in_directory)::INTEGER AS d, count(*) FILTER (WHERE NOT same)::INTEGER AS t
       FROM temp.directory_cmp`,
    );
    const out = { evaluated: Number(r?.n ?? 0), inDirectory: Number(r?.d ?? 0), transitions: Number(r?.t ?? 0) };
    await store.run('INSERT INTO directory_evaluations VALUES ($1::TIMESTAMP, $2, $3, $4, $5)', [
      at,
      scope,
      out.evaluated,
      out.inDirectory,
      out.transitions,
    ]);
    return out;
  } finally {
    await store.run('DROP TABLE IF EXISTS temp.directory_cmp');
    await store.run('DROP TABLE IF EXISTS temp.directory_eval');
  }
}
