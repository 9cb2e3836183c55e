import type { Store } from '../store/store.ts';
import { CHECK_KINDS, type CheckKind } from '../../site/contract/common.ts';
import type { ReportKindChecks as KindChecks } from '../../site/contract/reports.ts';
import { int } from './sql.ts';

/**
 * Checks run, passed and missed by kind for the report window [ws, until), with the rules of the
 * 30-day evidence (pipeline/store/rules.sql) applied to the week:
 * - ran/passed: atlas_window_checks(ws, until); kind atlas_check_kind(checks.rule).
 * - missed: atlas_operation_checks(ws, until) (expected checks per counted operation, missed =
 *   expected − ran, never below 0), for services tracked before until; kind
 *   atlas_check_kind(operations.pass_rule).
 * $1 = week start, $2 = figures_until.
 */
export const CHECKS_SQL = `
WITH ran AS (
  SELECT atlas_check_kind(c.rule) AS kind, count(*)::INTEGER AS ran, count(*) FILTER (WHERE c.passed)::INTEGER AS passed
  FROM atlas_window_checks($1::TIMESTAMP, $2::TIMESTAMP) c
  GROUP BY 1
),
missed AS (
  SELECT atlas_check_kind(o.pass_rule) AS kind, sum(o.missed)::INTEGER AS missed
  FROM atlas_operation_checks($1::TIMESTAMP, $2::TIMESTAMP) o
  SEMI JOIN services s ON s.id = o.service_id AND s.created_at < $2::TIMESTAMP
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
