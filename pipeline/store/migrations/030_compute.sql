-- 030_compute: the tables of computed evidence. Tables only: the rules that fill them (macros and
-- views: evidence_30d, terms_90d, terms_change_events, schedule_targets, directory_current, …) live in
-- pipeline/store/rules.sql, re-created whenever the database is opened (docs/CONTRACTS.md "Rules").
-- `atlas compute` materializes those rules into the tables below (publish reads the tables).

-- Payment network ids known to Atlas (site/contract/networks.ts; CAIP-2 ids, v1 names and aliases).
-- Refreshed by every `atlas compute` from the code's table. An id not listed is unknown: never mainnet.
CREATE TABLE networks (
  id VARCHAR PRIMARY KEY,
  caip2 VARCHAR NOT NULL,
  mainnet BOOLEAN NOT NULL
);

-- ---------------------------------------------------------------------------------------------------
-- Materialized results of `atlas compute` (CONTRACTS.md "Compute outputs"). Created empty here so
-- readers find them before the first run; each run replaces them (CREATE OR REPLACE TABLE … AS, one
-- transaction) with the same columns and types. One row per service_id.
CREATE TABLE evidence (
  service_id VARCHAR NOT NULL,
  operations INTEGER,
  check_interval_hours INTEGER,
  check_interval VARCHAR,
  check_interval_rule VARCHAR,
  monitoring_since TIMESTAMP,
  monitoring_days DOUBLE,
  limited_evidence BOOLEAN,
  checks_30d INTEGER,
  passed_30d INTEGER,
  missed_30d INTEGER,
  pass_rate DOUBLE,
  freshness VARCHAR,
  last_check_at TIMESTAMP,
  last_check JSON,
  latest_passed BOOLEAN,
  computed_at TIMESTAMP
);

CREATE TABLE terms_summary (
  service_id VARCHAR NOT NULL,
  current_since TIMESTAMP,
  changes_30d INTEGER,
  changes_90d INTEGER,
  pay_to_changes_90d INTEGER,
  last_change_at TIMESTAMP,
  last_change_kinds VARCHAR[],
  window_start TIMESTAMP,
  limited BOOLEAN,
  latest_networks VARCHAR[],
  latest_mainnet BOOLEAN,
  latest_observed_at TIMESTAMP,
  computed_at TIMESTAMP
);

-- Every payment-term change of a discovered x402 service (all time up to the compute instant).
CREATE TABLE terms_changes (
  service_id VARCHAR NOT NULL,
  changed_at TIMESTAMP NOT NULL,
  kinds VARCHAR[] NOT NULL
);

CREATE TABLE service_derived (
  service_id VARCHAR NOT NULL,
  price_usd DOUBLE,
  max_price_usd DOUBLE,                   -- since 022 (which adds it to a database made before it)
  price_source VARCHAR,
  networks VARCHAR[],
  networks_source VARCHAR,
  mainnet BOOLEAN,
  provider_endpoints INTEGER,
  templated_url BOOLEAN,
  computed_at TIMESTAMP
);
