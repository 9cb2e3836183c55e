-- 003_operation_declared_interval: the check interval a reviewed listing declares for an operation.
--
-- A listing states each operation's interval (hourly or daily; pipeline/ingest/listings/schema.ts),
-- and schedule/1 (view schedule_targets in rules.sql) gives a reviewed operation that interval, so the
-- listings ingest and compute always agree. Without it, compute gave every reviewed call hourly while
-- ingest set a daily non-primary call back to daily, and the interval flipped at every cycle.
-- NULL: nothing declared (discovered operations; rows not yet re-loaded from their listing), and the
-- fixed rule applies (calls hourly, documentation daily). The next `atlas ingest listings` fills it.
ALTER TABLE operations ADD COLUMN declared_interval_hours INTEGER;
