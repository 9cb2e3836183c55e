import type { DeclaredDifferenceChange } from '../../site/contract/declared-terms.ts';
import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/**
 * Declared against observed payment terms at the compute instant (rule declared-terms/1, table
 * macros atlas_declared_differences and atlas_declared_comparisons in pipeline/store/rules.sql):
 * every difference event up to now (`declared_differences`), each source's comparison now
 * (`declared_comparisons`) and each service's published state (`declared_state`), all replaced
 * whole (migration 060). Publish reads these tables.
 */
export async function materializeDeclared(store: Store, now: Date): Promise<{ differences: number; open: number }> {
  const t = timeParam(now);
  await store.run(
    'CREATE OR REPLACE TABLE declared_differences AS SELECT d.*, $1::TIMESTAMP AS computed_at FROM atlas_declared_differences($1::TIMESTAMP) d',
    [t],
  );
  await store.run(
    'CREATE OR REPLACE TABLE declared_comparisons AS SELECT c.*, $1::TIMESTAMP AS computed_at FROM atlas_declared_comparisons($1::TIMESTAMP) c',
    [t],
  );
  await store.run(
    'CREATE OR REPLACE TABLE declared_state AS SELECT s.*, $1::TIMESTAMP AS computed_at FROM atlas_declared_state($1::TIMESTAMP) s',
    [t],
  );
  const [r] = await store.all<{ n: number; o: number }>(
    'SELECT count(*)::INTEGER AS n, (count(*) FILTER (WHERE ended_at IS NULL))::INTEGER AS o FROM declared_differences',
  );
  return { differences: Number(r?.n ?? 0), open: Number(r?.o ?? 0) };
}

/**
 * The difference events that began or ended in [lo, hi] (compute's declared_differences), newest
 * first by their latest instant in the window, with their service: the change feed's entries of rule
 * declared-terms/1 (publish writes 90 days; `atlas changes` and serve filter the same way).
 */
export async function declaredDifferenceChanges(
  store: Store,
  lo: Date,
  hi: Date,
  serviceId: string | null = null,
): Promise<DeclaredDifferenceChange[]> {
  const rows = await store.all<{ j: string }>(
    `SELECT to_json({'service_id': d.service_id, 'service_name': s.name, 'source_kind': d.source_kind, 'source': d.source,
       'dimension': d.dimension, 'began_at': atlas_iso(d.began_at), 'ended_at': atlas_iso(d.ended_at),
       'declared_value': d.declared_value, 'declared_since': atlas_iso(d.declared_since), 'observed_value': d.observed_value,
       'observed_at': atlas_iso(d.observed_at)})::VARCHAR AS j
     FROM declared_differences d LEFT JOIN services s ON s.id = d.service_id
     WHERE ((d.began_at >= $1::TIMESTAMP AND d.began_at <= $2::TIMESTAMP) OR (d.ended_at >= $1::TIMESTAMP AND d.ended_at <= $2::TIMESTAMP))
       AND ($3::VARCHAR IS NULL OR d.service_id = $3::VARCHAR)
     ORDER BY greatest(d.began_at, coalesce(d.ended_at, d.began_at)) DESC, d.service_id, d.source_kind, d.source, d.dimension`,
    [lo.toISOString(), hi.toISOString(), serviceId],
  );
  return rows.map((r) => JSON.parse(r.j) as DeclaredDifferenceChange);
}
