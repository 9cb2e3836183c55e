import { LISTING_CRITERIA_RULE } from '../../site/contract/common.ts';
import type { CriterionId, CriterionResult } from '../../site/contract/directory.ts';
import { HOUR_MS } from '../core/clock.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { sqlTime } from './clock.ts';

/** Directory membership rule id and criterion ids: one constant each, in the contract. */
export { LISTING_CRITERIA_RULE };
export { CRITERION_IDS, type CriterionId } from '../../site/contract/directory.ts';

/** The criteria of listing-criteria/1, in order, with the text shown per service. */
export const LISTING_CRITERIA: ReadonlyArray<{ id: CriterionId; description: string; appliesTo: string }> = [
  { id: 'checks_30d', description: 'checks_30d >= 3', appliesTo: 'all services' },
  { id: 'fresh', description: 'freshness = fresh', appliesTo: 'all services' },
  { id: 'pass_rate', description: 'pass_rate >= 0.8', appliesTo: 'all services' },
  { id: 'listed', description: 'still listed by its registry (MCP status not deleted)', appliesTo: 'discovered services' },
  { id: 'mainnet_offer', description: 'latest valid payment request offers a mainnet network', appliesTo: 'discovered x402 services' },
  { id: 'listing_active', description: 'listing is active', appliesTo: 'reviewed services' },
];

/** One criterion's result as stored in `directory.criteria` and published (contract CriterionResult). */
export type Criterion = CriterionResult;

export type DirectoryScope = 'full' | 'changed';

/** The API's hourly rule (docs/design.md, directory membership): a full evaluation is due when the last one is an hour old or none. */
export const FULL_EVALUATION_EVERY_MS = HOUR_MS;

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

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * One criterion as a SQL struct `{id, description, applies, passed, value, threshold}`; the list of
 * them is turned into JSON once with to_json (much cheaper than json_object for 100k rows). `applies`
 * and `passed` are SQL boolean expressions, `value` and `threshold` SQL expressions (any type).
 */
function criterion(id: CriterionId, applies: string, passed: string, value: string, threshold: string): string {
  const c = LISTING_CRITERIA.find((x) => x.id === id)!;
  return `{'id': ${q(id)}, 'description': ${q(c.description)}, 'applies': (${applies})::BOOLEAN, 'passed': (${passed})::BOOLEAN, 'value': to_json(${value}), 'threshold': to_json(${threshold})}`;
}

/**
 * Which services an evaluation covers. full: every service. changed (docs/design.md, directory membership; every five
 * minutes): services never evaluated, placed or updated since their last evaluation
 * (created_at / updated_at), or checked since it.
 */
const TARGETS = (scope: DirectoryScope, now: string) =>
  scope === 'full'
    ? 'SELECT id AS service_id FROM services'
    : `SELECT s.id AS service_id FROM services s LEFT JOIN last_eval l ON l.service_id = s.id
       WHERE l.evaluated_at IS NULL OR s.created_at > l.evaluated_at OR s.updated_at > l.evaluated_at
       UNION
       SELECT DISTINCT c.service_id FROM checks c JOIN last_eval l ON l.service_id = c.service_id
       WHERE c.checked_at > (SELECT min(evaluated_at) FROM last_eval) AND c.checked_at > l.evaluated_at AND c.checked_at <= ${now}`;

/**
 * listing-criteria/1 (docs/design.md, "Rules the API leaves to us"), over the materialized evidence and terms_summary of this run:
 *   1 checks_30d >= 3; 2 freshness = fresh; 3 pass_rate >= 0.8 (null fails);
 *   4 discovered only: listed = true and MCP status not 'deleted';
 *   5 discovered x402 only: the latest valid payment request offers a mainnet network (none seen fails);
 *   6 reviewed only: the listing is active.
 * in_directory = every applicable criterion passed. Appends one `directory` row per evaluated service.
 */
export const DIRECTORY_SQL = (now: Date, scope: DirectoryScope) => {
  const t = sqlTime(now);
  return `
INSERT INTO directory (evaluated_at, service_id, in_directory, rule, scope, criteria)
WITH last_eval AS (SELECT service_id, evaluated_at FROM directory_current),
targets AS (${TARGETS(scope, t)}),
base AS (
  SELECT s.id AS service_id, s.tier, s.protocol, s.listed, s.mcp_status, s.active,
    coalesce(e.checks_30d, 0) AS checks_30d, coalesce(e.freshness, 'no_data') AS freshness, e.pass_rate,
    ts.latest_mainnet,
    s.tier = 'discovered' AS is_discovered,
    s.tier = 'discovered' AND s.protocol = 'x402' AS is_discovered_x402,
    s.tier = 'reviewed' AS is_reviewed
  FROM services s
  JOIN targets g ON g.service_id = s.id
  LEFT JOIN evidence e ON e.service_id = s.id
  LEFT JOIN terms_summary ts ON ts.service_id = s.id
),
judged AS (
  SELECT *,
    checks_30d >= 3 AS c1,
    freshness = 'fresh' AS c2,
    coalesce(pass_rate >= 0.8, false) AS c3,
    CASE WHEN is_discovered THEN listed AND coalesce(mcp_status, '') <> 'deleted' END AS c4,
    CASE WHEN is_discovered_x402 THEN coalesce(latest_mainnet, false) END AS c5,
    CASE WHEN is_reviewed THEN active END AS c6
  FROM base
)
SELECT ${t}, service_id,
  c1 AND c2 AND c3 AND coalesce(c4, true) AND coalesce(c5, true) AND coalesce(c6, true),
  '${LISTING_CRITERIA_RULE}', '${scope}',
  to_json([
    ${criterion('checks_30d', 'true', 'c1', 'checks_30d', '3')},
    ${criterion('fresh', 'true', 'c2', 'freshness', "'fresh'")},
    ${criterion('pass_rate', 'true', 'c3', 'pass_rate', '0.8')},
    ${criterion('listed', 'is_discovered', 'c4', "CASE WHEN is_discovered THEN {'listed': listed, 'mcp_status': mcp_status} END", 'true')},
    ${criterion('mainnet_offer', 'is_discovered_x402', 'c5', 'CASE WHEN is_discovered_x402 THEN latest_mainnet END', 'true')},
    ${criterion('listing_active', 'is_reviewed', 'c6', 'CASE WHEN is_reviewed THEN active END', 'true')}
  ])
FROM judged`;
};

export async function evaluateDirectory(
  store: Store,
  now: Date,
  scope: DirectoryScope,
): Promise<{ evaluated: number; inDirectory: number }> {
  await store.run(DIRECTORY_SQL(now, scope));
  const [r] = await store.all<{ n: number; d: number }>(
    `SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE in_directory)::INTEGER AS d FROM directory WHERE evaluated_at = ${sqlTime(now)} AND scope = '${scope}'`,
  );
  return { evaluated: Number(r?.n ?? 0), inDirectory: Number(r?.d ?? 0) };
}

/** Alias used by the cycle: whether an hourly full directory evaluation is due at `now`. */
export const fullEvaluationDue = isFullEvaluationDue;
