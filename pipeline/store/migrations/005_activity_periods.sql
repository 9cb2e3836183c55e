-- 005_activity_periods: when each service and operation was active, as transitions
-- (docs/notes/history.md, "Activity periods").
--
-- `services.listed` / `services.active` and `operations.enabled` / `operations.declared_interval_hours`
-- hold the state now. Expected and missed checks must count only the time an operation was active
-- (its service active, the operation enabled; rules.sql atlas_activity_stretches), and a researcher replaying an instant must
-- see the state of that instant, so every change is kept: one row per change, like `directory`
-- (migration 004). A row holds the whole state from `since` until the next row of the same service
-- (operation); ingest writes a row whenever it finds the current state different from the latest
-- row (pipeline/ingest/activity.ts), and the first row of a new service (operation) is dated at its
-- start of monitoring. The rules read them (rules.sql: atlas_activity_stretches, atlas_activity_as_of).
CREATE TABLE service_activity (
  service_id VARCHAR NOT NULL,
  since TIMESTAMP NOT NULL,               -- the change (ingest instant), or the start of monitoring for the first row
  listed BOOLEAN NOT NULL,                -- services.listed from then on (discovered: listed by its registry)
  active BOOLEAN NOT NULL,                -- services.active from then on (reviewed: the listing is active)
  source VARCHAR NOT NULL                 -- who wrote it: listings | registry | migration
);

CREATE TABLE operation_activity (
  service_id VARCHAR NOT NULL,
  operation VARCHAR NOT NULL,
  since TIMESTAMP NOT NULL,
  enabled BOOLEAN NOT NULL,               -- operations.enabled from then on
  declared_interval_hours INTEGER,        -- operations.declared_interval_hours from then on (null: none declared)
  source VARCHAR NOT NULL                 -- listings | registry | migration
);

-- Existing databases: the registries' listing history is already kept (`listing_events`), so a
-- discovered service with events gets one row per change of `listed` in them (a repeated event that
-- changes nothing is dropped). Every other service, and every operation, has no history before this
-- migration: one row with its current state, from its start of monitoring. An inactive listing or a
-- disabled operation is therefore read as inactive since it started; the next change is recorded
-- when it happens.
INSERT INTO service_activity
WITH ev AS (
  SELECT e.service_id, e.event_at, e.listed,
    lag(e.listed) OVER (PARTITION BY e.service_id ORDER BY e.event_at) AS prev
  FROM listing_events e JOIN services s ON s.id = e.service_id AND s.tier = 'discovered'
)
SELECT ev.service_id, ev.event_at, ev.listed, s.active, 'migration'
FROM ev JOIN services s ON s.id = ev.service_id
WHERE ev.prev IS DISTINCT FROM ev.listed;

INSERT INTO service_activity
SELECT s.id, s.monitoring_since, s.listed, s.active, 'migration'
FROM services s
WHERE NOT EXISTS (SELECT 1 FROM service_activity a WHERE a.service_id = s.id);

INSERT INTO operation_activity
SELECT o.service_id, o.id, greatest(s.monitoring_since, coalesce(o.monitoring_since, s.monitoring_since)), o.enabled,
  o.declared_interval_hours, 'migration'
FROM operations o JOIN services s ON s.id = o.service_id;
