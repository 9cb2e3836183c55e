import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/**
 * Derived summary fields per service (price and networks with their sources, mainnet,
 * provider_endpoints, templated_url), one row per service: the rule is table macro
 * atlas_price_networks in pipeline/store/rules.sql, evaluated at the compute instant.
 */
export const DERIVED_SQL = `
CREATE OR REPLACE TABLE service_derived AS
SELECT d.*, $1::TIMESTAMP AS computed_at FROM atlas_price_networks($1::TIMESTAMP) d`;

export async function materializeDerived(store: Store, now: Date): Promise<number> {
  await store.run(DERIVED_SQL, [timeParam(now)]);
  const [r] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM service_derived');
  return Number(r?.n ?? 0);
}
