-- 002_operation_monitoring_since: each operation's own start of monitoring.
--
-- Expected and missed checks follow the schedule in force at the time, and an operation has no
-- schedule before it exists: an operation added to a service that was already monitored (a page or a
-- call added to a reviewed listing later) expects checks only from when it was added, not from the
-- service's monitoring_since. Ingest sets the column when it creates an operation (listings: the
-- approval for the operations a listing starts with, the ingest time for one added later; registries:
-- first seen). NULL means "from the service's monitoring_since" (rows written by older code or
-- directly by tests); the rules never let an operation start before its service (rules.sql,
-- atlas_counted_operations).
ALTER TABLE operations ADD COLUMN monitoring_since TIMESTAMP;

-- Existing rows: ingest dated each operation's first interval_changes row when it created it (at the
-- service's start for the operations it began with, at the ingest time for one added later), so an
-- operation starts at its first recorded interval, never before its service.
UPDATE operations SET monitoring_since = x.since
FROM (
  SELECT o.service_id, o.id, greatest(s.monitoring_since, coalesce(min(i.changed_at), s.monitoring_since)) AS since
  FROM operations o
  JOIN services s ON s.id = o.service_id
  LEFT JOIN interval_changes i ON i.service_id = o.service_id AND i.operation = o.id
  GROUP BY o.service_id, o.id, s.monitoring_since
) x
WHERE operations.service_id = x.service_id AND operations.id = x.id;
