-- The cluster schema's home. Tables of the replica writes (010-019) and the probe queue (020-029)
-- follow in their own migrations; atlas.schema_migrations is created by the runner itself.
CREATE SCHEMA IF NOT EXISTS atlas;
