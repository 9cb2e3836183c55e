import type { Store } from '../store/store.ts';
import { CHECK_KINDS, type CheckKind } from '../../site/contract/common.ts';
import type { ReportKindChecks } from '../../site/contract/reports.ts';
import { int } from './sql.ts';

/**
 * Checks run, passed and missed by kind for the report window [ws, until), with the rules of the
 * 30-day evidence (pipeline/store/rules.sql) applied to the week:
 * - ran/passed: atlas_window_checks(ws, until); kind atlas_check_kind(checks.rule).
 * - missed: atlas_operation_checks(ws, until) (expected checks per counted operation, missed =
 *   expected − ran, never below 0), for services tracked before until; kind
 *   atlas_check_kind(operations.pass_rule).
 * - pass_rate: atlas_pass_rate(passed, ran), per kind and for the total (the row with kind NULL).
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
),
by_kind AS (
  SELECT coalesce(ran.kind, missed.kind) AS kind, coalesce(ran.ran, 0) AS ran, coalesce(ran.passed, 0) AS passed, coalesce(missed.missed, 0) AS missed
  FROM ran FULL OUTER JOIN missed ON ran.kind = missed.kind
)
SELECT kind, ran, passed, missed, atlas_pass_rate(passed, ran) AS pass_rate FROM by_kind
UNION ALL
SELECT NULL, coalesce(sum(ran), 0)::INTEGER, coalesce(sum(passed), 0)::INTEGER, coalesce(sum(missed), 0)::INTEGER,
  atlas_pass_rate(sum(passed), sum(ran))
FROM by_kind
`;

const ZERO: ReportKindChecks = { ran: 0, passed: 0, missed: 0, pass_rate: null };

const figure = (r: { ran: unknown; passed: unknown; missed: unknown; pass_rate: unknown }): ReportKindChecks => ({
  ran: int(r.ran),
  passed: int(r.passed),
  missed: int(r.missed),
  pass_rate: r.pass_rate === null || r.pass_rate === undefined ? null : Number(r.pass_rate),
});

export async function checksFigures(
  store: Store,
  ws: string,
  until: string,
): Promise<{ total: ReportKindChecks; by_kind: Record<CheckKind, ReportKindChecks> }> {
  const rows = await store.all<{ kind: string | null; ran: unknown; passed: unknown; missed: unknown; pass_rate: unknown }>(CHECKS_SQL, [
    ws,
    until,
  ]);
  const byKind = Object.fromEntries(CHECK_KINDS.map((k) => [k, { ...ZERO }])) as Record<CheckKind, ReportKindChecks>;
  let total = { ...ZERO };
  for (const r of rows) {
    if (r.kind === null) total = figure(r);
    else if ((CHECK_KINDS as readonly string[]).includes(r.kind)) byKind[r.kind as CheckKind] = figure(r);
  }
  return { total, by_kind: byKind };
}
