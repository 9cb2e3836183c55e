import type { Store } from '../store/store.ts';
import { sqlTime } from './clock.ts';

/**
 * Derived summary fields per service (spec 2.2), one row per service:
 *   price_usd / price_source  discovered: the registry's lowest known-stablecoin price → 'registry';
 *                             reviewed: the operator's stated price → 'operator'; else null / null.
 *                             Never a measured charge.
 *   networks / networks_source  the networks of the latest valid payment request observed → 'observed';
 *                             else the registry's → 'registry'; else the operator's → 'operator'.
 *                             With none known: [] and the source that would hold them (reviewed
 *                             'operator', discovered 'registry').
 *   mainnet                   true when any of those networks is a known mainnet (table networks),
 *                             false when networks are known but none is, null when none is known.
 *   provider_endpoints        tracked services on the same host (itself included).
 *   templated_url             ingest's flag, or a URL containing '/:', '{' or '%7B' (a placeholder).
 */
export const DERIVED_SQL = (now: Date) => `
CREATE OR REPLACE TABLE service_derived AS
WITH mainnet_ids AS (SELECT coalesce(list(id), []) AS ids FROM networks WHERE mainnet),
-- the latest valid payment request: discovered services from terms_summary (this run), others here
other_latest_at AS (
  SELECT t.service_id, max(t.observed_at) AS observed_at
  FROM payment_terms t SEMI JOIN services s ON s.id = t.service_id AND s.tier <> 'discovered'
  WHERE t.observed_at <= ${sqlTime(now)} GROUP BY t.service_id
),
latest_obs AS (
  SELECT service_id, latest_networks AS networks FROM terms_summary
  UNION ALL
  SELECT * FROM (
    SELECT t.service_id, t.networks
    FROM payment_terms t JOIN other_latest_at l ON l.service_id = t.service_id AND l.observed_at = t.observed_at
    QUALIFY row_number() OVER (PARTITION BY t.service_id ORDER BY t.slot DESC, t.operation) = 1
  )
),
hosts AS (SELECT host, count(*) AS n FROM services GROUP BY host),
chosen AS (
  SELECT s.id AS service_id, s.tier, s.host, s.url, s.templated_url,
    CASE WHEN s.tier = 'discovered' THEN s.registry_price_usd ELSE s.operator_price_usd END AS price_usd,
    CASE
      WHEN len(coalesce(o.networks, [])) > 0 THEN o.networks
      WHEN len(s.registry_networks) > 0 THEN s.registry_networks
      WHEN len(s.operator_networks) > 0 THEN s.operator_networks
      ELSE []::VARCHAR[]
    END AS networks,
    CASE
      WHEN len(coalesce(o.networks, [])) > 0 THEN 'observed'
      WHEN len(s.registry_networks) > 0 THEN 'registry'
      WHEN len(s.operator_networks) > 0 THEN 'operator'
      WHEN s.tier = 'reviewed' THEN 'operator'
      ELSE 'registry'
    END AS networks_source
  FROM services s LEFT JOIN latest_obs o ON o.service_id = s.id
)
SELECT c.service_id,
  c.price_usd::DOUBLE AS price_usd,
  CASE WHEN c.price_usd IS NULL THEN NULL WHEN c.tier = 'discovered' THEN 'registry' ELSE 'operator' END AS price_source,
  c.networks,
  c.networks_source,
  CASE WHEN len(c.networks) = 0 THEN NULL ELSE list_has_any(c.networks, (SELECT ids FROM mainnet_ids)) END AS mainnet,
  h.n::INTEGER AS provider_endpoints,
  (c.templated_url OR contains(c.url, '/:') OR contains(c.url, '{') OR contains(lower(c.url), '%7b')) AS templated_url,
  ${sqlTime(now)} AS computed_at
FROM chosen c JOIN hosts h ON h.host = c.host`;

/** Needs terms_summary of the same run (materializeTerms first). */
export async function materializeDerived(store: Store, now: Date): Promise<number> {
  await store.run(DERIVED_SQL(now));
  const [r] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM service_derived');
  return Number(r?.n ?? 0);
}
