-- 061_catalog_history: every listed/unlisted interval of each service in each catalog
-- (pipeline/ingest/catalog-presence.ts; docs/notes/catalog-history.md).
--
-- catalog_listing (024) keeps one row per (service, catalog) and clears `dropped_at` when a catalog
-- lists a service again, so a drop followed by a relisting left no trace. This table keeps the
-- history: one row per interval during which one catalog listed the service.
-- - listed_at: the sweep of this catalog that (re)listed it (the first sweep that listed it, or the
--   first one after a drop);
-- - unlisted_at: the complete sweep of this catalog that no longer listed it, or the sweep in which
--   the catalog marked it withdrawn (MCP status deleted / deprecated); NULL while it lists it;
-- - unlisted_reason: `missing_from_sweep` or `<status>_status` (the MCP status that withdrew it);
--   NULL while listed.
-- Intervals of one (service, catalog) never overlap: at most one has unlisted_at NULL, and a new one
-- starts only after the previous one ended. catalog_listing stays the current state (its first_seen
-- is the first listed_at, its dropped_at the open interval's absence).
--
-- Existing rows are carried over as one interval each, [first_seen, dropped_at): drops and relistings
-- before this migration were not recorded, so they cannot be recovered (their reason is
-- `not_recorded` when the row was dropped).
CREATE TABLE catalog_listing_history (
  service_id VARCHAR NOT NULL,
  catalog_kind VARCHAR NOT NULL,
  catalog VARCHAR NOT NULL,
  listed_at TIMESTAMP NOT NULL,
  unlisted_at TIMESTAMP,
  unlisted_reason VARCHAR,
  PRIMARY KEY (service_id, catalog_kind, catalog, listed_at)
);

INSERT INTO catalog_listing_history (service_id, catalog_kind, catalog, listed_at, unlisted_at, unlisted_reason)
SELECT service_id, catalog_kind, catalog, first_seen, dropped_at, CASE WHEN dropped_at IS NOT NULL THEN 'not_recorded' END
FROM catalog_listing;

-- Compute's materialization of view catalog_standing (pipeline/store/rules.sql) at its instant, read
-- by publish: one row per discovered service that a catalog listed at or before computed_at.
CREATE TABLE service_catalog_standing (
  service_id VARCHAR NOT NULL,
  listed_by VARCHAR[],
  dropped_by VARCHAR[],
  latest_passed BOOLEAN,
  listed_but_failing BOOLEAN,
  passing_but_unlisted BOOLEAN,
  computed_at TIMESTAMP
);
