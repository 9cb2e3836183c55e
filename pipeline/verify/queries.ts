/**
 * The documented queries that reproduce every published figure from the raw tables, over the rules
 * of pipeline/store/rules.sql (its macros and views are the one definition of each rule; these
 * queries only select from them). `atlas verify` runs exactly these texts, and docs/research.md is
 * generated from them (pipeline/verify/research-doc.ts; a test keeps the two equal), so what a
 * researcher runs is what verify checks.
 *
 * Instants are session variables, never the wall clock:
 *   atlas_now            the instant the per-service figures are evaluated at (the rules file reads
 *                        it through atlas_compute_now()); `atlas sql --now T` sets it.
 *   atlas_report_from    a weekly report's window [from, until): week start …
 *   atlas_report_until   … and figures_until (the week end for a frozen report).
 */

/** One documented query: what it reproduces and its text. */
export interface ResearchQuery {
  id: string;
  title: string;
  /** Published members it reproduces (as named in the service or report JSON). */
  figures: string[];
  /** What the query reads and how to run it (markdown, for docs/research.md). */
  notes: string;
  /** The query (one statement, no trailing semicolon). */
  sql: string;
}

/**
 * The instant a generation's per-service figures were computed at: the latest successful compute run
 * started at or before the generation's generated_at ($1). Compute evaluates every figure of a run at
 * its start instant (pipeline/compute/run.ts), and publish reads the latest committed compute.
 */
export const COMPUTE_INSTANT_SQL = `SELECT strftime(max(started_at), '%Y-%m-%dT%H:%M:%S.%gZ') AS computed_at
FROM runs
WHERE kind = 'compute' AND status = 'ok' AND started_at <= $1::TIMESTAMP`;

/**
 * `operations` as of atlas_now: the interval in force then, from the interval history (the latest
 * change at or before atlas_now; at one instant a recorded change wins over the first-interval row),
 * and `enabled` / `declared_interval_hours` from the activity transitions (the latest row at or before
 * atlas_now; migration 005), instead of today's values. A TEMP view of this name shadows the table for
 * one connection, so every rule that reads `operations` (evidence_30d, atlas_expected_checks, …) sees
 * the operations as they were at a past instant. `{ops}` is the fully qualified table
 * ("<database>".main.operations): an unqualified name would resolve to the view itself.
 * Not a rule of its own (rules.sql keeps none about history replay); it lives here, with verify.
 */
export const OPERATIONS_AS_OF_SQL = (ops: string) => `CREATE OR REPLACE TEMP VIEW operations AS
WITH h AS (
  SELECT service_id, operation,
    arg_max(to_hours, epoch_us(changed_at) * 2 + (from_hours IS NOT NULL)::INTEGER) AS hours
  FROM interval_changes
  WHERE changed_at <= atlas_compute_now()
  GROUP BY ALL
),
a AS (
  SELECT service_id, operation, arg_max(enabled, since) AS enabled, arg_max(declared_interval_hours, since) AS declared
  FROM operation_activity
  WHERE since <= atlas_compute_now()
  GROUP BY ALL
)
SELECT o.* REPLACE (
  coalesce(h.hours, o.interval_hours) AS interval_hours,
  coalesce(a.enabled, o.enabled) AS enabled,
  CASE WHEN a.service_id IS NULL THEN o.declared_interval_hours ELSE a.declared END AS declared_interval_hours)
FROM ${ops} o
LEFT JOIN h ON h.service_id = o.service_id AND h.operation = o.id
LEFT JOIN a ON a.service_id = o.service_id AND a.operation = o.id`;

/**
 * `services` as of atlas_now: `listed` and `active` from the activity transitions (the latest row at
 * or before atlas_now; migration 005), so listing-criteria/1 (its `listed` and `listing_active`
 * criteria) is recomputed on the state of the evaluated instant, not today's. A TEMP view shadowing
 * the table, like OPERATIONS_AS_OF_SQL; `{services}` is the fully qualified table. The MCP status has
 * no history: its current value is used.
 */
export const SERVICES_AS_OF_SQL = (services: string) => `CREATE OR REPLACE TEMP VIEW services AS
WITH a AS (
  SELECT service_id, arg_max(listed, since) AS listed, arg_max(active, since) AS active
  FROM service_activity
  WHERE since <= atlas_compute_now()
  GROUP BY ALL
)
SELECT s.* REPLACE (coalesce(a.listed, s.listed) AS listed, coalesce(a.active, s.active) AS active)
FROM ${services} s
LEFT JOIN a ON a.service_id = s.id`;

export const SERVICE_EVIDENCE: ResearchQuery = {
  id: 'evidence',
  title: 'Evidence over the 30 days ending at the instant',
  figures: [
    'evidence.operations',
    'evidence.check_interval_hours',
    'evidence.check_interval',
    'evidence.monitoring_since',
    'evidence.monitoring_days',
    'evidence.limited_evidence',
    'evidence.checks_30d',
    'evidence.passed_30d',
    'evidence.missed_30d',
    'evidence.pass_rate',
    'evidence.freshness',
    'evidence.last_check.checked_at',
  ],
  notes:
    "View `evidence_30d` (rules file): checks in [now − 30 days, now], missed checks per operation from the interval history, freshness from the primary operation's latest check and its interval, all at `atlas_now`.",
  sql: `SELECT service_id, operations, check_interval_hours, check_interval,
  atlas_iso(monitoring_since) AS monitoring_since, monitoring_days, limited_evidence,
  checks_30d, passed_30d, missed_30d, pass_rate, freshness,
  atlas_iso(last_check_at) AS last_check_at
FROM evidence_30d
ORDER BY service_id`,
};

export const SERVICE_TERMS: ResearchQuery = {
  id: 'payment_terms',
  title: 'Payment terms over 90 days (discovered x402 services)',
  figures: [
    'payment_terms.current_since',
    'payment_terms.changes_30d',
    'payment_terms.changes_90d',
    'payment_terms.pay_to_changes_90d',
    'payment_terms.last_change_at',
    'payment_terms.last_change_kinds',
    'payment_terms.window_start',
    'payment_terms.limited',
  ],
  notes:
    'View `terms_90d` (rules file) over the valid payment requests observed up to `atlas_now`; a service without a row publishes `payment_terms: null`. While `limited` is true `window_start` is the first observation; otherwise the API answers `data_as_of` minus 90 days, the value this query gives (a published file `api/v1/services/<id>.json` holds the value as of the publish that rendered it, which may be an earlier generation; its own `data_as_of` says which).',
  sql: `SELECT service_id, atlas_iso(current_since) AS current_since,
  changes_30d, changes_90d, pay_to_changes_90d,
  atlas_iso(last_change_at) AS last_change_at, last_change_kinds,
  atlas_iso(window_start) AS window_start, limited
FROM terms_90d
ORDER BY service_id`,
};

export const SERVICE_DECLARED: ResearchQuery = {
  id: 'declared_terms',
  title: 'Declared against observed payment terms (declared-terms/1)',
  figures: ['declared_terms.differs', 'declared_terms.dimensions', 'declared_terms.since', 'declared_terms.sources_compared'],
  notes:
    'Table macro `atlas_declared_state` (rules file) at `atlas_now`, over the declarations kept in `declared_terms` (every read of a catalog, a seller document or a listing) and the valid payment requests in `payment_terms`; a service without a row publishes `declared_terms: null`. The events behind `since` are `atlas_declared_differences(atlas_now)` (`ServiceDetail.declared_differences`, the change feed).',
  sql: `SELECT service_id, differs, dimensions, atlas_iso(since) AS since, sources_compared
FROM atlas_declared_state(atlas_compute_now())
ORDER BY service_id`,
};

/**
 * The catalog standing at atlas_now (view catalog_standing of the rules file, the rule's one home;
 * compute materializes the same view): a discovered service without a row (no catalog ever listed it)
 * and every reviewed service publish null for both.
 */
export const SERVICE_CATALOGS: ResearchQuery = {
  id: 'catalog_standing',
  title: 'Listed but failing, passing but unlisted (discovered services)',
  figures: ['registry_listing.listed_but_failing', 'registry_listing.passing_but_unlisted'],
  notes:
    "View `catalog_standing` (rules file) at `atlas_now` = the generation's compute instant: the catalogs listing and dropping each service from every interval of `catalog_listing_history` recorded up to then, and the latest check of its primary operation (`evidence_30d.latest_passed`). The listing and unlisting events themselves: `SELECT * FROM atlas_catalog_events(atlas_compute_now())`.",
  sql: `SELECT service_id, listed_by, dropped_by, latest_passed, listed_but_failing, passing_but_unlisted
FROM catalog_standing
ORDER BY service_id`,
};

export const SERVICE_SIGNED_OFFERS: ResearchQuery = {
  id: 'signed_offers',
  title: 'Signed offers of the latest valid payment request (signed-offers/1)',
  figures: [
    'signed_offers.checked_at',
    'signed_offers.signed',
    'signed_offers.valid',
    'signed_offers.invalid',
    'signed_offers.not_checked',
    'signed_offers.authorised',
    'signed_offers.not_authorised',
    'signed_offers.signer_not_checked',
    'signed_offers.reasons',
    'signed_offers.terms_differ',
    'signed_offers.differing_fields',
    'signed_offers.last_terms_differ_at',
  ],
  notes:
    'Table macro `atlas_signed_offers_as_of` (rules file) at `atlas_now`, over `offer_signatures` (one row per signed offer a check read, with its signature and signer verdicts) and `payment_terms` (the valid requests). A service without a row publishes `signed_offers: null`. The terms-differ events themselves: `SELECT * FROM atlas_signed_offer_events(atlas_compute_now())`.',
  sql: `SELECT service_id, atlas_iso(checked_at) AS checked_at, signed, valid, invalid, not_checked,
  authorised, not_authorised, signer_not_checked, to_json(reasons)::VARCHAR AS reasons,
  terms_differ, differing_fields, atlas_iso(last_terms_differ_at) AS last_terms_differ_at
FROM atlas_signed_offers_as_of(atlas_compute_now())
ORDER BY service_id`,
};

/**
 * listing-criteria/1 at atlas_now, one column per criterion (null: does not apply), from view
 * listing_criteria of the rules file, the rule's one home (compute's evaluation selects from the
 * same view). `listed` and `active` are replayed as of atlas_now (SERVICES_AS_OF_SQL); the MCP status
 * has no history: its current value is used.
 */
export const SERVICE_DIRECTORY: ResearchQuery = {
  id: 'directory',
  title: 'Directory membership (listing-criteria/1)',
  figures: ['in_directory', 'directory.in_directory', 'directory.criteria[].passed'],
  notes:
    'Each service\'s evaluation names its instant (`directory.evaluated_at` as the API answers it; see "Which instant" for a published file): set `atlas_now` to it. A criterion that does not apply is null; `in_directory` is true when every applicable criterion passed.',
  sql: `SELECT service_id, in_directory,
  passed_checks_30d AS checks_30d, passed_fresh AS fresh, passed_pass_rate AS pass_rate,
  passed_listed AS listed, passed_mainnet_offer AS mainnet_offer, passed_listing_active AS listing_active
FROM listing_criteria
ORDER BY service_id`,
};

/**
 * Every figure of a weekly report as (figure, value) rows: `figure` is the dotted path of the member
 * in the report body, counts and rates as DOUBLE. Events count in the window [from, until)
 * (atlas_in_window); checks and missed checks by kind with atlas_window_checks /
 * atlas_operation_checks; payment-term changes with atlas_terms_change_events. A member of the
 * published body without a row here is 0 (a rate: null).
 */
export const REPORT_FIGURES: ResearchQuery = {
  id: 'report',
  title: 'Weekly report figures',
  figures: [
    'services.*',
    'directory.*',
    'checks.*',
    'listing.*',
    'catalogs.*',
    'interval_changes.*',
    'payment_terms.*',
    'declared_terms.*',
    'signed_offers.*',
    'documentation.*',
    'outcome_reports.received, by_outcome, by_moderation, by_receipt.*',
    'feedback.*',
  ],
  notes:
    'Set `atlas_report_from` to the week start and `atlas_report_until` to `figures_until` (the week end for a frozen report). A correction published with a report replaces the figure it names.',
  sql: `WITH p AS (
  SELECT getvariable('atlas_report_from')::TIMESTAMP AS lo, getvariable('atlas_report_until')::TIMESTAMP AS hi
),
svc AS (SELECT s.tier, s.type FROM services s, p WHERE s.created_at < p.hi),
ran AS (
  SELECT atlas_check_kind(c.rule) AS kind, count(*) AS ran, count(*) FILTER (WHERE c.passed) AS passed
  FROM atlas_window_checks(getvariable('atlas_report_from')::TIMESTAMP, getvariable('atlas_report_until')::TIMESTAMP) c
  GROUP BY 1
),
missed AS (
  SELECT atlas_check_kind(o.pass_rule) AS kind, sum(o.missed) AS missed
  FROM atlas_operation_checks(getvariable('atlas_report_from')::TIMESTAMP, getvariable('atlas_report_until')::TIMESTAMP) o
  SEMI JOIN services s ON s.id = o.service_id AND s.created_at < getvariable('atlas_report_until')::TIMESTAMP
  GROUP BY 1
),
chk AS (
  SELECT coalesce(r.kind, m.kind) AS kind, coalesce(r.ran, 0) AS ran, coalesce(r.passed, 0) AS passed, coalesce(m.missed, 0) AS missed
  FROM ran r FULL OUTER JOIN missed m ON r.kind = m.kind
),
dir AS (
  SELECT service_id, in_directory AS in_dir FROM atlas_directory_as_of(getvariable('atlas_report_until')::TIMESTAMP)
),
added AS (SELECT s.tier FROM services s, p WHERE atlas_in_window(s.created_at, p.lo, p.hi)),
listing AS (SELECT e.listed, e.reason FROM listing_events e, p WHERE atlas_in_window(e.event_at, p.lo, p.hi)),
catalog_events AS (
  SELECT e.service_id, e.listed, e.reason
  FROM atlas_catalog_events(getvariable('atlas_report_until')::TIMESTAMP) e, p WHERE atlas_in_window(e.event_at, p.lo, p.hi)
),
intervals AS (
  SELECT coalesce(atlas_interval_name(i.to_hours), 'other') AS name
  FROM interval_changes i, p WHERE i.from_hours IS NOT NULL AND atlas_in_window(i.changed_at, p.lo, p.hi)
),
terms AS (
  SELECT t.service_id, t.kinds
  FROM atlas_terms_change_events(getvariable('atlas_report_until')::TIMESTAMP) t, p
  WHERE atlas_in_window(t.changed_at, p.lo, p.hi)
),
decl AS (
  SELECT d.service_id, d.dimension, d.began_at, d.ended_at
  FROM atlas_declared_differences(getvariable('atlas_report_until')::TIMESTAMP) d
),
signed AS (
  SELECT e.service_id
  FROM atlas_signed_offer_events(getvariable('atlas_report_until')::TIMESTAMP) e, p
  WHERE atlas_in_window(e.event_at, p.lo, p.hi)
),
docs AS (SELECT c.service_id, c.needs_review FROM changes c, p WHERE atlas_in_window(c.detected_at, p.lo, p.hi)),
outc AS (
  SELECT o.outcome, o.state AS moderation, o.receipt_state AS receipt
  FROM atlas_outcome_state_as_of(getvariable('atlas_report_until')::TIMESTAMP) o, p WHERE atlas_in_window(o.received_at, p.lo, p.hi)
),
fb AS (SELECT f.kind FROM feedback f, p WHERE atlas_in_window(f.received_at, p.lo, p.hi)),
figures(figure, value) AS (
  SELECT 'services.tracked', count(*) FROM svc
  UNION ALL SELECT 'services.by_tier.' || tier, count(*) FROM svc GROUP BY tier
  UNION ALL SELECT 'services.by_type.' || type, count(*) FROM svc GROUP BY type
  UNION ALL SELECT 'services.by_tier_type.' || tier || '.' || type, count(*) FROM svc GROUP BY tier, type
  UNION ALL SELECT 'directory.size', count(*) FILTER (WHERE in_dir) FROM dir
  UNION ALL SELECT 'directory.evaluated', count(*) FROM dir
  UNION ALL SELECT 'checks.total.ran', coalesce(sum(ran), 0) FROM chk
  UNION ALL SELECT 'checks.total.passed', coalesce(sum(passed), 0) FROM chk
  UNION ALL SELECT 'checks.total.missed', coalesce(sum(missed), 0) FROM chk
  UNION ALL SELECT 'checks.total.pass_rate', CASE WHEN sum(ran) > 0 THEN sum(passed) / sum(ran) END FROM chk
  UNION ALL SELECT 'checks.by_kind.' || kind || '.ran', ran FROM chk
  UNION ALL SELECT 'checks.by_kind.' || kind || '.passed', passed FROM chk
  UNION ALL SELECT 'checks.by_kind.' || kind || '.missed', missed FROM chk
  UNION ALL SELECT 'checks.by_kind.' || kind || '.pass_rate', CASE WHEN ran > 0 THEN passed / ran END FROM chk
  UNION ALL SELECT 'listing.added', count(*) FROM added
  UNION ALL SELECT 'listing.added_by_tier.' || tier, count(*) FROM added GROUP BY tier
  UNION ALL SELECT 'listing.delisted', count(*) FILTER (WHERE NOT listed) FROM listing
  UNION ALL SELECT 'listing.relisted', count(*) FILTER (WHERE listed AND coalesce(reason, '') <> 'first_seen') FROM listing
  UNION ALL SELECT 'catalogs.listed', count(*) FILTER (WHERE listed) FROM catalog_events
  UNION ALL SELECT 'catalogs.relisted', count(*) FILTER (WHERE listed AND reason = 'relisted') FROM catalog_events
  UNION ALL SELECT 'catalogs.unlisted', count(*) FILTER (WHERE NOT listed) FROM catalog_events
  UNION ALL SELECT 'catalogs.services', count(DISTINCT service_id) FROM catalog_events
  UNION ALL SELECT 'interval_changes.total', count(*) FROM intervals
  UNION ALL SELECT 'interval_changes.by_new_interval.' || name, count(*) FROM intervals GROUP BY name
  UNION ALL SELECT 'payment_terms.changes', count(*) FROM terms
  UNION ALL SELECT 'payment_terms.services', count(DISTINCT service_id) FROM terms
  UNION ALL SELECT 'payment_terms.by_kind.' || k, count(*) FROM (SELECT unnest(kinds) AS k FROM terms) GROUP BY k
  UNION ALL SELECT 'declared_terms.began', count(*) FILTER (WHERE atlas_in_window(began_at, p.lo, p.hi)) FROM decl, p
  UNION ALL SELECT 'declared_terms.ended', count(*) FILTER (WHERE ended_at IS NOT NULL AND atlas_in_window(ended_at, p.lo, p.hi)) FROM decl, p
  UNION ALL SELECT 'declared_terms.services', count(DISTINCT service_id) FILTER (WHERE atlas_in_window(began_at, p.lo, p.hi)) FROM decl, p
  UNION ALL SELECT 'declared_terms.by_dimension.' || dimension, count(*) FROM decl, p WHERE atlas_in_window(began_at, p.lo, p.hi) GROUP BY dimension
  UNION ALL SELECT 'signed_offers.terms_differ_events', count(*) FROM signed
  UNION ALL SELECT 'signed_offers.services', count(DISTINCT service_id) FROM signed
  UNION ALL SELECT 'documentation.changes', count(*) FROM docs
  UNION ALL SELECT 'documentation.needs_review', count(*) FILTER (WHERE needs_review) FROM docs
  UNION ALL SELECT 'documentation.services', count(DISTINCT service_id) FROM docs
  UNION ALL SELECT 'outcome_reports.received', count(*) FROM outc
  UNION ALL SELECT 'outcome_reports.by_outcome.' || outcome, count(*) FROM outc GROUP BY outcome
  UNION ALL SELECT 'outcome_reports.by_moderation.' || moderation, count(*) FROM outc GROUP BY moderation
  UNION ALL SELECT 'outcome_reports.by_receipt.' || receipt || '.received', count(*) FROM outc GROUP BY receipt
  UNION ALL SELECT 'outcome_reports.by_receipt.' || receipt || '.by_outcome.' || outcome, count(*) FROM outc GROUP BY receipt, outcome
  UNION ALL SELECT 'outcome_reports.by_receipt.' || receipt || '.by_moderation.' || moderation, count(*) FROM outc GROUP BY receipt, moderation
  UNION ALL SELECT 'feedback.received', count(*) FROM fb
  UNION ALL SELECT 'feedback.by_kind.' || kind, count(*) FROM fb GROUP BY kind
)
SELECT figure, value::DOUBLE AS value FROM figures ORDER BY figure`,
};

/**
 * Outcome reports per service, receipt state, reported outcome and moderation state at atlas_now
 * (macro atlas_outcome_counts; receipt verdicts of rule outcome-receipt/1 from outcome_receipt_checks).
 * outcome_reports is the sum over the receipt states.
 */
export const SERVICE_OUTCOME_REPORTS: ResearchQuery = {
  id: 'outcome_reports',
  title: 'Outcome reports per service, by receipt state',
  figures: ['outcome_reports.*', 'outcome_reports_by_receipt.*'],
  notes:
    "Set `atlas_now` to the generation's `generated_at` (the publish instant): reports received and decisions made up to then count. A service without a row has every count 0.",
  sql: `SELECT service_id, receipt_state, outcome, state, n
FROM atlas_outcome_counts(atlas_compute_now())
ORDER BY service_id, receipt_state, outcome, state`,
};

/** Every documented query, in the order docs/research.md lists them. */
export const RESEARCH_QUERIES: readonly ResearchQuery[] = [
  SERVICE_EVIDENCE,
  SERVICE_TERMS,
  SERVICE_DIRECTORY,
  REPORT_FIGURES,
  SERVICE_DECLARED,
  SERVICE_CATALOGS,
  SERVICE_OUTCOME_REPORTS,
  SERVICE_SIGNED_OFFERS,
];
