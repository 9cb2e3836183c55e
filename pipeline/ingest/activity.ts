import type { Store } from '../store/store.ts';

/**
 * Activity transitions (migration 005): after an ingest has changed `services.listed` /
 * `services.active` or `operations.enabled` / `operations.declared_interval_hours`, one row per
 * service (operation) whose state now differs from its latest row, dated `now`. A service (operation)
 * without any row gets its first one dated at its start of monitoring (never after `now`), so a new
 * listing is active from its approval and a new operation from when it was added.
 *
 * Set-based and idempotent: a second call with nothing changed writes nothing. A row already dated
 * `now` is replaced rather than followed by a second one at the same instant, so "the latest row at
 * or before t" is always one row. Callers run it inside their ingest transaction, after their
 * updates.
 */
export interface ActivityCounts {
  services: number;
  operations: number;
}

export type ActivitySource = 'listings' | 'registry';

const SERVICE_PENDING = `CREATE OR REPLACE TEMP TABLE _activity_services AS
WITH latest AS (
  SELECT service_id, arg_max(listed, since) AS listed, arg_max(active, since) AS active
  FROM service_activity GROUP BY service_id
)
SELECT s.id AS service_id,
  CASE WHEN l.service_id IS NULL THEN least(s.monitoring_since, $1::TIMESTAMP) ELSE $1::TIMESTAMP END AS since,
  s.listed, s.active
FROM services s LEFT JOIN latest l ON l.service_id = s.id
WHERE l.service_id IS NULL OR l.listed IS DISTINCT FROM s.listed OR l.active IS DISTINCT FROM s.active`;

const OPERATION_PENDING = `CREATE OR REPLACE TEMP TABLE _activity_operations AS
WITH latest AS (
  SELECT service_id, operation, arg_max(enabled, since) AS enabled, arg_max(declared_interval_hours, since) AS declared
  FROM operation_activity GROUP BY service_id, operation
)
SELECT o.service_id, o.id AS operation,
  CASE WHEN l.service_id IS NULL
    THEN least(greatest(s.monitoring_since, coalesce(o.monitoring_since, s.monitoring_since)), $1::TIMESTAMP)
    ELSE $1::TIMESTAMP END AS since,
  o.enabled, o.declared_interval_hours
FROM operations o
JOIN services s ON s.id = o.service_id
LEFT JOIN latest l ON l.service_id = o.service_id AND l.operation = o.id
WHERE l.service_id IS NULL OR l.enabled IS DISTINCT FROM o.enabled OR l.declared IS DISTINCT FROM o.declared_interval_hours`;

export async function recordActivity(store: Store, now: Date | string, source: ActivitySource): Promise<ActivityCounts> {
  const at = typeof now === 'string' ? now : now.toISOString();
  await store.run(SERVICE_PENDING, [at]);
  await store.run(
    'DELETE FROM service_activity USING _activity_services p WHERE service_activity.service_id = p.service_id AND service_activity.since = p.since',
  );
  await store.run('INSERT INTO service_activity SELECT service_id, since, listed, active, $1 FROM _activity_services', [source]);
  await store.run(OPERATION_PENDING, [at]);
  await store.run(
    `DELETE FROM operation_activity USING _activity_operations p
     WHERE operation_activity.service_id = p.service_id AND operation_activity.operation = p.operation AND operation_activity.since = p.since`,
  );
  await store.run(
    'INSERT INTO operation_activity SELECT service_id, operation, since, enabled, declared_interval_hours, $1 FROM _activity_operations',
    [source],
  );
  const [s] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM _activity_services');
  const [o] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM _activity_operations');
  await store.run('DROP TABLE IF EXISTS _activity_services');
  await store.run('DROP TABLE IF EXISTS _activity_operations');
  return { services: Number(s?.n ?? 0), operations: Number(o?.n ?? 0) };
}
