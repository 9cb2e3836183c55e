-- 060_declared_terms: what each source DECLARES about a service's payment terms, kept over time, so
-- that a difference from the live 402 is a dated event (docs/notes/declared-terms.md).
--
-- The sources overwrite their own columns on every ingest (services.registry_price_usd,
-- registry_networks, registry_raw, claims), so their history is kept here instead: one row per
-- stretch of equal declared values of one (service, source). A read that finds the same values moves
-- read_at; a read that finds other values adds a row with since = that read. A complete read of a
-- source that no longer declares anything about the service (a catalog that stopped listing it, a
-- listing made inactive) adds a row whose values are all NULL: from then on the source states nothing.
--
-- Values are normalized like the observed terms (payment_terms, pipeline/x402/terms.ts): networks
-- CAIP-2, EVM assets lower-cased, receiving addresses as the same salted hash, never stored in clear.
-- NULL in a value column: the source states nothing about that dimension (never a difference).
CREATE TABLE declared_terms (
  service_id VARCHAR NOT NULL,
  -- catalog (a discovery/resources catalog's listed offers) | well_known (the seller's own
  -- /.well-known/x402 document) | listing (our reviewed listing file's sourced claims)
  source_kind VARCHAR NOT NULL,
  -- the catalog's configured name (cdp, binance, …), `well-known:<host>`, or the listing file path
  source VARCHAR NOT NULL,
  since TIMESTAMP NOT NULL,               -- the read that first found these values
  read_at TIMESTAMP NOT NULL,             -- the latest read that found them again
  price_usd DOUBLE,                       -- lowest EXACT price in dollars (pipeline/x402/prices.ts)
  max_price_usd DOUBLE,                   -- lowest stated MAXIMUM (upto, batch-settlement) in dollars
  networks VARCHAR[],                     -- sorted distinct CAIP-2
  assets VARCHAR[],                       -- sorted distinct 'network|asset'
  schemes VARCHAR[],                      -- sorted distinct
  pay_to_hashes VARCHAR[],                -- sorted distinct salted hashes
  -- where each stated value was checked (listings: {"price_usd": {"source_url", "checked_at"}, …});
  -- NULL for catalogs and seller documents (Atlas read them itself at read_at)
  source_detail JSON,
  values_hash VARCHAR NOT NULL            -- md5 of the values above: equal hash = unchanged declaration
);

-- Compute's output (rules.sql, atlas_declared_differences): every difference between a source's
-- declaration and the live 402, one row per (service, source, dimension, began_at), replaced by every
-- `atlas compute`. ended_at NULL: the difference holds at the compute instant.
CREATE TABLE declared_differences (
  service_id VARCHAR NOT NULL,
  source_kind VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  dimension VARCHAR NOT NULL,             -- price | max_price | network | asset | scheme | pay_to
  began_at TIMESTAMP NOT NULL,
  ended_at TIMESTAMP,
  declared_value JSON,
  declared_since TIMESTAMP,               -- when Atlas first read the declaration in force at began_at
  observed_value JSON,
  observed_at TIMESTAMP,                  -- the check that first observed the live value in force at began_at
  computed_at TIMESTAMP
);

-- Compute's output: per (service, source) the comparison at the compute instant (the last point of
-- atlas_declared_points): the declaration in force, the observation in force and the dimensions
-- that differ. One row per (service, source) with a declaration; replaced by every `atlas compute`.
CREATE TABLE declared_comparisons (
  service_id VARCHAR NOT NULL,
  source_kind VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  declared_since TIMESTAMP,
  declared_read_at TIMESTAMP,
  price_usd DOUBLE,
  max_price_usd DOUBLE,
  networks VARCHAR[],
  assets VARCHAR[],
  schemes VARCHAR[],
  states_pay_to BOOLEAN,
  source_detail JSON,
  observed_at TIMESTAMP,
  compared BOOLEAN,                       -- a declaration stating something and a live 402 were both known
  differing VARCHAR[],                    -- the dimensions that differ (sorted), [] when none
  computed_at TIMESTAMP
);

-- Compute's output: the published state per service at the compute instant (rules.sql,
-- atlas_declared_state): one row per service with at least one compared declaration.
CREATE TABLE declared_state (
  service_id VARCHAR NOT NULL,
  differs BOOLEAN NOT NULL,
  dimensions VARCHAR[] NOT NULL,
  since TIMESTAMP,
  sources_compared INTEGER NOT NULL,
  computed_at TIMESTAMP
);
