-- 024_catalog_presence: which catalogs list each discovered service, since when, and when a catalog
-- stopped listing it (pipeline/ingest/catalog-presence.ts; docs/notes/ingest.md, "Several catalogs").
--
-- One row per (service, catalog). A catalog is a configured registry source: its kind (`x402` for a
-- discovery/resources catalog, `mcp` for an MCP registry) and its configured name (`cdp`, `binance`,
-- `official`, …). Every sweep of a catalog maintains its own rows only:
-- - first_seen: the first sweep of this catalog that listed the service (never moves);
-- - last_seen: the last sweep of this catalog that listed it;
-- - dropped_at: set when a complete sweep of this catalog no longer lists it (or the catalog marks it
--   deleted); NULL while the catalog lists it; cleared when the catalog lists it again.
-- A discovered service is listed overall while at least one of its rows has dropped_at NULL
-- (services.listed). Services discovered before this migration get their row from their own
-- `registry` column the first time a sweep of that catalog runs (adopted, first_seen = first_seen_at).
CREATE TABLE catalog_listing (
  service_id VARCHAR NOT NULL,
  catalog_kind VARCHAR NOT NULL,
  catalog VARCHAR NOT NULL,
  first_seen TIMESTAMP NOT NULL,
  last_seen TIMESTAMP NOT NULL,
  dropped_at TIMESTAMP,
  PRIMARY KEY (service_id, catalog_kind, catalog)
);
