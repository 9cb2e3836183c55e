import type { Store } from '../store/store.ts';
import { TERMS_CHANGE_KINDS } from '../../site/contract/common.ts';
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
SELECT count(*)::INTEGER AS changes, count(DISTINCT service_id)::INTEGER AS services,
  count(*) FILTER (WHERE list_contains(kinds, 'price'))::INTEGER AS price,
  count(*) FILTER (WHERE list_contains(kinds, 'network_added'))::INTEGER AS network_added,
  count(*) FILTER (WHERE list_contains(kinds, 'network_removed'))::INTEGER AS network_removed,
  count(*) FILTER (WHERE list_contains(kinds, 'asset'))::INTEGER AS asset,
  count(*) FILTER (WHERE list_contains(kinds, 'pay_to'))::INTEGER AS pay_to,
  count(*) FILTER (WHERE list_contains(kinds, 'scheme'))::INTEGER AS scheme,
  count(*) FILTER (WHERE list_contains(kinds, 'version'))::INTEGER AS version,
  count(*) FILTER (WHERE list_contains(kinds, 'other'))::INTEGER AS other
FROM ch
`;

export async function termsFigures(
  store: Store,
  ws: string,
  until: string,
): Promise<{ changes: number; services: number; by_kind: Record<(typeof TERMS_CHANGE_KINDS)[number], number> }> {
  const [row] = await store.all<Record<string, unknown>>(TERMS_SQL, [ws, until]);
  const by_kind = Object.fromEntries(TERMS_CHANGE_KINDS.map((k) => [k, int(row?.[k])])) as Record<
    (typeof TERMS_CHANGE_KINDS)[number],
    number
  >;
  return { changes: int(row?.changes), services: int(row?.services), by_kind };
}
