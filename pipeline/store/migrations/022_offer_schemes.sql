-- 022_offer_schemes: prices that mean what they say (docs/reference.md, Networks and prices).
--
-- Every offer keeps its scheme in payment_terms.offers (001), and the scheme decides what its amount
-- is (pipeline/x402/prices.ts): under `exact` the charge of a call, under `upto` and
-- `batch-settlement` only the most a call can cost, under any other scheme nothing we can price. The
-- lowest exact price keeps its old columns (payment_terms.min_price_usd, services.registry_price_usd);
-- the lowest stated maximum gets its own, so a maximum is never shown as a price. Rows written before
-- this migration priced every scheme alike and have NULL here (not recorded).

-- The lowest stated maximum among the observed offers, in dollars (USD stablecoins of known mainnets).
ALTER TABLE payment_terms ADD COLUMN max_price_usd DOUBLE;

-- The currency of every offered token that is a known stablecoin: sorted distinct
-- 'network|asset=CURRENCY' (USD, EUR). A euro coin is recognised here and never converted to dollars.
-- NULL: observed before this migration (not recorded).
ALTER TABLE payment_terms ADD COLUMN currencies VARCHAR[];

-- The lowest stated maximum among a discovered service's registry offers (the registry counterpart of
-- max_price_usd; services.registry_price_usd stays the lowest exact price). One row per discovered
-- service whose registry offers state a priced maximum, replaced by every ingest of that registry.
-- Its own table, not a column of `services`: DuckDB 1.5 cannot replay an ADD COLUMN on a table whose
-- defaults call functions (services' `DEFAULT []` lists) from the WAL after a crash.
CREATE TABLE registry_max_prices (
  service_id VARCHAR NOT NULL,
  max_price_usd DOUBLE NOT NULL
);

-- Compute's output of the rule (rules.sql, atlas_price_networks). On a database made before this
-- migration the table exists and gains the column here; on a new one it does not exist yet and
-- 030_compute creates it with the column.
ALTER TABLE IF EXISTS service_derived ADD COLUMN IF NOT EXISTS max_price_usd DOUBLE;
