-- 030_compute: computed evidence (spec 2.3, 2.4, 3; DESIGN.md "Rules that the spec leaves to us").
-- Everything here is SQL over the raw tables (services, operations, checks, payment_terms,
-- interval_changes) evaluated at one instant: atlas_compute_now() reads the session variable
-- atlas_now (`SET VARIABLE atlas_now = TIMESTAMP '…'`), falling back to the wall clock when unset.
-- Rows dated after that instant are ignored, so a simulated clock can replay any moment.
-- `atlas compute` materializes the views into the tables below (publish reads the tables).

CREATE MACRO atlas_compute_now() AS coalesce(getvariable('atlas_now')::TIMESTAMP, now()::TIMESTAMP);

-- Interval name of a number of hours (spec 2.3 check_interval): hourly 1, daily 24, weekly 168, monthly 720.
CREATE MACRO atlas_interval_name(h) AS CASE h WHEN 1 THEN 'hourly' WHEN 24 THEN 'daily' WHEN 168 THEN 'weekly' WHEN 720 THEN 'monthly' END;

-- ISO-8601 UTC text of a TIMESTAMP (for JSON members).
CREATE MACRO atlas_iso(t) AS strftime(t, '%Y-%m-%dT%H:%M:%S.%gZ');

-- Payment network ids known to Atlas (pipeline/x402/networks.ts; CAIP-2 ids, v1 names and aliases).
-- Refreshed by every `atlas compute` from the code's table. An id not listed is unknown: never mainnet.
CREATE TABLE networks (
  id VARCHAR PRIMARY KEY,
  caip2 VARCHAR NOT NULL,
  mainnet BOOLEAN NOT NULL
);

-- ---------------------------------------------------------------------------------------------------
-- Per-operation figures from the raw checks at the compute instant (one pass over `checks`):
--   probes                  checks that ever ran (checked_at <= now)
--   checks_30d / passed_30d checks in [now - 30d, now] (and of those, passed)
--   last_at                 time of the latest check
--   last_pass_at            time of the latest passing check
--   last_at_before_14d      time of the latest check at or before now - 14d
-- `atlas compute` reads this once into a temporary table of the same name (which shadows this view
-- for its connection), so schedule_targets and evidence_30d share one scan of the check table.
CREATE VIEW check_aggregates AS
SELECT c.service_id, c.operation,
  count(*) AS probes,
  count(*) FILTER (WHERE c.checked_at >= atlas_compute_now() - INTERVAL 30 DAY) AS checks_30d,
  count(*) FILTER (WHERE c.checked_at >= atlas_compute_now() - INTERVAL 30 DAY AND c.passed) AS passed_30d,
  max(c.checked_at) AS last_at,
  max(c.checked_at) FILTER (WHERE c.passed) AS last_pass_at,
  max(c.checked_at) FILTER (WHERE c.checked_at <= atlas_compute_now() - INTERVAL 14 DAY) AS last_at_before_14d
FROM checks c
WHERE c.checked_at <= atlas_compute_now()
GROUP BY c.service_id, c.operation;

-- ---------------------------------------------------------------------------------------------------
-- Check intervals, rule schedule/1 (spec section 3). One row per operation: the interval the rule
-- gives now and why. First matching line wins:
--   reviewed service             → fixed: call operations hourly (1), documentation daily (24)  reviewed_fixed
--   discovered, not listed by its registry for 7 days (unlisted_at <= now - 7d)  → monthly      unlisted_7d
--   discovered, every probe failed for 14 days: there is a probe at or before now - 14d and every
--     probe since the latest of those failed (no pass at or after it)            → monthly      all_failed_14d
--   discovered, fewer than 3 probes so far                                       → daily        new_until_third_probe
--   discovered, registry payers in 30 days >= 100                                → hourly       payers_100_plus
--   discovered, 5..99                                                            → daily        payers_5_to_99
--   discovered, fewer than 5 or unknown                                          → weekly       payers_under_5
-- The monthly lines stop applying as soon as their condition clears (a probe passes, the service is
-- listed again), and the service moves back by the lines below them.
CREATE VIEW schedule_targets AS
WITH p AS (SELECT atlas_compute_now() AS now),
decided AS (
  SELECT o.service_id, o.id AS operation, o.interval_hours AS current_hours,
    CASE
      WHEN s.tier = 'reviewed' THEN 'reviewed_fixed'
      WHEN NOT o.is_primary THEN NULL
      WHEN NOT s.listed AND s.unlisted_at <= p.now - INTERVAL 7 DAY THEN 'unlisted_7d'
      WHEN h.last_at_before_14d IS NOT NULL AND coalesce(h.last_pass_at < h.last_at_before_14d, true) THEN 'all_failed_14d'
      WHEN coalesce(h.probes, 0) < 3 THEN 'new_until_third_probe'
      WHEN s.registry_payers_30d >= 100 THEN 'payers_100_plus'
      WHEN s.registry_payers_30d >= 5 THEN 'payers_5_to_99'
      ELSE 'payers_under_5'
    END AS reason,
    o.kind
  FROM operations o
  JOIN services s ON s.id = o.service_id
  LEFT JOIN check_aggregates h ON h.service_id = o.service_id AND h.operation = o.id, p
)
SELECT service_id, operation, current_hours,
  CASE reason
    WHEN 'reviewed_fixed' THEN CASE WHEN kind = 'documentation' THEN 24 ELSE 1 END
    WHEN 'unlisted_7d' THEN 720
    WHEN 'all_failed_14d' THEN 720
    WHEN 'new_until_third_probe' THEN 24
    WHEN 'payers_100_plus' THEN 1
    WHEN 'payers_5_to_99' THEN 24
    WHEN 'payers_under_5' THEN 168
    ELSE current_hours
  END AS target_hours,
  'schedule/1' AS rule,
  reason
FROM decided;

-- ---------------------------------------------------------------------------------------------------
-- Evidence per service over 30 days (spec 2.3). Counted operations: every operation of a reviewed
-- service, the primary operation of a discovered one.
--   checks_30d / passed_30d: checks with now - 30d <= checked_at <= now (view check_aggregates).
--   missed_30d (DESIGN.md): per operation, for each stretch with one interval in force (history in
--     interval_changes), expected = floor(stretch length / interval), the stretch clipped to the
--     30-day window and to the monitoring period (from monitoring_since); missed = max(0, sum of
--     expected - checks that ran), summed over operations. Disabled operations expect nothing.
--   pass_rate: passed_30d / checks_30d, null without checks.
--   freshness, last_check, latest_passed: from the primary operation's latest check and its current
--     interval: fresh when now - latest <= 2 intervals, stale when older, no_data when never checked.
--   limited_evidence: monitoring_since later than now - 30d.
CREATE VIEW evidence_30d AS
WITH p AS (SELECT atlas_compute_now() AS now),
ops AS (
  SELECT o.service_id, o.id AS operation, o.is_primary, o.enabled, o.interval_hours, s.monitoring_since,
    greatest(s.monitoring_since, p.now - INTERVAL 30 DAY) AS window_start, p.now
  FROM operations o JOIN services s ON s.id = o.service_id, p
  WHERE s.tier = 'reviewed' OR o.is_primary
),
ic AS (
  SELECT i.service_id, i.operation, i.changed_at, i.from_hours, i.to_hours,
    row_number() OVER w AS rn,
    lead(i.changed_at) OVER w AS next_at
  FROM interval_changes i, p
  WHERE i.changed_at <= p.now
  WINDOW w AS (PARTITION BY i.service_id, i.operation ORDER BY i.changed_at, (i.from_hours IS NULL) DESC)
),
stretches AS (
  -- each recorded interval, in force from its change to the next change (or now)
  SELECT service_id, operation, changed_at AS start_at, next_at AS end_at, to_hours AS hours FROM ic
  UNION ALL
  -- before the first recorded change (or with no history at all): the interval it changed from,
  -- else the first recorded interval, else the interval in force now
  SELECT o.service_id, o.operation, o.monitoring_since, f.changed_at, coalesce(f.from_hours, f.to_hours, o.interval_hours)
  FROM ops o LEFT JOIN ic f ON f.service_id = o.service_id AND f.operation = o.operation AND f.rn = 1
),
expected AS (
  SELECT o.service_id, o.operation,
    sum(CASE WHEN o.enabled AND st.hours > 0 THEN
      floor(greatest(0, epoch(least(coalesce(st.end_at, o.now), o.now)) - epoch(greatest(st.start_at, o.window_start))) / (st.hours * 3600))
    ELSE 0 END)::BIGINT AS expected_30d
  FROM ops o JOIN stretches st ON st.service_id = o.service_id AND st.operation = o.operation
  GROUP BY ALL
),
ran AS (
  SELECT a.service_id, a.operation, a.checks_30d, a.passed_30d, a.last_at
  FROM check_aggregates a JOIN ops o ON o.service_id = a.service_id AND o.operation = a.operation
),
per_op AS (
  SELECT o.*, coalesce(r.checks_30d, 0) AS checks_30d, coalesce(r.passed_30d, 0) AS passed_30d,
    greatest(0, coalesce(e.expected_30d, 0) - coalesce(r.checks_30d, 0)) AS missed_30d, r.last_at
  FROM ops o
  LEFT JOIN expected e ON e.service_id = o.service_id AND e.operation = o.operation
  LEFT JOIN ran r ON r.service_id = o.service_id AND r.operation = o.operation
),
per_service AS (
  SELECT service_id,
    count(*) FILTER (WHERE enabled) AS operations,
    sum(checks_30d) AS checks_30d, sum(passed_30d) AS passed_30d, sum(missed_30d) AS missed_30d,
    any_value(operation) FILTER (WHERE is_primary) AS primary_operation,
    max(interval_hours) FILTER (WHERE is_primary) AS primary_hours,
    max(last_at) FILTER (WHERE is_primary) AS last_at
  FROM per_op GROUP BY ALL
),
last_row AS (
  SELECT c.service_id, c.operation, c.checked_at, c.status, c.passed, c.reason, c.latency_ms, c.rule
  FROM checks c JOIN per_service ps ON ps.service_id = c.service_id AND ps.primary_operation = c.operation AND ps.last_at = c.checked_at
  QUALIFY row_number() OVER (PARTITION BY c.service_id ORDER BY c.slot DESC) = 1
)
SELECT s.id AS service_id,
  coalesce(ps.operations, 0)::INTEGER AS operations,
  ps.primary_hours::INTEGER AS check_interval_hours,
  atlas_interval_name(ps.primary_hours) AS check_interval,
  'schedule/1' AS check_interval_rule,
  s.monitoring_since,
  round(greatest(0, epoch(p.now) - epoch(s.monitoring_since)) / 86400, 3)::DOUBLE AS monitoring_days,
  s.monitoring_since > p.now - INTERVAL 30 DAY AS limited_evidence,
  coalesce(ps.checks_30d, 0)::INTEGER AS checks_30d,
  coalesce(ps.passed_30d, 0)::INTEGER AS passed_30d,
  coalesce(ps.missed_30d, 0)::INTEGER AS missed_30d,
  CASE WHEN coalesce(ps.checks_30d, 0) > 0 THEN ps.passed_30d / ps.checks_30d END::DOUBLE AS pass_rate,
  CASE
    WHEN ps.last_at IS NULL THEN 'no_data'
    WHEN epoch(p.now) - epoch(ps.last_at) <= 2 * ps.primary_hours * 3600 THEN 'fresh'
    ELSE 'stale'
  END AS freshness,
  ps.last_at AS last_check_at,
  CASE WHEN lr.service_id IS NOT NULL THEN to_json({
    'checked_at': atlas_iso(lr.checked_at), 'operation': lr.operation, 'status': lr.status, 'passed': lr.passed,
    'reason': lr.reason, 'latency_ms': lr.latency_ms, 'rule': lr.rule}) END AS last_check,
  lr.passed AS latest_passed
FROM services s
CROSS JOIN p
LEFT JOIN per_service ps ON ps.service_id = s.id
LEFT JOIN last_row lr ON lr.service_id = s.id;

-- ---------------------------------------------------------------------------------------------------
-- Payment-term observations of the primary operation (discovered services have exactly one,
-- id 'primary') up to now, each with the previous valid observation (LAG by observed_at). Only valid
-- payment requests are rows of payment_terms, so a probe without one neither counts as a change nor
-- resets the history. is_change: terms_hash differs from the previous valid observation's.
CREATE VIEW terms_observations AS
SELECT t.service_id, t.operation, t.slot, t.observed_at, t.terms_hash, prev_hash, prev_slot,
  prev_hash IS NOT NULL AND t.terms_hash <> prev_hash AS is_change
FROM (
  SELECT *, lag(terms_hash) OVER w AS prev_hash, lag(slot) OVER w AS prev_slot
  FROM payment_terms
  WHERE operation = 'primary' AND observed_at <= atlas_compute_now()
  WINDOW w AS (PARTITION BY service_id ORDER BY observed_at, slot)
) t;

-- Per service: the span of valid observations of the primary operation up to now, and whether the
-- terms varied at all. `atlas compute` reads this once into a temporary table of the same name
-- (shadowing this view for its connection), shared by terms_change_events and terms_90d.
CREATE VIEW terms_spans AS
SELECT service_id, operation, min(observed_at) AS first_at, max(observed_at) AS latest_at,
  min(terms_hash) <> max(terms_hash) AS varied
FROM payment_terms
WHERE operation = 'primary' AND observed_at <= atlas_compute_now()
GROUP BY service_id, operation;

-- Every change of payment terms, classified (DESIGN.md) by comparing the observation with the
-- previous valid one; one or more of:
--   price            an amount differs for a (scheme, network, asset) offered in both
--   network_added    a network offered now that was not before
--   network_removed  a network offered before that is not now
--   asset            on a network offered in both, the set of assets differs
--   pay_to           the set of receiving-address hashes differs
--   scheme           the set of schemes differs
--   version          the x402 protocol version differs
--   other            the timeout differs, or the hash differs for no reason above
-- `atlas compute` reads this once into a temporary table of the same name (shadowing this view for
-- its connection): the rows of `terms_changes` and the input of terms_90d.
-- Same comparison as terms_observations, run only over services whose terms varied at all
-- (terms_spans.varied): a service with one set of terms has no change to find.
CREATE VIEW terms_change_events AS
WITH varying AS (SELECT service_id FROM terms_spans WHERE varied),
obs AS (
  SELECT t.service_id, t.observed_at, t.terms_hash, t.x402_version, t.networks, t.schemes, t.assets, t.pay_to_hashes, t.amounts, t.timeouts,
    lag(t.terms_hash) OVER w AS prev_hash,
    lag(t.x402_version) OVER w AS prev_version,
    lag(t.networks) OVER w AS prev_networks,
    lag(t.schemes) OVER w AS prev_schemes,
    lag(t.assets) OVER w AS prev_assets,
    lag(t.pay_to_hashes) OVER w AS prev_pay_to_hashes,
    lag(t.amounts) OVER w AS prev_amounts,
    lag(t.timeouts) OVER w AS prev_timeouts
  FROM payment_terms t SEMI JOIN varying v ON v.service_id = t.service_id
  WHERE t.operation = 'primary' AND t.observed_at <= atlas_compute_now()
  WINDOW w AS (PARTITION BY t.service_id ORDER BY t.observed_at, t.slot)
),
pairs AS (
  SELECT o.*, o.observed_at AS changed_at
  FROM obs o JOIN services s ON s.id = o.service_id AND s.tier = 'discovered'
  WHERE o.prev_hash IS NOT NULL AND o.terms_hash <> o.prev_hash
),
classified AS (
  SELECT *,
    list_filter([
      CASE WHEN len(list_filter(amounts, a -> NOT list_contains(prev_amounts, a)
              AND list_contains(list_transform(prev_amounts, b -> split_part(b, '=', 1)), split_part(a, '=', 1)))) > 0 THEN 'price' END,
      CASE WHEN len(list_filter(networks, n -> NOT list_contains(prev_networks, n))) > 0 THEN 'network_added' END,
      CASE WHEN len(list_filter(prev_networks, n -> NOT list_contains(networks, n))) > 0 THEN 'network_removed' END,
      CASE WHEN len(list_filter(assets, a -> list_contains(prev_networks, split_part(a, '|', 1)) AND NOT list_contains(prev_assets, a))) > 0
             OR len(list_filter(prev_assets, a -> list_contains(networks, split_part(a, '|', 1)) AND NOT list_contains(assets, a))) > 0 THEN 'asset' END,
      CASE WHEN pay_to_hashes <> prev_pay_to_hashes THEN 'pay_to' END,
      CASE WHEN schemes <> prev_schemes THEN 'scheme' END,
      CASE WHEN x402_version <> prev_version THEN 'version' END
    ], k -> k IS NOT NULL) AS specific_kinds
  FROM pairs
)
SELECT service_id, changed_at,
  CASE WHEN len(specific_kinds) = 0 OR timeouts <> prev_timeouts THEN list_append(specific_kinds, 'other') ELSE specific_kinds END AS kinds
FROM classified;

-- Payment terms over 90 days per discovered service with at least one valid observation (spec 2.4).
--   current_since       the first observation of the current terms: the last change, else the first observation
--   changes_30d / _90d  changes with observed_at in (now - 30d, now] / (now - 90d, now]
--   pay_to_changes_90d  changes in 90 days whose kinds include pay_to
--   last_change_at / last_change_kinds  the latest change ever observed ([] when none)
--   window_start        max(first observation, now - 90d)
--   limited             tracking (since the first valid observation) has run less than 90 days
--   latest_*            the latest valid observation; latest_mainnet: it offers a known mainnet (table networks)
CREATE VIEW terms_90d AS
WITH p AS (SELECT atlas_compute_now() AS now),
mainnet_ids AS (SELECT coalesce(list(id), []) AS ids FROM networks WHERE mainnet),
span AS (
  SELECT a.service_id, a.operation, a.first_at, a.latest_at
  FROM terms_spans a JOIN services s ON s.id = a.service_id AND s.tier = 'discovered'
),
latest AS (
  SELECT t.service_id, t.networks
  FROM payment_terms t JOIN span ON span.service_id = t.service_id AND span.operation = t.operation AND span.latest_at = t.observed_at
  QUALIFY row_number() OVER (PARTITION BY t.service_id ORDER BY t.slot DESC) = 1
),
ch AS (
  SELECT c.service_id,
    count(*) FILTER (WHERE c.changed_at > p.now - INTERVAL 30 DAY) AS changes_30d,
    count(*) FILTER (WHERE c.changed_at > p.now - INTERVAL 90 DAY) AS changes_90d,
    count(*) FILTER (WHERE c.changed_at > p.now - INTERVAL 90 DAY AND list_contains(c.kinds, 'pay_to')) AS pay_to_changes_90d,
    max(c.changed_at) AS last_change_at,
    arg_max(c.kinds, c.changed_at) AS last_change_kinds
  FROM terms_change_events c, p
  GROUP BY ALL
)
SELECT span.service_id,
  coalesce(ch.last_change_at, span.first_at) AS current_since,
  coalesce(ch.changes_30d, 0)::INTEGER AS changes_30d,
  coalesce(ch.changes_90d, 0)::INTEGER AS changes_90d,
  coalesce(ch.pay_to_changes_90d, 0)::INTEGER AS pay_to_changes_90d,
  ch.last_change_at,
  coalesce(ch.last_change_kinds, []::VARCHAR[]) AS last_change_kinds,
  greatest(span.first_at, p.now - INTERVAL 90 DAY) AS window_start,
  span.first_at > p.now - INTERVAL 90 DAY AS limited,
  l.networks AS latest_networks,
  list_has_any(l.networks, (SELECT ids FROM mainnet_ids)) AS latest_mainnet,
  span.latest_at AS latest_observed_at
FROM span CROSS JOIN p
LEFT JOIN ch ON ch.service_id = span.service_id
LEFT JOIN latest l ON l.service_id = span.service_id;

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
  price_source VARCHAR,
  networks VARCHAR[],
  networks_source VARCHAR,
  mainnet BOOLEAN,
  provider_endpoints INTEGER,
  templated_url BOOLEAN,
  computed_at TIMESTAMP
);

-- Latest directory evaluation per service (rule listing-criteria/1; history in `directory`).
-- Every full evaluation covers every tracked service, so the latest one per service is at or after
-- the last full evaluation: only that tail of the (append-only) history is read.
CREATE VIEW directory_current AS
SELECT service_id, evaluated_at, in_directory, rule, scope, criteria
FROM directory
WHERE evaluated_at >= (SELECT coalesce(max(evaluated_at), TIMESTAMP '1970-01-01') FROM directory WHERE scope = 'full')
QUALIFY row_number() OVER (PARTITION BY service_id ORDER BY evaluated_at DESC) = 1;
