-- 001_core: the public tables of the Atlas database. Timestamps are TIMESTAMP in UTC.
-- Column names follow the API's field names (docs/api.md) where a field exists (docs/research-guide.md, "Tables and views").

CREATE TABLE services (
  id VARCHAR PRIMARY KEY,                 -- svc_<slug> (reviewed) or cand_<hash> (discovered)
  tier VARCHAR NOT NULL,                  -- reviewed | discovered
  type VARCHAR NOT NULL,                  -- api_endpoint | task_marketplace | mcp_server
  name VARCHAR NOT NULL,
  name_source VARCHAR NOT NULL,           -- atlas | registry
  host VARCHAR NOT NULL,
  url VARCHAR NOT NULL,                   -- URL of the scheduled (primary) check
  method VARCHAR NOT NULL,
  templated_url BOOLEAN NOT NULL DEFAULT false,
  operator VARCHAR,
  category VARCHAR,
  tags VARCHAR[] NOT NULL DEFAULT [],
  description VARCHAR,                    -- registry text is sanitized third-party text
  listed BOOLEAN NOT NULL DEFAULT true,   -- discovered: still listed by its registry; reviewed: always true
  active BOOLEAN NOT NULL DEFAULT true,   -- reviewed: listing is active
  registry VARCHAR,                       -- registry name for discovered services
  registry_key VARCHAR,                   -- the registry's key: resource URL (x402) or server name + remote URL (mcp)
  protocol VARCHAR,                       -- x402 | mcp | none
  x402_version INTEGER,                   -- registry-declared protocol version
  first_seen_at TIMESTAMP,                -- discovered: first seen in the registry
  last_seen_at TIMESTAMP,                 -- discovered: last seen listed
  unlisted_at TIMESTAMP,                  -- discovered: when it went missing (null while listed)
  approved_at TIMESTAMP,                  -- reviewed: when the check was approved
  monitoring_since TIMESTAMP NOT NULL,    -- reviewed: approved_at; discovered: first_seen_at
  registry_updated_at TIMESTAMP,          -- registry's lastUpdated / updatedAt
  registry_calls_30d BIGINT,
  registry_payers_30d BIGINT,
  registry_last_called_at TIMESTAMP,
  registry_price_usd DOUBLE,              -- lowest amount on a known USD stablecoin in the registry's terms
  registry_networks VARCHAR[] NOT NULL DEFAULT [],  -- CAIP-2 where known
  operator_price_usd DOUBLE,              -- reviewed: operator's stated price (a claim)
  operator_networks VARCHAR[] NOT NULL DEFAULT [],  -- reviewed: stated payment rails (claims)
  mcp_status VARCHAR,                     -- MCP registry status: active | deprecated | deleted
  mcp_server_name VARCHAR,
  remote_type VARCHAR,                    -- streamable-http | sse
  claims JSON,                            -- reviewed: operator claims with source URLs
  documentation_urls VARCHAR[] NOT NULL DEFAULT [],
  registry_raw JSON,                      -- the registry item as received (sanitized strings), for researchers
  listing_file VARCHAR,                   -- reviewed: path of the listing file
  created_at TIMESTAMP NOT NULL,
  updated_at TIMESTAMP NOT NULL
);

-- Each separately monitored operation (a primary call, a documentation page).
CREATE TABLE operations (
  service_id VARCHAR NOT NULL,
  id VARCHAR NOT NULL,                    -- e.g. primary, docs
  kind VARCHAR NOT NULL,                  -- call | documentation
  is_primary BOOLEAN NOT NULL,
  url VARCHAR NOT NULL,
  method VARCHAR NOT NULL,
  expected_statuses INTEGER[],            -- reviewed: statuses that pass; null for rule-based operations
  pass_rule VARCHAR NOT NULL,             -- reviewed/1 | x402-mainnet/1 | mcp-reach/3
  interval_hours INTEGER NOT NULL,        -- interval in force now (history in interval_changes)
  enabled BOOLEAN NOT NULL DEFAULT true,
  PRIMARY KEY (service_id, id)
);

-- Every check that ran. One row per (service_id, operation, slot): the writer never inserts a second.
CREATE TABLE checks (
  service_id VARCHAR NOT NULL,
  operation VARCHAR NOT NULL,
  slot TIMESTAMP NOT NULL,                -- the scheduled slot this check fills
  checked_at TIMESTAMP NOT NULL,
  status INTEGER,                         -- HTTP status, null when none
  passed BOOLEAN NOT NULL,
  reason VARCHAR NOT NULL,                -- reason code (ok, status_not_expected, testnet_only, timeout, ...)
  rule VARCHAR NOT NULL,                  -- pass rule id
  latency_ms DOUBLE,                      -- to end of body (or abort)
  ttfb_ms DOUBLE,                         -- to first byte
  run_id VARCHAR,
  url VARCHAR,
  method VARCHAR,
  bytes INTEGER,
  detail VARCHAR                          -- short, client-safe detail of the verdict
);

-- Observations of valid x402 payment requests (reviewed or discovered), normalized.
CREATE TABLE payment_terms (
  service_id VARCHAR NOT NULL,
  operation VARCHAR NOT NULL,
  slot TIMESTAMP NOT NULL,
  observed_at TIMESTAMP NOT NULL,
  x402_version INTEGER NOT NULL,
  offers JSON NOT NULL,                   -- sorted [{scheme, network, asset, amount, pay_to_hash, max_timeout_seconds}]
  terms_hash VARCHAR NOT NULL,            -- hash of the canonical offers and version: equal hash = unchanged terms
  networks VARCHAR[] NOT NULL,            -- sorted distinct CAIP-2 networks
  schemes VARCHAR[] NOT NULL,             -- sorted distinct
  assets VARCHAR[] NOT NULL,              -- sorted distinct 'network|asset' (asset lower-cased on EVM)
  pay_to_hashes VARCHAR[] NOT NULL,       -- sorted distinct salted hashes; addresses are never stored
  amounts VARCHAR[] NOT NULL,             -- sorted 'scheme|network|asset=amount'
  timeouts INTEGER[] NOT NULL,            -- sorted distinct maxTimeoutSeconds
  min_price_usd DOUBLE                    -- lowest USD price among offers on known stablecoins
);

-- Every change of a check interval (rule schedule/1).
CREATE TABLE interval_changes (
  service_id VARCHAR NOT NULL,
  operation VARCHAR NOT NULL,
  changed_at TIMESTAMP NOT NULL,
  from_hours INTEGER,                     -- null for the first interval
  to_hours INTEGER NOT NULL,
  rule VARCHAR NOT NULL,                  -- schedule/1
  reason VARCHAR NOT NULL                 -- reviewed_fixed | new_until_third_probe | payers_100_plus | payers_5_to_99 | payers_under_5 | all_failed_14d | unlisted_7d
);

-- Listing and delisting by registries, with times.
CREATE TABLE listing_events (
  service_id VARCHAR NOT NULL,
  event_at TIMESTAMP NOT NULL,
  listed BOOLEAN NOT NULL,
  registry VARCHAR,
  reason VARCHAR                          -- first_seen | missing_from_sweep | relisted | deleted_status | status_active
);

-- The service's own runs (probe, compute, publish, ingest_*, docs, report, cycle).
CREATE TABLE runs (
  id VARCHAR PRIMARY KEY,
  kind VARCHAR NOT NULL,
  scheduled_at TIMESTAMP,                 -- the slot the run was due for, when scheduled
  started_at TIMESTAMP NOT NULL,
  finished_at TIMESTAMP,
  status VARCHAR NOT NULL,                -- running | ok | partial | failed
  counts JSON,
  error VARCHAR,
  args JSON
);

-- Directory membership per evaluation (rule listing-criteria/N).
CREATE TABLE directory (
  evaluated_at TIMESTAMP NOT NULL,
  service_id VARCHAR NOT NULL,
  in_directory BOOLEAN NOT NULL,
  rule VARCHAR NOT NULL,                  -- listing-criteria/1
  scope VARCHAR NOT NULL,                 -- changed | full
  criteria JSON NOT NULL                  -- [{id, name, applies, passed, value}]
);

-- Reviewed services' documentation snapshots and detected changes.
CREATE TABLE doc_snapshots (
  service_id VARCHAR NOT NULL,
  url VARCHAR NOT NULL,
  fetched_at TIMESTAMP NOT NULL,
  content_hash VARCHAR NOT NULL,
  content VARCHAR NOT NULL                -- normalized text
);

CREATE TABLE changes (
  id VARCHAR PRIMARY KEY,
  service_id VARCHAR NOT NULL,
  url VARCHAR NOT NULL,
  detected_at TIMESTAMP NOT NULL,
  previous_hash VARCHAR,
  current_hash VARCHAR NOT NULL,
  summary VARCHAR NOT NULL,
  added_lines INTEGER NOT NULL,
  removed_lines INTEGER NOT NULL,
  diff JSON NOT NULL,                     -- bounded: [{op: '+'|'-', line}]
  needs_review BOOLEAN NOT NULL,
  review_terms VARCHAR[] NOT NULL DEFAULT []
);

CREATE TABLE reports (
  week DATE PRIMARY KEY,                  -- the Monday (UTC) that starts the week
  frozen_at TIMESTAMP NOT NULL,
  body JSON NOT NULL                      -- the frozen report, never changed
);

CREATE TABLE report_corrections (
  week DATE NOT NULL,
  seq INTEGER NOT NULL,
  corrected_at TIMESTAMP NOT NULL,
  note VARCHAR NOT NULL,
  figures JSON NOT NULL,                  -- {path: value}
  PRIMARY KEY (week, seq)
);

-- Writes taken by the server (loaded from data/inbox by `atlas ingest inbox`; idempotent by id).
CREATE TABLE outcomes (
  id VARCHAR PRIMARY KEY,
  key_id VARCHAR NOT NULL,
  idempotency_key VARCHAR NOT NULL,
  service_id VARCHAR,
  referral_id VARCHAR,
  outcome VARCHAR NOT NULL,
  failure_kind VARCHAR,
  operation VARCHAR,
  task_category VARCHAR,
  reported_at TIMESTAMP,
  received_at TIMESTAMP NOT NULL,
  moderation VARCHAR NOT NULL DEFAULT 'pending'
);

CREATE TABLE feedback (
  id VARCHAR PRIMARY KEY,
  kind VARCHAR NOT NULL,
  note VARCHAR,
  about VARCHAR,
  contact VARCHAR,
  received_at TIMESTAMP NOT NULL,
  address_hash VARCHAR
);

CREATE TABLE keys (
  key_id VARCHAR PRIMARY KEY,
  key_hash VARCHAR NOT NULL,              -- hash only; the key value is shown once and never stored
  label VARCHAR,
  contact VARCHAR,
  created_at TIMESTAMP NOT NULL,
  address_hash VARCHAR
);

-- Registry sync state (MCP updated_since, x402 last complete sweep).
CREATE TABLE sync_state (
  source VARCHAR PRIMARY KEY,             -- '<kind>:<registry name>'
  last_sync_at TIMESTAMP,
  last_complete_at TIMESTAMP,
  detail JSON
);
