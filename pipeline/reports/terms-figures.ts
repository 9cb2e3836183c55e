import type { Store } from '../store/store.ts';
import { TERMS_CHANGE_KINDS, type TermsChangeKind } from '../../site/contract/common.ts';
import { int } from './sql.ts';

/**
 * Payment-term changes in the report window [ws, until), from the raw observations (`payment_terms`),
 * so a frozen figure depends only on raw data: exactly the changes compute counts (table macro
 * atlas_terms_change_events in pipeline/store/rules.sql: discovered services' primary operation, each
 * valid observation compared with the previous one over all history, the timeout included), selected
 * by atlas_in_window(changed_at, ws, until). One change can have several kinds; each kind counts the
 * changes that include it. $1 = week start, $2 = figures_until.
 */
export const TERMS_SQL = `
WITH ch AS (
  SELECT service_id, kinds FROM atlas_terms_change_events($2::TIMESTAMP)
  WHERE atlas_in_window(changed_at, $1::TIMESTAMP, $2::TIMESTAMP)
)
SELECT count(*)::INTEGER AS changes, count(DISTINCT service_id)::INTEGER AS services FROM ch
`;

/** Changes per kind in the same window (a change with several kinds counts once for each). */
export const TERMS_KINDS_SQL = `
SELECT k AS kind, count(*)::INTEGER AS n
FROM atlas_terms_change_events($2::TIMESTAMP), unnest(kinds) AS u(k)
WHERE atlas_in_window(changed_at, $1::TIMESTAMP, $2::TIMESTAMP)
GROUP BY k
`;

/** By kind: tallied over the contract's TERMS_CHANGE_KINDS, so a kind added there is counted here without a change. */
export async function termsFigures(
  store: Store,
  ws: string,
  until: string,
): Promise<{ changes: number; services: number; by_kind: Record<TermsChangeKind, number> }> {
  const [row] = await store.all<Record<string, unknown>>(TERMS_SQL, [ws, until]);
  const kinds = await store.all<{ kind: string; n: unknown }>(TERMS_KINDS_SQL, [ws, until]);
  const by_kind = Object.fromEntries(TERMS_CHANGE_KINDS.map((k) => [k, 0])) as Record<TermsChangeKind, number>;
  for (const r of kinds) {
    if ((TERMS_CHANGE_KINDS as readonly string[]).includes(r.kind)) by_kind[r.kind as TermsChangeKind] = int(r.n);
  }
  return { changes: int(row?.changes), services: int(row?.services), by_kind };
}
