-- rules.sql: the one home of every rule that produces a published figure (docs/CONTRACTS.md "Rules").
--
-- Not a migration: this file holds no table. Every statement is CREATE OR REPLACE, and the whole file
-- runs each time the database is opened (pipeline/store/rules.ts): after the migrations on a
-- read-write open, as TEMP definitions (visible to that connection only, shadowing the persisted ones)
-- on a read-only open. So a database always answers with the rules of the code that opened it, and
-- an old database's definitions are replaced, never left behind.
--
-- Rule                                    Home (macro / view)                      Used by
-- check kind (reviewed / x402 / mcp)      atlas_check_kind(rule)                   stats, weekly reports
-- freshness                               atlas_freshness(last, hours, at)         evidence_30d, status; the server
--                                                                                   evaluates the same rule in
--                                                                                   site/contract/freshness.ts (tested equal)
-- operations counted in evidence          atlas_counted_operations                 expected checks
-- activity periods (listed, active,       atlas_activity_stretches(hi)             expected checks, checks that
--   enabled over time)                                                              ran while inactive
-- state at an instant (listed, active,    atlas_activity_as_of(t)                  researchers (`atlas sql`)
--   enabled, intervals)
-- expected checks (per operation)         atlas_expected_checks(lo, hi)            evidence_30d, weekly reports
-- checks that ran while inactive          atlas_inactive_checks(lo, hi)            missed checks
-- missed checks                           atlas_missed(expected, ran)              evidence_30d, weekly reports
-- pass rate                               atlas_pass_rate(passed, ran)             evidence_30d, weekly reports
-- report window [lo, hi)                 atlas_in_window(t, lo, hi)               weekly reports
-- checks in a report window               atlas_window_checks(lo, hi),             weekly reports
--                                         atlas_operation_checks(lo, hi)
-- checks in the 30-day evidence window    check_aggregates (at atlas_compute_now)  evidence_30d, schedule_targets
-- check interval (schedule/1)             schedule_targets                         compute (schedule)
-- when a check is due in its slot         atlas_due_offset_ms(service, op, h, step) the probe's due list
-- declared against observed terms        atlas_declared_differing(...),            declared_differences,
--   (declared-terms/1)                    atlas_declared_points(hi),                declared_comparisons (compute);
--                                         atlas_declared_differences(hi),           weekly reports, verify
--                                         atlas_declared_state(hi)
-- payment-term change kinds               atlas_terms_change_events(hi)            terms_change_events (compute),
--                                                                                   weekly reports
-- price and networks with their sources   atlas_price_networks(hi)                 service_derived (compute);
--                                                                                   publish reads service_derived
-- networks source when none is known      atlas_unknown_networks_source(tier)      atlas_price_networks; publish
--                                                                                   (before the first compute)
-- provider endpoints (services per host)  atlas_provider_endpoints                 atlas_price_networks; publish
-- monitoring days                         atlas_monitoring_days(since, at)         evidence_30d; the server evaluates
--                                                                                   the same rule at data_as_of in
--                                                                                   site/contract/monitoring.ts (tested equal)
-- limited evidence                        atlas_limited_evidence(since, at)        evidence_30d; publish (before
--                                                                                   the first compute)
-- interval name of hours                  atlas_interval_name(h)                   evidence_30d, weekly reports
-- listing criteria (listing-criteria/1)   listing_criteria (at atlas_compute_now)  compute (directory); publish and
--                                                                                   the server read its results
-- directory membership at an instant      directory_current, atlas_directory_as_of  publish, stats; weekly reports,
--                                                                                   verify
-- all checks, live and archived           checks_all, atlas_archived_checks        researchers (`atlas sql`), report
--                                                                                   windows (atlas_window_checks)
-- daily check aggregates                  atlas_check_daily(lo, hi)                table check_daily (compute)
-- signed offers (offer-receipt) of the    atlas_signed_offers_as_of(hi),           signed_offers_summary and
--   latest valid payment request, and     atlas_signed_offer_events(hi)            signed_offer_events (compute);
--   their terms-differ events                                                      verify, weekly reports
-- moderation state of outcome reports     atlas_outcome_state_as_of(hi),           weekly reports, verify; publish
--                                         atlas_outcome_counts(hi),                (service detail, moderation index),
--                                         outcome_moderation_current               `atlas moderate`
-- receipt state of outcome reports        atlas_outcome_state_as_of(hi)            the same (verdicts: outcome_receipt_checks,
--   (outcome-receipt/1)                     .receipt_state                           made by `atlas ingest inbox`)
-- catalog presence at an instant          atlas_catalog_presence_as_of(hi)         catalog_standing
-- listed but failing / passing but        atlas_listed_but_failing,                catalog_standing (compute:
--   unlisted                              atlas_passing_but_unlisted,              service_catalog_standing);
--                                         catalog_standing                         publish, verify
-- catalog listing and unlisting events    atlas_catalog_events(hi)                 change feed, weekly reports,
--                                                                                   researchers
--
-- Time bounds are parameters: a caller passes its own instant or window (compute: the 30 days ending
-- at the compute instant; a weekly report: [week start, figures_until)). The researcher-facing views
-- (evidence_30d, terms_90d, …) read the instant from atlas_compute_now(), i.e. the session variable
-- atlas_now (`SET VARIABLE atlas_now = TIMESTAMP '…'`), falling back to the wall clock when unset.
-- Rows dated after the instant are ignored, so a simulated clock can replay any moment.

-- ---------------------------------------------------------------------------------------------------
-- Helpers

CREATE OR REPLACE MACRO atlas_compute_now() AS coalesce(getvariable('atlas_now')::TIMESTAMP, now()::TIMESTAMP);

-- Interval name of a number of hours (check_interval): hourly 1, daily 24, weekly 168, monthly 720.
CREATE OR REPLACE MACRO atlas_interval_name(h) AS CASE h WHEN 1 THEN 'hourly' WHEN 24 THEN 'daily' WHEN 168 THEN 'weekly' WHEN 720 THEN 'monthly' END;

-- ISO-8601 UTC text of a TIMESTAMP (for JSON members; what `Date#toISOString` writes).
CREATE OR REPLACE MACRO atlas_iso(t) AS strftime(t, '%Y-%m-%dT%H:%M:%S.%gZ');

-- ---------------------------------------------------------------------------------------------------
-- Rule: check kind. The kind of a check (by checks.rule) or of an operation (by operations.pass_rule)
-- is read from its pass-rule id: reviewed/N → reviewed, x402… (x402-mainnet/N) → x402, mcp… (mcp-reach/N)
-- → mcp, anything else → other.
CREATE OR REPLACE MACRO atlas_check_kind(rule_id) AS
  CASE WHEN rule_id LIKE 'reviewed/%' THEN 'reviewed' WHEN rule_id LIKE 'x402%' THEN 'x402' WHEN rule_id LIKE 'mcp%' THEN 'mcp' ELSE 'other' END;

-- ---------------------------------------------------------------------------------------------------
-- Rule: freshness at instant `at_instant`, from the time of the latest check and the interval in force:
--   no_data  never checked (or no interval known);
--   fresh    at_instant - latest_check_at <= 2 intervals (a check after the instant, i.e. clock
--            skew, counts as fresh);
--   stale    older.
-- Exact integer arithmetic in microseconds, so an age of exactly two intervals is fresh.
-- site/contract/freshness.ts is the same rule for the server's answer time (a test checks they agree).
CREATE OR REPLACE MACRO atlas_freshness(latest_check_at, every_hours, at_instant) AS
  CASE
    WHEN latest_check_at IS NULL OR every_hours IS NULL THEN 'no_data'
    WHEN epoch_us(at_instant) - epoch_us(latest_check_at) <= 2 * every_hours * 3600000000 THEN 'fresh'
    ELSE 'stale'
  END;

-- ---------------------------------------------------------------------------------------------------
-- Rule: operations counted in evidence: every operation of a reviewed service, the primary operation
-- of a discovered one. monitoring_since is the operation's own start of monitoring: when it was
-- created (operations.monitoring_since; an operation added to a monitored service later starts then),
-- never before its service's monitoring_since, and the service's when not recorded.
CREATE OR REPLACE VIEW atlas_counted_operations AS
SELECT o.service_id, o.id AS operation, o.is_primary, o.enabled, o.interval_hours, o.pass_rule, o.kind,
  s.tier, greatest(s.monitoring_since, coalesce(o.monitoring_since, s.monitoring_since)) AS monitoring_since
FROM operations o JOIN services s ON s.id = o.service_id
WHERE s.tier = 'reviewed' OR o.is_primary;

-- Rule: activity periods. An operation is active while its service is active and the operation is
-- enabled. `listed` is not part of it: a discovered service its registry stopped listing is still
-- probed on the schedule in force (schedule/1 moves it to monthly after 7 days unlisted), so its
-- checks are still expected; a reviewed service is always listed and goes inactive through `active`.
-- The states are kept as transitions (migration 005: service_activity, operation_activity; a row
-- holds the state from its `since` until the next row). One row per stretch of equal activity of
-- each counted operation, from its monitoring_since, with the transitions dated up to hi:
--   start_at, end_at  the stretch [start_at, end_at); end_at null: still running at hi
--   active            active AND enabled over the stretch
-- The state at an instant is the latest row at or before it; before a service's (operation's) first
-- row, that first row's state; with no row at all (rows written by older code or directly by
-- tests), the state in `services` / `operations` now, for all time.
CREATE OR REPLACE MACRO atlas_activity_stretches(hi) AS TABLE
WITH ops AS (
  SELECT c.service_id, c.operation, c.monitoring_since, s.active AS service_now, c.enabled AS operation_now
  FROM atlas_counted_operations c JOIN services s ON s.id = c.service_id
),
sa AS (SELECT service_id, since, active AS service_on FROM service_activity WHERE since <= hi),
oa AS (SELECT service_id, operation, since, enabled AS operation_on FROM operation_activity WHERE since <= hi),
sa_n AS (SELECT service_id, count(*) AS n, any_value(service_on) AS service_on FROM sa GROUP BY service_id),
oa_n AS (SELECT service_id, operation, count(*) AS n, any_value(operation_on) AS operation_on FROM oa GROUP BY service_id, operation),
-- most operations never changed (at most one row each for them and their service): one stretch
classed AS (
  SELECT o.*, coalesce(sn.n, 0) <= 1 AND coalesce(opn.n, 0) <= 1 AS steady,
    coalesce(sn.service_on, o.service_now) AND coalesce(opn.operation_on, o.operation_now) AS steady_active
  FROM ops o
  LEFT JOIN sa_n sn ON sn.service_id = o.service_id
  LEFT JOIN oa_n opn ON opn.service_id = o.service_id AND opn.operation = o.operation
),
changing AS (SELECT * FROM classed WHERE NOT steady),
-- the others: every transition of the operation or its service, and its start of monitoring (kind 0)
ev AS (
  SELECT service_id, operation, monitoring_since AS t, 0 AS kind, NULL::BOOLEAN AS service_on, NULL::BOOLEAN AS operation_on FROM changing
  UNION ALL
  SELECT o.service_id, o.operation, a.since, 1, a.service_on, NULL FROM changing o JOIN sa a ON a.service_id = o.service_id
  UNION ALL
  SELECT o.service_id, o.operation, a.since, 2, NULL, a.operation_on
  FROM changing o JOIN oa a ON a.service_id = o.service_id AND a.operation = o.operation
),
-- the state after each event: the latest service and operation rows so far, else the first ones,
-- else the state now; an event before the start of monitoring is dated at it
states AS (
  SELECT e.service_id, e.operation, greatest(e.t, o.monitoring_since) AS at_t,
    row_number() OVER w AS pos,
    coalesce(last_value(e.service_on IGNORE NULLS) OVER w, first_value(e.service_on IGNORE NULLS) OVER whole, o.service_now)
      AND coalesce(last_value(e.operation_on IGNORE NULLS) OVER w, first_value(e.operation_on IGNORE NULLS) OVER whole, o.operation_now)
      AS active
  FROM ev e JOIN changing o ON o.service_id = e.service_id AND o.operation = e.operation
  WINDOW w AS (PARTITION BY e.service_id, e.operation ORDER BY e.t, e.kind ROWS UNBOUNDED PRECEDING),
    whole AS (PARTITION BY e.service_id, e.operation ORDER BY e.t, e.kind ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
-- one state per instant: the one after every event at that instant
points AS (
  SELECT service_id, operation, at_t, active FROM states
  QUALIFY row_number() OVER (PARTITION BY service_id, operation, at_t ORDER BY pos DESC) = 1
),
islands AS (
  SELECT *, sum(starts::INTEGER) OVER (PARTITION BY service_id, operation ORDER BY at_t ROWS UNBOUNDED PRECEDING) AS island
  FROM (SELECT *, lag(active) OVER (PARTITION BY service_id, operation ORDER BY at_t) IS DISTINCT FROM active AS starts FROM points)
),
stretches AS (
  SELECT service_id, operation, island, min(at_t) AS start_at, any_value(active) AS active FROM islands GROUP BY ALL
)
SELECT service_id, operation, start_at,
  lead(start_at) OVER (PARTITION BY service_id, operation ORDER BY start_at) AS end_at, active
FROM stretches
UNION ALL
SELECT service_id, operation, monitoring_since, NULL::TIMESTAMP, steady_active FROM classed WHERE steady;

-- Rule: expected checks per counted operation in the window [lo, hi]. For each stretch with one
-- interval in force (history in interval_changes, changes up to hi; before the first recorded change,
-- the interval it changed from, else the first recorded interval, else the interval in force now; from
-- the operation's monitoring_since) and each active stretch (atlas_activity_stretches(hi)), expected =
-- floor(length of the two stretches' overlap clipped to the window and to the operation's monitoring
-- period / interval), summed. An operation expects nothing before it was monitored
-- (atlas_counted_operations.monitoring_since: an operation added to a listing later starts then, not
-- at the listing's approval), nor while it was inactive (a listing deactivated, an operation
-- disabled), and the periods on either side of an inactive one are counted
-- apart. An operation active throughout has one active stretch: the sum over the interval stretches.
CREATE OR REPLACE MACRO atlas_expected_checks(lo, hi) AS TABLE
WITH ops AS (SELECT * FROM atlas_counted_operations),
ic AS (
  SELECT i.service_id, i.operation, i.changed_at, i.from_hours, i.to_hours,
    row_number() OVER w AS rn,
    lead(i.changed_at) OVER w AS next_at
  FROM interval_changes i
  WHERE i.changed_at <= hi
  WINDOW w AS (PARTITION BY i.service_id, i.operation ORDER BY i.changed_at, (i.from_hours IS NULL) DESC)
),
stretches AS (
  -- each recorded interval, in force from its change to the next change (or hi)
  SELECT service_id, operation, changed_at AS start_at, next_at AS end_at, to_hours AS hours FROM ic
  UNION ALL
  -- before the first recorded change (or with no history at all)
  SELECT o.service_id, o.operation, o.monitoring_since, f.changed_at, coalesce(f.from_hours, f.to_hours, o.interval_hours)
  FROM ops o LEFT JOIN ic f ON f.service_id = o.service_id AND f.operation = o.operation AND f.rn = 1
),
act AS (SELECT * FROM atlas_activity_stretches(hi) WHERE active)
SELECT o.service_id, o.operation, o.is_primary, o.enabled, o.pass_rule,
  coalesce(sum(CASE WHEN a.service_id IS NOT NULL AND st.hours > 0 THEN
    greatest(0, epoch_us(least(coalesce(st.end_at, hi), coalesce(a.end_at, hi), hi))
      - epoch_us(greatest(st.start_at, a.start_at, o.monitoring_since, lo)))
      // (st.hours * 3600000000)
  ELSE 0 END), 0)::BIGINT AS expected
FROM ops o JOIN stretches st ON st.service_id = o.service_id AND st.operation = o.operation
LEFT JOIN act a ON a.service_id = o.service_id AND a.operation = o.operation
GROUP BY ALL;

-- Researchers: every operation's state at instant t, from the transitions (one row per operation
-- that existed at t: its start of monitoring at or before t):
--   listed, active          of its service (services.listed / services.active as they were at t)
--   enabled, declared_interval_hours   of the operation as they were at t
--   interval_hours          the interval in force at t (interval_changes: the latest change at or
--                           before t, a recorded change winning over a first interval at the same
--                           instant; before the first change, the interval it changed from)
--   counted                 it counts in evidence (atlas_counted_operations)
--   in_force                counted and active at t: active AND enabled (as in atlas_activity_stretches)
-- The state before a service's (operation's) first row is that row's, and with no row at all the
-- state now (as atlas_activity_stretches reads them).
CREATE OR REPLACE MACRO atlas_activity_as_of(t) AS TABLE
WITH ops AS (
  SELECT o.service_id, o.id AS operation, s.tier, o.is_primary, o.interval_hours, o.enabled, o.declared_interval_hours,
    s.listed, s.active, greatest(s.monitoring_since, coalesce(o.monitoring_since, s.monitoring_since)) AS monitoring_since
  FROM operations o JOIN services s ON s.id = o.service_id
),
sa AS (
  SELECT service_id, arg_max(listed, since) FILTER (WHERE since <= t) AS listed, arg_max(active, since) FILTER (WHERE since <= t) AS active,
    arg_min(listed, since) AS first_listed, arg_min(active, since) AS first_active
  FROM service_activity GROUP BY service_id
),
oa AS (
  SELECT service_id, operation, bool_or(since <= t) AS any_at,
    arg_max(enabled, since) FILTER (WHERE since <= t) AS enabled,
    arg_max(declared_interval_hours, since) FILTER (WHERE since <= t) AS declared,
    arg_min(enabled, since) AS first_enabled, arg_min(declared_interval_hours, since) AS first_declared
  FROM operation_activity GROUP BY service_id, operation
),
ih AS (
  SELECT service_id, operation,
    arg_max(to_hours, epoch_us(changed_at) * 2 + (from_hours IS NOT NULL)::INTEGER) FILTER (WHERE changed_at <= t) AS hours,
    arg_min(coalesce(from_hours, to_hours), epoch_us(changed_at) * 2 + (from_hours IS NOT NULL)::INTEGER) AS first_hours
  FROM interval_changes GROUP BY service_id, operation
),
state AS (
  SELECT o.service_id, o.operation, o.tier,
    coalesce(sa.listed, sa.first_listed, o.listed) AS listed,
    coalesce(sa.active, sa.first_active, o.active) AS active,
    coalesce(oa.enabled, oa.first_enabled, o.enabled) AS enabled,
    CASE WHEN oa.any_at THEN oa.declared WHEN oa.service_id IS NOT NULL THEN oa.first_declared ELSE o.declared_interval_hours END
      AS declared_interval_hours,
    coalesce(ih.hours, ih.first_hours, o.interval_hours) AS interval_hours,
    (o.tier = 'reviewed' OR o.is_primary) AS counted
  FROM ops o
  LEFT JOIN sa ON sa.service_id = o.service_id
  LEFT JOIN oa ON oa.service_id = o.service_id AND oa.operation = o.operation
  LEFT JOIN ih ON ih.service_id = o.service_id AND ih.operation = o.operation
  WHERE o.monitoring_since <= t
)
SELECT service_id, operation, tier, listed, active, enabled, declared_interval_hours, interval_hours, counted,
  counted AND active AND enabled AS in_force
FROM state;

-- Rule: pass rate = passed / ran, null when nothing ran (missed checks never enter it).
CREATE OR REPLACE MACRO atlas_pass_rate(passed, ran) AS CASE WHEN coalesce(ran, 0) > 0 THEN passed / ran END::DOUBLE;

-- Rule: missed checks = expected minus checks that ran, never below 0 (per operation; shown
-- separately, never counted as failures).
CREATE OR REPLACE MACRO atlas_missed(expected, ran) AS greatest(0, coalesce(expected, 0) - coalesce(ran, 0));

-- Rule: a report window [lo, hi) holds the events with lo <= t < hi, so adjacent weeks never count
-- one event twice (the 30-day evidence window instead ends at the compute instant and includes it:
-- view check_aggregates).
CREATE OR REPLACE MACRO atlas_in_window(t, lo, hi) AS t >= lo AND t < hi;

-- The columns of `checks`, in order, read from archived Parquet files (a list of paths). Files
-- archived before migration 021 have no `protocols`, before 023 no `auth_schemes`: matched by name,
-- they read them as NULL.
CREATE OR REPLACE MACRO atlas_archived_checks(files) AS TABLE
SELECT service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms, ttfb_ms, run_id, url, method, bytes, detail,
  protocols, auth_schemes
FROM (SELECT NULL::VARCHAR[] AS protocols, NULL::VARCHAR[] AS auth_schemes WHERE false
      UNION ALL BY NAME SELECT * FROM read_parquet(files, union_by_name = true));

-- Every check, live and archived (bounded history, below): researchers and the report windows read
-- this. Defined here reading the live table only; when `archive_files` lists files, the opener
-- re-creates it as `checks` UNION ALL atlas_archived_checks(<the listed files>) (applyChecksAll,
-- pipeline/store/rules.ts), because a file list cannot be a query and DuckDB refuses an empty one. A file is listed in the transaction that deletes its
-- rows from `checks`, so no check is in both.
CREATE OR REPLACE VIEW checks_all AS SELECT * FROM checks;

-- The checks that ran in a report window [lo, hi), live or archived (view checks_all): a week older
-- than the archive cut (a late freeze, `atlas verify` re-checking every frozen report) counts the
-- same checks as when it was frozen. The archive files are in checked_at order, so a recent window
-- skips their row groups by their statistics.
CREATE OR REPLACE MACRO atlas_window_checks(lo, hi) AS TABLE
SELECT * FROM checks_all c WHERE atlas_in_window(c.checked_at, lo, hi);

-- Rule: checks that ran while their operation was inactive (atlas_activity_stretches(hi), active
-- false), per operation, in the window lo <= checked_at < hi (live or archived: checks_all). They
-- stay checks that ran (checks_30d, a report's ran), but they fill no expected check: missed checks
-- compare the expected checks of the active periods with the checks that ran in them.
CREATE OR REPLACE MACRO atlas_inactive_checks(lo, hi) AS TABLE
SELECT c.service_id, c.operation, count(*) AS ran
FROM checks_all c
JOIN atlas_activity_stretches(hi) a
  ON a.service_id = c.service_id AND a.operation = c.operation AND NOT a.active
  AND c.checked_at >= a.start_at AND (a.end_at IS NULL OR c.checked_at < a.end_at)
WHERE atlas_in_window(c.checked_at, lo, hi)
GROUP BY ALL;

-- Checks of every counted operation in a report window [lo, hi): ran and passed
-- (atlas_window_checks), expected as above, missed = expected minus the checks that ran while the
-- operation was active (atlas_inactive_checks).
CREATE OR REPLACE MACRO atlas_operation_checks(lo, hi) AS TABLE
WITH ran AS (
  SELECT c.service_id, c.operation, count(*) AS ran, count(*) FILTER (WHERE c.passed) AS passed
  FROM atlas_window_checks(lo, hi) c
  GROUP BY ALL
)
SELECT e.service_id, e.operation, e.is_primary, e.enabled, e.pass_rule, e.expected,
  coalesce(r.ran, 0)::BIGINT AS ran, coalesce(r.passed, 0)::BIGINT AS passed,
  atlas_missed(e.expected, coalesce(r.ran, 0) - coalesce(i.ran, 0))::BIGINT AS missed
FROM atlas_expected_checks(lo, hi) e
LEFT JOIN ran r ON r.service_id = e.service_id AND r.operation = e.operation
LEFT JOIN atlas_inactive_checks(lo, hi) i ON i.service_id = e.service_id AND i.operation = e.operation;

-- ---------------------------------------------------------------------------------------------------
-- Per-operation figures from the raw checks at the compute instant (one pass over `checks`); the
-- 30-day evidence window ends at the compute instant and includes it:
--   probes                  checks that ever ran (checked_at <= now)
--   checks_30d / passed_30d checks in [now - 30d, now] (and of those, passed)
--   last_at                 time of the latest check
--   last_pass_at            time of the latest passing check
--   last_at_before_14d      time of the latest check at or before now - 14d
-- `atlas compute` reads this once into a temporary table of the same name (which shadows this view
-- for its connection), so schedule_targets and evidence_30d share one scan of the check table.
CREATE OR REPLACE VIEW check_aggregates AS
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
-- Rule: check intervals, schedule/1. One row per operation: the interval the rule gives now and why.
-- First matching line wins:
--   reviewed service             → fixed: call operations hourly (1), documentation daily (24)   reviewed_fixed
--   discovered, not listed by its registry for 7 days (unlisted_at <= now - 7d)  → monthly      unlisted_7d
--   discovered, every probe failed for 14 days: there is a probe at or before now - 14d and every
--     probe since the latest of those failed (no pass at or after it)            → monthly      all_failed_14d
--   discovered, fewer than 3 probes so far                                       → daily        new_until_third_probe
--   discovered, registry payers in 30 days >= 100                                → hourly       payers_100_plus
--   discovered, 5..99                                                            → daily        payers_5_to_99
--   discovered, fewer than 5 or unknown                                          → weekly       payers_under_5
-- The monthly lines stop applying as soon as their condition clears (a probe passes, the service is
-- listed again), and the service moves back by the lines below them. The listings ingest refuses a
-- file whose stated interval differs from the fixed one, so ingest and compute never undo each
-- other's change; operations.declared_interval_hours is not read here (a row stored with a daily call
-- before that check moves to hourly at the next compute).
CREATE OR REPLACE VIEW schedule_targets AS
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
-- Rule: when a check is due inside its slot (docs/notes/compute.md, "When a check is due"). With a
-- spread step of `step` minutes (the probe's cadence; it divides 60), every operation has a fixed
-- offset in each of its slots: (h mod (hours × 60 / step)) × step minutes, h = the first 32 bits of
-- md5('<service_id>/<operation>'); it is due once slot start + offset has passed. One h for every
-- interval, so the check times of an operation's intervals nest. step 0 or null: offset 0 (due at the
-- slot start). Slots never move: a check anywhere in its slot fills it. This is the rule's one home;
-- tests hold it to an independent reference (test/helpers/due-offset.ts).
CREATE OR REPLACE MACRO atlas_due_offset_ms(service_id, operation, hours, step) AS
  CASE WHEN coalesce(step, 0) <= 0 THEN 0::BIGINT
  ELSE (('0x' || left(md5(service_id || '/' || operation), 8))::BIGINT % (hours::BIGINT * 60 // step)) * step * 60000 END;

-- ---------------------------------------------------------------------------------------------------
-- Rule: monitoring days at instant `at`: days since monitoring started (never below 0), to 3 decimals.
-- Published files leave the figure out (it moves with time); the server adds it with the same rule.
CREATE OR REPLACE MACRO atlas_monitoring_days(since, at_instant) AS round(greatest(0, epoch(at_instant) - epoch(since)) / 86400, 3)::DOUBLE;

-- Rule: limited evidence at instant `at`: monitoring started less than 30 days before it (the
-- evidence window is not yet full).
CREATE OR REPLACE MACRO atlas_limited_evidence(since, at_instant) AS since > at_instant - INTERVAL 30 DAY;

-- ---------------------------------------------------------------------------------------------------
-- Evidence per service over the 30 days ending at the compute instant (docs/CONTRACTS.md "Compute
-- outputs"). Counted operations: atlas_counted_operations.
--   checks_30d / passed_30d: checks with now - 30d <= checked_at <= now (view check_aggregates).
--   missed_30d: per operation atlas_missed(atlas_expected_checks over [now - 30d, now], the checks of
--     the window that ran while the operation was active: checks_30d minus atlas_inactive_checks),
--     summed over operations.
--   pass_rate: passed_30d / checks_30d, null without checks.
--   freshness, last_check, latest_passed: from the primary operation's latest check and its current
--     interval (atlas_freshness at now).
--   monitoring_days, limited_evidence: atlas_monitoring_days / atlas_limited_evidence at now.
CREATE OR REPLACE VIEW evidence_30d AS
WITH p AS (SELECT atlas_compute_now() AS now),
per_op AS (
  SELECT o.service_id, o.operation, o.is_primary, o.enabled, o.interval_hours,
    coalesce(a.checks_30d, 0) AS checks_30d, coalesce(a.passed_30d, 0) AS passed_30d,
    atlas_missed(e.expected, coalesce(a.checks_30d, 0) - coalesce(i.ran, 0)) AS missed_30d, a.last_at
  FROM atlas_counted_operations o
  LEFT JOIN atlas_expected_checks(atlas_compute_now() - INTERVAL 30 DAY, atlas_compute_now()) e
    ON e.service_id = o.service_id AND e.operation = o.operation
  LEFT JOIN check_aggregates a ON a.service_id = o.service_id AND a.operation = o.operation
  -- the window [now - 30d, now] includes now: as [now - 30d, now + 1 µs) for the window macro
  LEFT JOIN atlas_inactive_checks(atlas_compute_now() - INTERVAL 30 DAY, atlas_compute_now() + INTERVAL 1 MICROSECOND) i
    ON i.service_id = o.service_id AND i.operation = o.operation
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
  SELECT c.service_id, c.operation, c.checked_at, c.status, c.passed, c.reason, c.latency_ms, c.rule, c.protocols, c.auth_schemes
  FROM checks c JOIN per_service ps ON ps.service_id = c.service_id AND ps.primary_operation = c.operation AND ps.last_at = c.checked_at
  QUALIFY row_number() OVER (PARTITION BY c.service_id ORDER BY c.slot DESC) = 1
)
SELECT s.id AS service_id,
  coalesce(ps.operations, 0)::INTEGER AS operations,
  ps.primary_hours::INTEGER AS check_interval_hours,
  atlas_interval_name(ps.primary_hours) AS check_interval,
  'schedule/1' AS check_interval_rule,
  s.monitoring_since,
  atlas_monitoring_days(s.monitoring_since, p.now) AS monitoring_days,
  atlas_limited_evidence(s.monitoring_since, p.now) AS limited_evidence,
  coalesce(ps.checks_30d, 0)::INTEGER AS checks_30d,
  coalesce(ps.passed_30d, 0)::INTEGER AS passed_30d,
  coalesce(ps.missed_30d, 0)::INTEGER AS missed_30d,
  atlas_pass_rate(ps.passed_30d, ps.checks_30d) AS pass_rate,
  atlas_freshness(ps.last_at, ps.primary_hours, p.now) AS freshness,
  ps.last_at AS last_check_at,
  CASE WHEN lr.service_id IS NOT NULL THEN to_json({
    'checked_at': atlas_iso(lr.checked_at), 'operation': lr.operation, 'status': lr.status, 'passed': lr.passed,
    'reason': lr.reason, 'latency_ms': lr.latency_ms, 'rule': lr.rule, 'protocols': lr.protocols,
    'auth_schemes': lr.auth_schemes}) END AS last_check,
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
CREATE OR REPLACE VIEW terms_observations AS
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
-- (shadowing this view for its connection) for terms_90d.
CREATE OR REPLACE VIEW terms_spans AS
SELECT service_id, operation, min(observed_at) AS first_at, max(observed_at) AS latest_at,
  min(terms_hash) <> max(terms_hash) AS varied
FROM payment_terms
WHERE operation = 'primary' AND observed_at <= atlas_compute_now()
GROUP BY service_id, operation;

-- Rule: payment-term changes and their kinds, for discovered services' primary operation, from the
-- valid observations with observed_at <= hi. A change is an observation whose terms_hash differs from
-- the previous valid observation's (over all history up to hi: a change at time t depends only on
-- observations before it, so any window [lo, hi) selects its changes with lo <= changed_at < hi). The
-- compared offer set is scheme, network, asset, amount, payTo hash, timeout and protocol version; kinds,
-- one or more of:
--   price            an amount differs for a (scheme, network, asset) offered in both
--   network_added    a network offered now that was not before
--   network_removed  a network offered before that is not now
--   asset            on a network offered in both, the set of assets differs
--   pay_to           the set of receiving-address hashes differs
--   scheme           the set of schemes differs
--   version          the x402 protocol version differs
--   other            the timeout differs, or the hash differs for no reason above
-- Only services whose terms varied at all up to hi are compared (a service with one set of terms has
-- no change to find).
CREATE OR REPLACE MACRO atlas_terms_change_events(hi) AS TABLE
WITH varying AS (
  SELECT t.service_id FROM payment_terms t
  WHERE t.operation = 'primary' AND t.observed_at <= hi
  GROUP BY t.service_id HAVING min(t.terms_hash) <> max(t.terms_hash)
),
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
  WHERE t.operation = 'primary' AND t.observed_at <= hi
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

-- Every change up to the compute instant. `atlas compute` reads this once into a temporary table of
-- the same name (shadowing this view for its connection): the rows of `terms_changes` and the input
-- of terms_90d.
CREATE OR REPLACE VIEW terms_change_events AS
SELECT * FROM atlas_terms_change_events(atlas_compute_now());

-- Payment terms over 90 days per discovered service with at least one valid observation (payment_terms
-- of the contract).
--   current_since       the first observation of the current terms: the last change, else the first observation
--   changes_30d / _90d  changes with observed_at in (now - 30d, now] / (now - 90d, now]
--   pay_to_changes_90d  changes in 90 days whose kinds include pay_to
--   last_change_at / last_change_kinds  the latest change ever observed ([] when none)
--   window_start        max(first observation, now - 90d)
--   limited             tracking (since the first valid observation) has run less than 90 days
--   latest_*            the latest valid observation; latest_mainnet: it offers a known mainnet (table networks)
CREATE OR REPLACE VIEW terms_90d AS
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
-- Rule: signed offers (x402's offer-receipt extension; table offer_signatures, migration 062), for the
-- primary operation, from the rows with checked_at <= hi. Only services whose 402 carried a signed
-- offer at least once up to hi have a state (others: none).
--
-- atlas_signed_offer_events(hi): a terms-differ event is a valid payment-request observation
-- (payment_terms) at which at least one signed offer with a VALID signature differs from its matching
-- unsigned `accepts` entry (offer_signatures.terms_differ), when the previous valid observation of the
-- same service had none (or there is no previous one). `fields`: the differing fields of that
-- observation (sorted); `offers`: how many signed offers differed.
CREATE OR REPLACE MACRO atlas_signed_offer_events(hi) AS TABLE
WITH ever AS (
  SELECT DISTINCT service_id FROM offer_signatures WHERE operation = 'primary' AND checked_at <= hi
),
per_check AS (
  SELECT service_id, operation, slot,
    count(*) FILTER (WHERE terms_differ) AS offers,
    list_sort(list_distinct(flatten(list(differing) FILTER (WHERE terms_differ)))) AS fields
  FROM offer_signatures WHERE operation = 'primary' AND checked_at <= hi
  GROUP BY ALL
),
obs AS (
  SELECT t.service_id, t.slot, t.observed_at, coalesce(c.offers, 0) AS offers, coalesce(c.fields, []::VARCHAR[]) AS fields
  FROM payment_terms t SEMI JOIN ever e ON e.service_id = t.service_id
  LEFT JOIN per_check c ON c.service_id = t.service_id AND c.operation = t.operation AND c.slot = t.slot
  WHERE t.operation = 'primary' AND t.observed_at <= hi
),
seq AS (SELECT *, lag(offers) OVER (PARTITION BY service_id ORDER BY observed_at, slot) AS prev_offers FROM obs)
SELECT service_id, observed_at AS event_at, fields, offers::INTEGER AS offers
FROM seq WHERE offers > 0 AND coalesce(prev_offers, 0) = 0;

-- atlas_signed_offers_as_of(hi): per service, the signed offers of its LATEST valid payment-request
-- observation up to hi (payment_terms, primary operation; 0 offers when that request carried none):
--   checked_at                          the observation's time
--   signed                              signed offers read (at most 16 per check)
--   valid / invalid / not_checked       by signature state
--   authorised / not_authorised / signer_not_checked   by signer state (the payee key itself only)
--   reasons                             [{reason, offers}]: every signature_reason and signer_reason, counted
--   terms_differ                        offers with a valid signature whose terms differ from their accepts entry
--   differing_fields                    the fields that differ, sorted
--   last_terms_differ_at                the latest terms-differ event up to hi (atlas_signed_offer_events)
CREATE OR REPLACE MACRO atlas_signed_offers_as_of(hi) AS TABLE
WITH ever AS (
  SELECT DISTINCT service_id FROM offer_signatures WHERE operation = 'primary' AND checked_at <= hi
),
latest AS (
  SELECT t.service_id, t.operation, t.slot, t.observed_at
  FROM payment_terms t SEMI JOIN ever e ON e.service_id = t.service_id
  WHERE t.operation = 'primary' AND t.observed_at <= hi
  QUALIFY row_number() OVER (PARTITION BY t.service_id ORDER BY t.observed_at DESC, t.slot DESC) = 1
),
o AS (
  SELECT l.service_id, l.observed_at, s.offer_index, s.signature, s.signature_reason, s.signer, s.signer_reason, s.terms_differ, s.differing
  FROM latest l LEFT JOIN offer_signatures s ON s.service_id = l.service_id AND s.operation = l.operation AND s.slot = l.slot
),
reason_counts AS (
  SELECT service_id, list({'reason': reason, 'offers': n} ORDER BY reason) AS reasons
  FROM (
    SELECT service_id, reason, count(*)::INTEGER AS n
    FROM (SELECT service_id, signature_reason AS reason FROM o WHERE signature_reason IS NOT NULL
          UNION ALL SELECT service_id, signer_reason FROM o WHERE signer_reason IS NOT NULL)
    GROUP BY ALL
  ) GROUP BY service_id
),
ev AS (SELECT service_id, max(event_at) AS last_at FROM atlas_signed_offer_events(hi) GROUP BY service_id)
SELECT o.service_id,
  any_value(o.observed_at) AS checked_at,
  count(o.offer_index)::INTEGER AS signed,
  count(*) FILTER (WHERE o.signature = 'valid')::INTEGER AS valid,
  count(*) FILTER (WHERE o.signature = 'invalid')::INTEGER AS invalid,
  count(*) FILTER (WHERE o.signature = 'not_checked')::INTEGER AS not_checked,
  count(*) FILTER (WHERE o.signer = 'authorised')::INTEGER AS authorised,
  count(*) FILTER (WHERE o.signer = 'not_authorised')::INTEGER AS not_authorised,
  count(*) FILTER (WHERE o.signer = 'not_checked')::INTEGER AS signer_not_checked,
  coalesce(any_value(r.reasons), []) AS reasons,
  count(*) FILTER (WHERE o.terms_differ)::INTEGER AS terms_differ,
  coalesce(list_sort(list_distinct(flatten(list(o.differing) FILTER (WHERE o.terms_differ)))), []::VARCHAR[]) AS differing_fields,
  any_value(ev.last_at) AS last_terms_differ_at
FROM o LEFT JOIN reason_counts r ON r.service_id = o.service_id LEFT JOIN ev ON ev.service_id = o.service_id
GROUP BY o.service_id;

-- Rule: declared against observed payment terms, declared-terms/1 (docs/notes/declared-terms.md).
-- A source's declaration (table declared_terms, migration 060: a catalog's listed offers, a seller's
-- /.well-known/x402, our listing's sourced claims) is compared with the live 402: the valid payment
-- requests of the primary operation (payment_terms). Per dimension, a source that states nothing
-- (NULL) has no difference; otherwise (the dimensions in this order):
--   max_price  both state a lowest MAXIMUM (upto, batch-settlement) in dollars and they differ;
--   network    the declared set of CAIP-2 networks is not the observed set;
--   asset      on the networks both name, the declared set of 'network|asset' is not the observed one;
--   pay_to     the declared set of receiving-address hashes is not the observed set;
--   price      both state a lowest EXACT price in dollars (pipeline/x402/prices.ts; a listing's price
--              claim counts as an exact price) and they differ (to 9 decimals). A maximum is never
--              compared with a price;
--   scheme     the declared set of schemes is not the observed set.
-- Returns the differing dimensions, sorted ([] when none).
CREATE OR REPLACE MACRO atlas_declared_differing(d_price, d_max, d_networks, d_assets, d_schemes, d_pay_to,
    o_price, o_max, o_networks, o_assets, o_schemes, o_pay_to) AS
  list_filter([
    CASE WHEN d_max IS NOT NULL AND o_max IS NOT NULL AND round(d_max, 9) <> round(o_max, 9) THEN 'max_price' END,
    CASE WHEN d_networks IS NOT NULL AND list_sort(list_distinct(d_networks)) <> list_sort(list_distinct(o_networks)) THEN 'network' END,
    CASE WHEN d_assets IS NOT NULL AND
      list_sort(list_distinct(list_filter(d_assets, a -> list_contains(o_networks, split_part(a, '|', 1))
        AND list_contains(coalesce(d_networks, list_transform(d_assets, x -> split_part(x, '|', 1))), split_part(a, '|', 1)))))
      <> list_sort(list_distinct(list_filter(o_assets, a -> list_contains(coalesce(d_networks, list_transform(d_assets, x -> split_part(x, '|', 1))), split_part(a, '|', 1)))))
      THEN 'asset' END,
    CASE WHEN d_pay_to IS NOT NULL AND list_sort(list_distinct(d_pay_to)) <> list_sort(list_distinct(o_pay_to)) THEN 'pay_to' END,
    CASE WHEN d_price IS NOT NULL AND o_price IS NOT NULL AND round(d_price, 9) <> round(o_price, 9) THEN 'price' END,
    CASE WHEN d_schemes IS NOT NULL AND list_sort(list_distinct(d_schemes)) <> list_sort(list_distinct(o_schemes)) THEN 'scheme' END
  ], k -> k IS NOT NULL);

-- The comparison points of every (service, source) up to instant hi: each instant a declaration
-- began (declared_terms.since) or the observed values changed (the first valid observation of the
-- primary operation, and each one whose compared values differ from the previous one's), with the
-- declaration and the observation in force at it (the latest at or before it) and the differing
-- dimensions. `compared`: the declaration states something and an observation exists (otherwise no
-- dimension differs). The last point of each (service, source) is its state at hi.
CREATE OR REPLACE MACRO atlas_declared_points(hi) AS TABLE
WITH decl AS (
  SELECT d.* FROM declared_terms d WHERE d.since <= hi
),
obs_rows AS (
  SELECT t.service_id, t.observed_at, t.min_price_usd, t.max_price_usd, t.networks, t.assets, t.schemes, t.pay_to_hashes
  FROM payment_terms t JOIN operations o ON o.service_id = t.service_id AND o.id = t.operation AND o.is_primary
  WHERE t.observed_at <= hi AND t.service_id IN (SELECT service_id FROM decl)
  QUALIFY row_number() OVER (PARTITION BY t.service_id, t.observed_at ORDER BY t.slot DESC) = 1
),
obs AS (
  SELECT * EXCLUDE (h, prev_h) FROM (
    SELECT *, hash(min_price_usd, max_price_usd, networks, assets, schemes, pay_to_hashes) AS h,
      lag(hash(min_price_usd, max_price_usd, networks, assets, schemes, pay_to_hashes)) OVER (PARTITION BY service_id ORDER BY observed_at) AS prev_h
    FROM obs_rows)
  WHERE prev_h IS NULL OR prev_h <> h
),
srcs AS (SELECT DISTINCT service_id, source_kind, source FROM decl),
pts AS (
  SELECT service_id, source_kind, source, since AS t FROM decl
  UNION
  SELECT s.service_id, s.source_kind, s.source, o.observed_at FROM srcs s JOIN obs o ON o.service_id = s.service_id
),
with_decl AS (
  SELECT p.service_id, p.source_kind, p.source, p.t, d.since AS declared_since, d.read_at AS declared_read_at,
    d.price_usd, d.max_price_usd, d.networks, d.assets, d.schemes, d.pay_to_hashes, d.source_detail
  FROM pts p ASOF LEFT JOIN decl d
    ON d.service_id = p.service_id AND d.source_kind = p.source_kind AND d.source = p.source AND p.t >= d.since
),
joined AS (
  SELECT w.*, o.observed_at, o.min_price_usd AS o_price, o.max_price_usd AS o_max, o.networks AS o_networks,
    o.assets AS o_assets, o.schemes AS o_schemes, o.pay_to_hashes AS o_pay_to
  FROM with_decl w ASOF LEFT JOIN obs o ON o.service_id = w.service_id AND w.t >= o.observed_at
)
SELECT service_id, source_kind, source, t, declared_since, declared_read_at,
  price_usd, max_price_usd, networks, assets, schemes, pay_to_hashes, source_detail,
  observed_at, o_price, o_max, o_networks, o_assets, o_schemes, o_pay_to,
  (observed_at IS NOT NULL AND (price_usd IS NOT NULL OR max_price_usd IS NOT NULL OR networks IS NOT NULL OR assets IS NOT NULL
    OR schemes IS NOT NULL OR pay_to_hashes IS NOT NULL)) AS compared,
  CASE WHEN observed_at IS NULL THEN []::VARCHAR[] ELSE
    atlas_declared_differing(price_usd, max_price_usd, networks, assets, schemes, pay_to_hashes,
      o_price, o_max, o_networks, o_assets, o_schemes, o_pay_to) END AS differing
FROM joined;

-- The published value of one dimension, as JSON: a price or maximum in dollars, a sorted list of
-- networks, 'network|asset' or schemes. Receiving addresses are compared but never published, not
-- even hashed: pay_to has no value (null).
CREATE OR REPLACE MACRO atlas_declared_value(dim, price, max_price, networks, assets, schemes) AS
  CASE dim WHEN 'price' THEN to_json(price) WHEN 'max_price' THEN to_json(max_price) WHEN 'network' THEN to_json(networks)
    WHEN 'asset' THEN to_json(assets) WHEN 'scheme' THEN to_json(schemes) ELSE NULL::JSON END;

-- Rule: difference events up to instant hi. Per (service, source, dimension), a stretch of
-- consecutive points (atlas_declared_points) at which the dimension differs is one event: began_at
-- its first point, ended_at the first later point at which it no longer differs (null: it still
-- differs at hi). The declared and observed values are those in force at began_at, with the
-- declaration's since (when Atlas first read it) and the time of the check that observed the value.
CREATE OR REPLACE MACRO atlas_declared_differences(hi) AS TABLE
WITH pts AS (SELECT * FROM atlas_declared_points(hi)),
flags AS (
  SELECT p.*, dim, list_contains(p.differing, dim) AS differs
  FROM pts p, unnest(['max_price', 'network', 'asset', 'pay_to', 'price', 'scheme']) AS u(dim)
),
islands AS (
  SELECT *, sum(starts::INTEGER) OVER (PARTITION BY service_id, source_kind, source, dim ORDER BY t ROWS UNBOUNDED PRECEDING) AS island
  FROM (SELECT *, lag(differs) OVER (PARTITION BY service_id, source_kind, source, dim ORDER BY t) IS DISTINCT FROM differs AS starts FROM flags)
),
stretches AS (
  SELECT service_id, source_kind, source, dim, island, any_value(differs) AS differs, min(t) AS began_at,
    arg_min(atlas_declared_value(dim, price_usd, max_price_usd, networks, assets, schemes), t) AS declared_value,
    arg_min(declared_since, t) AS declared_since,
    arg_min(atlas_declared_value(dim, o_price, o_max, o_networks, o_assets, o_schemes), t) AS observed_value,
    arg_min(observed_at, t) AS observed_at
  FROM islands GROUP BY ALL
),
ended AS (
  SELECT *, lead(began_at) OVER (PARTITION BY service_id, source_kind, source, dim ORDER BY began_at) AS ended_at FROM stretches
)
SELECT service_id, source_kind, source, dim AS dimension, began_at, ended_at, declared_value, declared_since, observed_value, observed_at
FROM ended WHERE differs;

-- The comparison of every (service, source) at instant hi: its last point.
CREATE OR REPLACE MACRO atlas_declared_comparisons(hi) AS TABLE
SELECT service_id, source_kind, source, declared_since, declared_read_at, price_usd, max_price_usd, networks, assets, schemes,
  pay_to_hashes IS NOT NULL AS states_pay_to, source_detail, observed_at, compared, differing
FROM atlas_declared_points(hi)
QUALIFY row_number() OVER (PARTITION BY service_id, source_kind, source ORDER BY t DESC) = 1;

-- Rule: the published state of a service at instant hi (ServiceSummary.declared_terms): null when no
-- source's declaration could be compared; else differs (any dimension differs now), the differing
-- dimensions, since (the earliest began_at of the differences open at hi) and the sources compared.
CREATE OR REPLACE MACRO atlas_declared_state(hi) AS TABLE
WITH c AS (SELECT * FROM atlas_declared_comparisons(hi) WHERE compared),
open_since AS (SELECT service_id, min(began_at) AS since FROM atlas_declared_differences(hi) WHERE ended_at IS NULL GROUP BY service_id)
SELECT c.service_id,
  bool_or(len(c.differing) > 0) AS differs,
  list_sort(list_distinct(flatten(list(c.differing)))) AS dimensions,
  any_value(o.since) AS since,
  count(*)::INTEGER AS sources_compared
FROM c LEFT JOIN open_since o ON o.service_id = c.service_id
GROUP BY c.service_id;

-- ---------------------------------------------------------------------------------------------------
-- Rule: provider endpoints: the tracked services on each host (a service counts itself).
CREATE OR REPLACE VIEW atlas_provider_endpoints AS
SELECT host, count(*)::INTEGER AS provider_endpoints FROM services GROUP BY host;

-- Rule: the networks source of a service whose networks are not known: the source that would hold
-- them (reviewed: the operator's listing; discovered: its registry).
CREATE OR REPLACE MACRO atlas_unknown_networks_source(tier) AS CASE WHEN tier = 'reviewed' THEN 'operator' ELSE 'registry' END;

-- ---------------------------------------------------------------------------------------------------
-- Rule: price and networks with their sources, per service, at instant hi:
--   price_usd / price_source  discovered: the registry's lowest EXACT price on a known MAINNET USD
--                             stablecoin (services.registry_price_usd; ingest converts with
--                             pipeline/x402/prices.ts lowestPrices, where a test-network token is not a
--                             dollar, a euro coin is never converted, and an `upto` / `batch-settlement`
--                             amount is a maximum, not a price) → 'registry'; reviewed: the operator's
--                             stated price → 'operator'; else null / null. Never a measured charge.
--   max_price_usd             discovered: the registry's lowest stated maximum (table registry_max_prices,
--                             the same rule); reviewed: null (an operator states a price). price_source
--                             names its source too: 'registry' when either figure is known.
--   networks / networks_source  the networks of the latest valid payment request observed up to hi
--                             (discovered: of the primary operation; reviewed: of any operation) →
--                             'observed'; else the registry's → 'registry'; else the operator's →
--                             'operator'. With none known: [] and atlas_unknown_networks_source.
--   mainnet                   true when any of those networks is a known mainnet (table networks),
--                             false when networks are known but none is, null when none is known.
--   provider_endpoints        view atlas_provider_endpoints.
--   templated_url             ingest's flag, or a URL containing '/:', '{' or '%7B' (a placeholder).
CREATE OR REPLACE MACRO atlas_price_networks(hi) AS TABLE
WITH mainnet_ids AS (SELECT coalesce(list(id), []) AS ids FROM networks WHERE mainnet),
counted_terms AS (
  SELECT t.service_id, t.operation, t.slot, t.observed_at, t.networks
  FROM payment_terms t JOIN services s ON s.id = t.service_id
  WHERE t.observed_at <= hi AND (s.tier <> 'discovered' OR t.operation = 'primary')
),
latest_at AS (SELECT service_id, max(observed_at) AS observed_at FROM counted_terms GROUP BY service_id),
-- the latest observation; among several at that time, the latest slot, then the first operation
latest_obs AS (
  SELECT t.service_id, t.networks
  FROM counted_terms t JOIN latest_at l ON l.service_id = t.service_id AND l.observed_at = t.observed_at
  QUALIFY row_number() OVER (PARTITION BY t.service_id ORDER BY t.slot DESC, t.operation) = 1
),
chosen AS (
  SELECT s.id AS service_id, s.tier, s.host, s.url, s.templated_url,
    CASE WHEN s.tier = 'discovered' THEN s.registry_price_usd ELSE s.operator_price_usd END AS price_usd,
    CASE WHEN s.tier = 'discovered' THEN rm.max_price_usd END AS max_price_usd,
    CASE
      WHEN len(coalesce(o.networks, [])) > 0 THEN o.networks
      WHEN len(s.registry_networks) > 0 THEN s.registry_networks
      WHEN len(s.operator_networks) > 0 THEN s.operator_networks
      ELSE []::VARCHAR[]
    END AS networks,
    CASE
      WHEN len(coalesce(o.networks, [])) > 0 THEN 'observed'
      WHEN len(s.registry_networks) > 0 THEN 'registry'
      WHEN len(s.operator_networks) > 0 THEN 'operator'
      ELSE atlas_unknown_networks_source(s.tier)
    END AS networks_source
  FROM services s LEFT JOIN latest_obs o ON o.service_id = s.id
  LEFT JOIN registry_max_prices rm ON rm.service_id = s.id
)
SELECT c.service_id,
  c.price_usd::DOUBLE AS price_usd,
  c.max_price_usd::DOUBLE AS max_price_usd,
  CASE WHEN c.price_usd IS NULL AND c.max_price_usd IS NULL THEN NULL WHEN c.tier = 'discovered' THEN 'registry' ELSE 'operator' END AS price_source,
  c.networks,
  c.networks_source,
  CASE WHEN len(c.networks) = 0 THEN NULL ELSE list_has_any(c.networks, (SELECT ids FROM mainnet_ids)) END AS mainnet,
  h.provider_endpoints,
  (c.templated_url OR contains(c.url, '/:') OR contains(c.url, '{') OR contains(lower(c.url), '%7b')) AS templated_url
FROM chosen c JOIN atlas_provider_endpoints h ON h.host = c.host;

-- ---------------------------------------------------------------------------------------------------
-- Rule: listing criteria, listing-criteria/1. One row per service, from its evidence (evidence_30d)
-- and payment terms (terms_90d) at the compute instant. A criterion either applies to the service or
-- not; in_directory = every criterion that applies passed.
--   1 checks_30d      all services            checks_30d >= 3
--   2 fresh           all services            freshness = fresh
--   3 pass_rate       all services            pass_rate >= 0.8 (no checks: null, fails)
--   4 listed          discovered services     still listed by its registry (listed = true) and MCP
--                                             status not 'deleted'
--   5 mainnet_offer   discovered x402         the latest valid payment request offers a mainnet
--                                             network (none observed: fails)
--   6 listing_active  reviewed services       the listing is active
-- Columns: passed_<criterion> (null where it does not apply), in_directory, and `criteria`: the JSON
-- list stored in `directory.criteria` and published (contract CriterionResult: id, description,
-- applies, passed, value, threshold; the ids in order are CRITERION_IDS of site/contract/directory.ts).
-- `atlas compute` evaluates this view over its own materialized evidence and terms_summary (temporary
-- views of the names evidence_30d and terms_90d shadow the rules for its connection), so the
-- directory is judged on exactly the figures it publishes.
CREATE OR REPLACE VIEW listing_criteria AS
WITH base AS (
  SELECT s.id AS service_id, s.listed, s.mcp_status, s.active,
    coalesce(e.checks_30d, 0) AS checks_30d, coalesce(e.freshness, 'no_data') AS freshness, e.pass_rate,
    t.latest_mainnet,
    s.tier = 'discovered' AS is_discovered,
    s.tier = 'discovered' AND s.protocol = 'x402' AS is_discovered_x402,
    s.tier = 'reviewed' AS is_reviewed
  FROM services s
  LEFT JOIN evidence_30d e ON e.service_id = s.id
  LEFT JOIN terms_90d t ON t.service_id = s.id
),
judged AS (
  SELECT *,
    checks_30d >= 3 AS c1,
    freshness = 'fresh' AS c2,
    coalesce(pass_rate >= 0.8, false) AS c3,
    CASE WHEN is_discovered THEN listed AND coalesce(mcp_status, '') <> 'deleted' END AS c4,
    CASE WHEN is_discovered_x402 THEN coalesce(latest_mainnet, false) END AS c5,
    CASE WHEN is_reviewed THEN active END AS c6
  FROM base
)
SELECT service_id,
  'listing-criteria/1' AS rule,
  c1 AS passed_checks_30d, c2 AS passed_fresh, c3 AS passed_pass_rate,
  c4 AS passed_listed, c5 AS passed_mainnet_offer, c6 AS passed_listing_active,
  c1 AND c2 AND c3 AND coalesce(c4, true) AND coalesce(c5, true) AND coalesce(c6, true) AS in_directory,
  to_json([
    {'id': 'checks_30d', 'description': 'checks_30d >= 3', 'applies': true, 'passed': c1,
     'value': to_json(checks_30d), 'threshold': to_json(3)},
    {'id': 'fresh', 'description': 'freshness = fresh', 'applies': true, 'passed': c2,
     'value': to_json(freshness), 'threshold': to_json('fresh')},
    {'id': 'pass_rate', 'description': 'pass_rate >= 0.8', 'applies': true, 'passed': c3,
     'value': to_json(pass_rate), 'threshold': to_json(0.8)},
    {'id': 'listed', 'description': 'still listed by a registry (an MCP server its registry marks deleted or deprecated is not)', 'applies': is_discovered, 'passed': c4,
     'value': to_json(CASE WHEN is_discovered THEN {'listed': listed, 'mcp_status': mcp_status} END), 'threshold': to_json(true)},
    {'id': 'mainnet_offer', 'description': 'latest valid payment request offers a mainnet network', 'applies': is_discovered_x402, 'passed': c5,
     'value': to_json(CASE WHEN is_discovered_x402 THEN latest_mainnet END), 'threshold': to_json(true)},
    {'id': 'listing_active', 'description': 'listing is active', 'applies': is_reviewed, 'passed': c6,
     'value': to_json(CASE WHEN is_reviewed THEN active END), 'threshold': to_json(true)}
  ]) AS criteria
FROM judged;

-- ---------------------------------------------------------------------------------------------------
-- Directory membership over time. `directory` holds transitions (migration 004): a row per change of
-- a service's membership or criteria, `since` the evaluation that found it, `evaluated_at` the latest
-- evaluation that confirmed it. Every evaluation's instant and scope is in `directory_evaluations`.

-- The current state per service: its latest transition. Every full evaluation confirms every tracked
-- service (moving evaluated_at), so the current rows are among those confirmed at or after the last
-- full evaluation: only that tail is read.
CREATE OR REPLACE VIEW directory_current AS
SELECT service_id, evaluated_at, in_directory, rule, scope, criteria, since
FROM directory
WHERE evaluated_at >= (SELECT coalesce(max(evaluated_at), TIMESTAMP '1970-01-01') FROM directory_evaluations WHERE scope = 'full')
QUALIFY row_number() OVER (PARTITION BY service_id ORDER BY since DESC) = 1;

-- Membership of each evaluated service as of instant hi (exclusive): the state of its latest
-- transition before hi, i.e. of its latest evaluation before hi (a transition is the first of a run of
-- equal evaluations). Used by the weekly report (`directory.size` at figures_until) and verify.
CREATE OR REPLACE MACRO atlas_directory_as_of(hi) AS TABLE
SELECT d.service_id, arg_max(d.in_directory, d.since) AS in_directory
FROM directory d WHERE d.since < hi GROUP BY d.service_id;

-- ---------------------------------------------------------------------------------------------------
-- Bounded check history (docs/notes/history.md). Checks older than the archive cut (100 days: the
-- longest evidence window, 90 days of payment terms, plus a margin) move to monthly Parquet files
-- under the data folder, listed in `archive_files` and read by view checks_all (above). Every
-- evidence window reads `checks` alone and ends within the cut, and the report windows read
-- checks_all, so archiving never changes a published figure.

-- Daily per-operation aggregates of the checks with lo <= checked_at <= hi, by UTC day: the rows of
-- table check_daily (long-range charts only; evidence always reads raw checks).
CREATE OR REPLACE MACRO atlas_check_daily(lo, hi) AS TABLE
SELECT c.service_id, c.operation, c.checked_at::DATE AS day,
  count(*)::INTEGER AS checks,
  count(*) FILTER (WHERE c.passed)::INTEGER AS passed,
  count(c.latency_ms)::INTEGER AS latency_n,
  sum(c.latency_ms)::DOUBLE AS latency_sum_ms,
  quantile_cont(c.latency_ms, 0.5)::DOUBLE AS latency_p50_ms,
  quantile_cont(c.latency_ms, 0.95)::DOUBLE AS latency_p95_ms
FROM checks c
WHERE c.checked_at >= lo AND c.checked_at <= hi
GROUP BY c.service_id, c.operation, c.checked_at::DATE;

-- ---------------------------------------------------------------------------------------------------
-- Moderation of outcome reports (docs/notes/moderation.md). Decisions are rows of
-- outcome_moderation (migration 051, history kept); the automatic rules (moderation/1,
-- pipeline/moderation/rules.ts) decide a report once, operators any number of times.

-- The state of every report received at or before instant hi, from the decisions made at or before
-- hi: the latest operator decision (rule_version 'operator'), else the rules' decision, else
-- 'pending' (reason, decided_by, decided_at and rule_version null). An operator decision is never
-- overridden by the rules, whatever the order they were recorded in. No key column: the research
-- export leaves outcomes.key_id out, and the rules must bind over the exported files too.
CREATE OR REPLACE MACRO atlas_outcome_state_as_of(hi) AS TABLE
WITH d AS (
  SELECT m.report_id, m.state, m.reason, m.rule_version, m.decided_by, m.decided_at
  FROM outcome_moderation m
  WHERE m.decided_at <= hi
  QUALIFY row_number() OVER (PARTITION BY m.report_id ORDER BY (m.rule_version = 'operator') DESC, m.decided_at DESC, m.seq DESC) = 1
)
--
-- Receipt state (rule outcome-receipt/1, site/contract/outcome-receipt.ts; migration 063): a report
-- whose receipt was verified at or before hi is 'verified'; a report with a receipt that failed
-- verification, or whose verdict was made after hi, is 'not_verified' (receipt_reason: the failed
-- check, null while not checked yet); a report without a receipt is 'no_receipt'. Every report with a
-- receipt has a row in outcome_receipt_checks (made in the transaction that loaded it), so presence
-- is read from that table alone (the export leaves the raw receipt out). Moderation applies to every
-- receipt state alike: the two are independent columns, never combined into one figure.
SELECT o.id AS report_id, o.service_id, o.outcome, o.received_at,
  coalesce(d.state, 'pending') AS state, d.reason, d.rule_version, d.decided_by, d.decided_at,
  CASE WHEN rc.report_id IS NULL THEN 'no_receipt'
       WHEN rc.state = 'verified' AND rc.checked_at <= hi THEN 'verified'
       ELSE 'not_verified' END AS receipt_state,
  CASE WHEN rc.checked_at <= hi THEN rc.reason END AS receipt_reason
FROM outcomes o LEFT JOIN d ON d.report_id = o.id
LEFT JOIN outcome_receipt_checks rc ON rc.report_id = o.id
WHERE o.received_at <= hi;

-- Reports per service, outcome, moderation state and receipt state as of instant hi (the published
-- counts; reports naming no service are counted in the weekly reports only).
CREATE OR REPLACE MACRO atlas_outcome_counts(hi) AS TABLE
SELECT service_id, outcome, state, receipt_state, count(*)::INTEGER AS n
FROM atlas_outcome_state_as_of(hi)
WHERE service_id IS NOT NULL
GROUP BY ALL;

-- The state of every report now (atlas_compute_now()): what `atlas moderate` and researchers read.
CREATE OR REPLACE VIEW outcome_moderation_current AS
SELECT * FROM atlas_outcome_state_as_of(atlas_compute_now());

-- ---------------------------------------------------------------------------------------------------
-- Catalog presence over time (docs/notes/catalog-history.md). Every interval during which one catalog
-- (a configured registry source: kind x402 or mcp, and its name) listed a discovered service is a row
-- of catalog_listing_history (migration 061): [listed_at, unlisted_at), unlisted_at null while listed.
-- A catalog is written '<kind>:<name>' (x402:cdp, mcp:official).

-- Per discovered service with an interval starting at or before instant hi:
--   listed_by   the catalogs (sorted) with an interval listed_at <= hi < unlisted_at (or unlisted_at null)
--   dropped_by  the catalogs (sorted) that listed it at or before hi and do not list it at hi
CREATE OR REPLACE MACRO atlas_catalog_presence_as_of(hi) AS TABLE
WITH per AS (
  SELECT service_id, catalog_kind || ':' || catalog AS cat,
    bool_or(unlisted_at IS NULL OR unlisted_at > hi) AS listing
  FROM catalog_listing_history WHERE listed_at <= hi GROUP BY ALL
)
SELECT service_id,
  coalesce(list_sort(list(cat) FILTER (WHERE listing)), []::VARCHAR[]) AS listed_by,
  coalesce(list_sort(list(cat) FILTER (WHERE NOT listing)), []::VARCHAR[]) AS dropped_by
FROM per GROUP BY service_id;

-- Rule: listed but failing. A catalog lists the service now (listed_by not empty) and Atlas's latest
-- check of its primary operation failed (latest_passed false: the rule of the `passing` filter,
-- evidence_30d.latest_passed). Null when never checked; false otherwise.
CREATE OR REPLACE MACRO atlas_listed_but_failing(listed_by, latest_passed) AS
  CASE WHEN latest_passed IS NULL THEN NULL ELSE len(listed_by) > 0 AND NOT latest_passed END;

-- Rule: passing but unlisted. Atlas's latest check of its primary operation passed (latest_passed
-- true) and at least one catalog that listed it has dropped it (dropped_by not empty), whether or not
-- another catalog still lists it (registry_listing.listed says that). Null when never checked.
CREATE OR REPLACE MACRO atlas_passing_but_unlisted(dropped_by, latest_passed) AS
  CASE WHEN latest_passed IS NULL THEN NULL ELSE len(dropped_by) > 0 AND latest_passed END;

-- Both, per discovered service a catalog listed, at atlas_compute_now(): presence as of that instant,
-- latest_passed from evidence_30d at the same instant. `atlas compute` materializes it into table
-- service_catalog_standing (with its own evidence shadowing evidence_30d), which publish reads.
CREATE OR REPLACE VIEW catalog_standing AS
SELECT p.service_id, p.listed_by, p.dropped_by, e.latest_passed,
  atlas_listed_but_failing(p.listed_by, e.latest_passed) AS listed_but_failing,
  atlas_passing_but_unlisted(p.dropped_by, e.latest_passed) AS passing_but_unlisted
FROM atlas_catalog_presence_as_of(atlas_compute_now()) p
LEFT JOIN evidence_30d e ON e.service_id = p.service_id;

-- Catalog listing events up to instant hi, one per interval start (listed true; reason first_listed
-- for the first interval of the service in that catalog, else relisted) and per interval end
-- (listed false; reason the interval's unlisted_reason: missing_from_sweep, <status>_status, or
-- not_recorded for a drop carried over by migration 061). The change feed, the weekly reports and
-- the researchers read these.
CREATE OR REPLACE MACRO atlas_catalog_events(hi) AS TABLE
SELECT service_id, catalog_kind, catalog, listed_at AS event_at, true AS listed,
  CASE WHEN row_number() OVER (PARTITION BY service_id, catalog_kind, catalog ORDER BY listed_at) = 1
    THEN 'first_listed' ELSE 'relisted' END AS reason
FROM catalog_listing_history WHERE listed_at <= hi
UNION ALL
SELECT service_id, catalog_kind, catalog, unlisted_at AS event_at, false AS listed, coalesce(unlisted_reason, 'not_recorded') AS reason
FROM catalog_listing_history WHERE unlisted_at <= hi;

-- ---------------------------------------------------------------------------------------------------
-- What each view is, for researchers browsing the database (duckdb_views().comment, `\d` in clients).
-- The full definitions and their rules are the comments above each view; docs/research-guide.md
-- lists the tables. checks_all is re-created over the archive files on every open, so its comment is
-- set with it (pipeline/store/rules.ts, checksAllSql).
COMMENT ON VIEW atlas_counted_operations IS 'Operations counted in evidence (every operation of a reviewed service, the primary one of a discovered service), with each operation''s own start of monitoring.';
COMMENT ON VIEW check_aggregates IS 'Per operation: checks and passed checks in the 30 days up to atlas_compute_now(), and the times of the latest check, the latest passing check and the latest check at or before 14 days ago.';
COMMENT ON VIEW schedule_targets IS 'Per operation: the check interval rule schedule/1 gives at atlas_compute_now(), with its reason code.';
COMMENT ON VIEW evidence_30d IS 'Per service: the published evidence figures (checks_30d, passed_30d, missed_30d, pass_rate, freshness, last_check, monitoring_days) computed live at atlas_compute_now(); table evidence holds the latest computed copy.';
COMMENT ON VIEW terms_observations IS 'Valid payment-term observations of each primary operation up to atlas_compute_now(), each with the previous one and whether its terms_hash changed.';
COMMENT ON VIEW terms_spans IS 'Per service: the first and latest valid payment-term observation up to atlas_compute_now(), and whether the terms ever varied.';
COMMENT ON VIEW terms_change_events IS 'Every payment-term change up to atlas_compute_now(), with the kinds of change (amount, network, pay_to, ...).';
COMMENT ON VIEW terms_90d IS 'Per service: the published payment-term figures over 90 days (current_since, changes_30d, changes_90d, pay_to_changes_90d, window_start, limited) at atlas_compute_now(); table terms_summary holds the latest computed copy.';
COMMENT ON VIEW atlas_provider_endpoints IS 'Per host: how many tracked services it serves (provider_endpoints; a service counts itself).';
COMMENT ON VIEW listing_criteria IS 'Per service: each directory criterion of the current listing-criteria rule (passed, null where it does not apply), in_directory, and the criteria JSON as published.';
COMMENT ON VIEW directory_current IS 'Per service: its current directory state (the latest evaluation); atlas_directory_as_of(t) gives membership at any instant.';
COMMENT ON VIEW outcome_moderation_current IS 'Every outcome report with its moderation state (pending, accepted, rejected) and its receipt state (verified, not_verified, no_receipt) at atlas_compute_now().';
COMMENT ON VIEW catalog_standing IS 'Per discovered service a catalog listed: the catalogs listing it and those that dropped it at atlas_compute_now(), its latest check result, listed_but_failing and passing_but_unlisted; table service_catalog_standing holds the latest computed copy.';
