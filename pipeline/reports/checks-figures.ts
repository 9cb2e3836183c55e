import type { Store } from '../store/store.ts';
import { CHECK_KINDS, type CheckKind } from '../../site/contract/common.ts';
import type { ReportKindChecks as KindChecks } from '../../site/contract/reports.ts';
import { int, kindOfRule, PARAMS_CTE } from './sql.ts';

/**
 * Checks run, passed and missed by kind for [ws, until), with the same rules as compute's 30-day
 * evidence (migration 030, view evidence_30d) applied to the week:
 * - ran/passed: checks with ws <= checked_at < until; kind from `checks.rule`.
 * - missed (DESIGN.md "Missed checks"): per operation counted in evidence (every operation of a
 *   reviewed service, the primary operation of a discovered one; disabled operations expect
 *   nothing), for each stretch with one interval in force (`interval_changes`; before the first
 *   recorded change, the interval it changed from, else the first or current interval, from
 *   monitoring_since), expected = floor(stretch ∩ [ws, until) ∩ monitoring period / interval);
 *   missed = expected − ran, never below 0. Kind from `operations.pass_rule`.
 */
export const CHECKS_SQL = `
WITH ${PARAMS_CTE},
ran AS (
  SELECT ${kindOfRule('c.rule')} AS kind, count(*)::INTEGER AS ran, count(*) FILTER (WHERE c.passed)::INTEGER AS passed
  FROM checks c, p WHERE c.checked_at >= p.ws AND c.checked_at < p.until
  GROUP BY 1
),
ops AS (
  SELECT o.service_id, o.id AS operation, o.pass_rule, o.enabled, o.interval_hours, s.monitoring_since
  FROM operations o JOIN services s ON s.id = o.service_id, p
  WHERE s.created_at < p.until AND (s.tier = 'reviewed' OR o.is_primary)
),
ic AS (
  SELECT i.service_id, i.operation, i.changed_at, i.from_hours, i.to_hours,
         row_number() OVER w AS rn, lead(i.changed_at) OVER w AS next_at
  FROM interval_changes i, p
  WHERE i.changed_at < p.until
  WINDOW w AS (PARTITION BY i.service_id, i.operation ORDER BY i.changed_at, (i.from_hours IS NULL) DESC)
),
stretches AS (
  SELECT service_id, operation, changed_at AS start_at, next_at AS end_at, to_hours AS hours FROM ic
  UNION ALL
  SELECT o.service_id, o.operation, o.monitoring_since, f.changed_at, coalesce(f.from_hours, f.to_hours, o.interval_hours)
  FROM ops o LEFT JOIN ic f ON f.service_id = o.service_id AND f.operation = o.operation AND f.rn = 1
),
clipped AS (
  SELECT o.service_id, o.operation, o.pass_rule, o.enabled, st.hours,
         greatest(st.start_at, o.monitoring_since, p.ws) AS a,
         least(coalesce(st.end_at, p.until), p.until) AS b
  FROM ops o JOIN stretches st ON st.service_id = o.service_id AND st.operation = o.operation, p
),
expected AS (
  SELECT service_id, operation, any_value(pass_rule) AS pass_rule,
         sum(CASE WHEN enabled AND hours > 0 AND b > a THEN floor(date_diff('second', a, b) / (hours * 3600)) ELSE 0 END)::INTEGER AS expected
  FROM clipped GROUP BY service_id, operation
),
ran_op AS (
  SELECT c.service_id, c.operation, count(*)::INTEGER AS n
  FROM checks c, p WHERE c.checked_at >= p.ws AND c.checked_at < p.until
  GROUP BY 1, 2
),
missed AS (
  SELECT ${kindOfRule('e.pass_rule')} AS kind, sum(greatest(e.expected - coalesce(r.n, 0), 0))::INTEGER AS missed
  FROM expected e LEFT JOIN ran_op r ON r.service_id = e.service_id AND r.operation = e.operation
  GROUP BY 1
)
SELECT coalesce(ran.kind, missed.kind) AS kind, coalesce(ran.ran, 0) AS ran, coalesce(ran.passed, 0) AS passed, coalesce(missed.missed, 0) AS missed
FROM ran FULL OUTER JOIN missed ON ran.kind = missed.kind
`;

const figure = (ran: number, passed: number, missed: number): KindChecks => ({
  ran,
  passed,
  missed,
  pass_rate: ran > 0 ? passed / ran : null,
});

export async function checksFigures(
  store: Store,
  ws: string,
  until: string,
): Promise<{ total: KindChecks; by_kind: Record<CheckKind, KindChecks> }> {
  const rows = await store.all<{ kind: string; ran: unknown; passed: unknown; missed: unknown }>(CHECKS_SQL, [ws, until]);
  const byKind = Object.fromEntries(CHECK_KINDS.map((k) => [k, figure(0, 0, 0)])) as Record<CheckKind, KindChecks>;
  let ran = 0;
  let passed = 0;
  let missed = 0;
  for (const r of rows) {
    ran += int(r.ran);
    passed += int(r.passed);
    missed += int(r.missed);
    if ((CHECK_KINDS as readonly string[]).includes(r.kind)) {
      byKind[r.kind as CheckKind] = figure(int(r.ran), int(r.passed), int(r.missed));
    }
  }
  return { total: figure(ran, passed, missed), by_kind: byKind };
}
