import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/**
 * Materialize `service_catalog_standing` (migration 061) from view catalog_standing
 * (pipeline/store/rules.sql: the catalogs listing and dropping each discovered service, listed but
 * failing, passing but unlisted) at the compute instant. The evidence this run materialized (table
 * `evidence`) shadows view evidence_30d meanwhile, so the standing reads exactly the published
 * latest_passed, without computing the evidence twice. atlas_now must be `now` (computeAll sets it).
 */
export async function materializeCatalogStanding(store: Store, now: Date): Promise<number> {
  try {
    await store.run('CREATE OR REPLACE TEMP VIEW evidence_30d AS SELECT * FROM main.evidence');
    await store.run(
      `CREATE OR REPLACE TABLE service_catalog_standing AS
       SELECT c.service_id, c.listed_by, c.dropped_by, c.latest_passed, c.listed_but_failing, c.passing_but_unlisted,
              $1::TIMESTAMP AS computed_at
       FROM catalog_standing c`,
      [timeParam(now)],
    );
  } finally {
    await store.run('DROP VIEW IF EXISTS temp.evidence_30d');
  }
  const [r] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM service_catalog_standing');
  return Number(r?.n ?? 0);
}
