import type { Store } from '../store/store.ts';
import { TERMS_CHANGE_KINDS } from '../../site/contract/common.ts';
import { int, PARAMS_CTE } from './sql.ts';

/**
 * Payment-term changes in [ws, until), from the raw observations (`payment_terms`), so a frozen
 * figure depends only on raw data. A change is a valid observation whose terms_hash differs from the
 * previous valid observation of the same (service, operation) — over all history, not just the week
 * (DESIGN.md "Payment-term change"). Kinds (one change can have several):
 * - price: an amount differs for a (scheme, network, asset) offered in both;
 * - network_added / network_removed: a network appears / disappears;
 * - asset: the assets offered on a network present in both differ;
 * - pay_to: the salted receiving-address hashes differ; scheme: the schemes differ;
 * - version: the protocol version differs; other: the hash differs but none of the above (e.g. timeout).
 */
export const TERMS_SQL = `
WITH ${PARAMS_CTE},
obs AS (
  SELECT t.service_id, t.observed_at, t.terms_hash, t.x402_version, t.networks, t.schemes, t.assets, t.pay_to_hashes, t.amounts,
    lag(t.terms_hash) OVER w AS p_hash, lag(t.x402_version) OVER w AS p_version, lag(t.networks) OVER w AS p_networks,
    lag(t.schemes) OVER w AS p_schemes, lag(t.assets) OVER w AS p_assets, lag(t.pay_to_hashes) OVER w AS p_pay_to,
    lag(t.amounts) OVER w AS p_amounts
  FROM payment_terms t, p
  WHERE t.observed_at < p.until
  WINDOW w AS (PARTITION BY t.service_id, t.operation ORDER BY t.observed_at, t.slot)
),
ch AS (
  SELECT obs.*,
    list_transform(amounts, x -> split_part(x, '=', 1)) AS keys,
    list_transform(p_amounts, x -> split_part(x, '=', 1)) AS p_keys,
    list_filter(networks, x -> list_contains(p_networks, x)) AS common_networks
  FROM obs, p
  WHERE p_hash IS NOT NULL AND p_hash <> terms_hash AND observed_at >= p.ws
),
k AS (
  SELECT service_id,
    list_sort(list_filter(amounts, x -> list_contains(p_keys, split_part(x, '=', 1))))
      <> list_sort(list_filter(p_amounts, x -> list_contains(keys, split_part(x, '=', 1)))) AS price,
    len(list_filter(networks, x -> NOT list_contains(p_networks, x))) > 0 AS network_added,
    len(list_filter(p_networks, x -> NOT list_contains(networks, x))) > 0 AS network_removed,
    list_sort(list_filter(assets, x -> list_contains(common_networks, split_part(x, '|', 1))))
      <> list_sort(list_filter(p_assets, x -> list_contains(common_networks, split_part(x, '|', 1)))) AS asset,
    list_sort(pay_to_hashes) <> list_sort(p_pay_to) AS pay_to,
    list_sort(schemes) <> list_sort(p_schemes) AS scheme,
    x402_version <> p_version AS version
  FROM ch
)
SELECT count(*)::INTEGER AS changes, count(DISTINCT service_id)::INTEGER AS services,
  count(*) FILTER (WHERE price)::INTEGER AS price,
  count(*) FILTER (WHERE network_added)::INTEGER AS network_added,
  count(*) FILTER (WHERE network_removed)::INTEGER AS network_removed,
  count(*) FILTER (WHERE asset)::INTEGER AS asset,
  count(*) FILTER (WHERE pay_to)::INTEGER AS pay_to,
  count(*) FILTER (WHERE scheme)::INTEGER AS scheme,
  count(*) FILTER (WHERE version)::INTEGER AS version,
  count(*) FILTER (WHERE NOT (price OR network_added OR network_removed OR asset OR pay_to OR scheme OR version))::INTEGER AS other
FROM k
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
