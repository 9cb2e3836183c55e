/**
 * SQL fragments shared by the report figures. Kept as constants so the field dictionary and the
 * README can quote the exact rule.
 */

/** Kind of a check or operation from its pass rule id (CONTRACTS.md): reviewed/N, x402-mainnet/N, mcp-reach/N. */
export const kindOfRule = (col: string): string =>
  `CASE WHEN ${col} LIKE 'reviewed/%' THEN 'reviewed' WHEN ${col} LIKE 'x402%' THEN 'x402' WHEN ${col} LIKE 'mcp%' THEN 'mcp' ELSE 'other' END`;

/** One row of parameters: $1 = week start, $2 = figures_until (both ISO strings, UTC). */
export const PARAMS_CTE = `p AS (SELECT $1::TIMESTAMP AS ws, $2::TIMESTAMP AS until)`;

/** DuckDB returns BIGINT as a string; figures are small integers. */
export const int = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
