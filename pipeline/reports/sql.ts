/**
 * SQL fragments shared by the report figures. The rules themselves (check kind, expected and missed
 * checks, payment-term change kinds, the report window) live in pipeline/store/rules.sql.
 */

/** One row of parameters: $1 = week start, $2 = figures_until (both ISO strings, UTC). */
export const PARAMS_CTE = `p AS (SELECT $1::TIMESTAMP AS ws, $2::TIMESTAMP AS until)`;

/** DuckDB returns BIGINT as a string; figures are small integers. */
export const int = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
