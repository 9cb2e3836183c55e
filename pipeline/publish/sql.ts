import type { DuckDBValue } from '@duckdb/node-api';

/**
 * The SQL publish runs. Everything is aggregated in DuckDB; JS only shapes rows into contract
 * objects. For 100k services and millions of checks, publish never issues a query per service:
 * it stages the per-service parts once into temp tables keyed and sorted by the service's ordinal
 * (position by index bucket, then id), then reads them in ordinal-range batches (zonemaps make each range read cheap).
 *
 * Inputs: services, operations, checks, payment_terms, interval_changes, outcomes (001),
 * outcome_moderation (051) and compute's outputs
 * evidence, terms_summary, terms_changes, service_derived (030) and view directory_current
 * (pipeline/store/rules.sql). A service that compute has not reached yet (no evidence /
 * service_derived row) gets neutral values (no price, no networks: those are compute's rule) and the
 * rules' own macros for the rest (atlas_limited_evidence, atlas_interval_name,
 * atlas_provider_endpoints, atlas_unknown_networks_source), never a second copy of a rule, so
 * publishing right after an ingest still works.
 */

/** ISO-8601 UTC text of a TIMESTAMP expression: macro atlas_iso (pipeline/store/rules.sql). */
export const iso = (expr: string) => `atlas_iso(${expr})`;

/** A statement and its bound parameters (values, times included, are never pasted into the SQL). */
export interface Statement {
  sql: string;
  params: DuckDBValue[];
}

/**
 * The index bucket of a service id under $2 bits (site/contract/index-record.ts): the first bits of
 * md5(id), read from its first 8 hex digits.
 */
const bucketOf = (id: string) => `(('0x' || left(md5(${id}), 8))::UBIGINT >> (32 - $2::INTEGER))::INTEGER`;

/** The signed offers of the latest valid payment request (compute's signed_offers_summary, rule atlas_signed_offers_as_of). */
const SIGNED_OFFERS_COLUMN = `CASE WHEN so.service_id IS NOT NULL THEN to_json({'checked_at': ${iso('so.checked_at')}, 'signed': so.signed, 'valid': so.valid,
    'invalid': so.invalid, 'not_checked': so.not_checked, 'authorised': so.authorised, 'not_authorised': so.not_authorised,
    'signer_not_checked': so.signer_not_checked, 'reasons': so.reasons, 'terms_differ': so.terms_differ,
    'differing_fields': so.differing_fields, 'last_terms_differ_at': ${iso('so.last_terms_differ_at')}})::VARCHAR END AS signed_offers_j`;

/** Declared against observed terms (rule declared-terms/1; compute's declared_state, declared_comparisons, declared_differences). */
const DECLARED_JOINS = `LEFT JOIN (SELECT service_id, to_json({'differs': differs, 'dimensions': dimensions, 'since': ${iso('since')}, 'sources_compared': sources_compared})::VARCHAR AS j
           FROM declared_state) dst ON dst.service_id = s.id
LEFT JOIN (SELECT service_id, to_json(list({'kind': source_kind, 'name': source, 'declared_since': ${iso('declared_since')},
             'read_at': ${iso('declared_read_at')}, 'price_usd': price_usd, 'max_price_usd': max_price_usd, 'networks': networks,
             'assets': assets, 'schemes': schemes, 'states_pay_to': states_pay_to, 'checked': source_detail,
             'observed_at': ${iso('observed_at')}, 'compared': compared, 'differing': differing} ORDER BY source_kind, source))::VARCHAR AS j
           FROM declared_comparisons WHERE declared_since IS NOT NULL GROUP BY service_id) dcs ON dcs.service_id = s.id
LEFT JOIN (SELECT service_id, to_json(list({'source_kind': source_kind, 'source': source, 'dimension': dimension,
             'began_at': ${iso('began_at')}, 'ended_at': ${iso('ended_at')}, 'declared_value': declared_value,
             'declared_since': ${iso('declared_since')}, 'observed_value': observed_value, 'observed_at': ${iso('observed_at')}}
             ORDER BY began_at DESC, source_kind, source, dimension))::VARCHAR AS j
           FROM declared_differences GROUP BY service_id) ddf ON ddf.service_id = s.id`;

/** Catalog standing at the compute instant (service_catalog_standing) and every listed interval up to the publish instant. */
const CATALOG_JOINS = `LEFT JOIN service_catalog_standing cs ON cs.service_id = s.id
LEFT JOIN (SELECT service_id, to_json(list({'kind': catalog_kind, 'name': catalog, 'listed_at': ${iso('listed_at')},
               'unlisted_at': ${iso('CASE WHEN unlisted_at <= $1::TIMESTAMP THEN unlisted_at END')},
               'unlisted_reason': CASE WHEN unlisted_at <= $1::TIMESTAMP THEN unlisted_reason END}
             ORDER BY listed_at, catalog_kind, catalog))::VARCHAR AS j
           FROM catalog_listing_history WHERE listed_at <= $1::TIMESTAMP GROUP BY service_id) ch ON ch.service_id = s.id`;

/**
 * One row per service: every scalar the summary, the index record and the detail header need.
 * $1: the publish instant; $2: the index bucket bits. The ordinal `ord` runs by bucket, then id, so the
 * services of one index bucket are consecutive and the buckets are written one after another.
 *
 * Staged twice over (the same SELECT, so the same values): `pub_keys`, narrow, for every service
 * (the keys publish needs for each and the hash of the whole row, for the fingerprint), and
 * `pub_summary`, the whole rows sorted by ordinal, for the services to render only (`only`: those in
 * temp table pub_todo). Sorting 100,000 wide rows (descriptions, claims, criteria) cost more than
 * the rest of deciding what changed.
 */
const summarySelect = (only: boolean) => `
WITH prim AS (
  SELECT service_id, any_value(id) AS op, max(interval_hours) AS hours FROM operations WHERE is_primary GROUP BY service_id
),
opcount AS (SELECT service_id, count(*) FILTER (WHERE enabled) AS n FROM operations GROUP BY service_id),
-- Ordinals over the narrow (id, bucket) pairs: numbering the wide joined rows sorted every column.
ords AS (SELECT id, bucket, row_number() OVER (ORDER BY bucket, id)::INTEGER AS ord FROM (SELECT id, ${bucketOf('id')} AS bucket FROM services))
SELECT
  q.ord, q.bucket,
  s.id, s.tier, s.type, s.name, s.name_source, s.host, s.url, s.method,
  coalesce(d.templated_url, s.templated_url) AS templated_url,
  s.operator, s.tags, s.category, s.description, s.listed, s.active, s.registry, s.mcp_status, s.remote_type,
  s.x402_version, s.claims::VARCHAR AS claims, s.documentation_urls,
  ${iso('s.first_seen_at')} AS first_seen_at, ${iso('s.last_seen_at')} AS last_seen_at,
  ${iso('s.unlisted_at')} AS unlisted_at, ${iso('s.registry_updated_at')} AS registry_updated_at,
  s.registry_calls_30d::BIGINT AS registry_calls_30d, s.registry_payers_30d::BIGINT AS registry_payers_30d,
  ${iso('s.registry_last_called_at')} AS registry_last_called_at,
  s.registry_price_usd, s.registry_networks, s.operator_price_usd, s.operator_networks,
  d.service_id IS NOT NULL AS has_derived,
  d.price_usd, d.max_price_usd, d.price_source, d.networks, coalesce(d.networks_source, atlas_unknown_networks_source(s.tier)) AS networks_source, d.mainnet,
  coalesce(d.provider_endpoints, h.provider_endpoints)::INTEGER AS provider_endpoints,
  e.service_id IS NOT NULL AS has_evidence,
  coalesce(e.operations, oc.n, 0)::INTEGER AS operations,
  coalesce(e.check_interval_hours, p.hours) AS check_interval_hours,
  coalesce(e.check_interval, atlas_interval_name(p.hours)) AS check_interval,
  e.check_interval_rule,
  ${iso('coalesce(e.monitoring_since, s.monitoring_since)')} AS monitoring_since,
  coalesce(e.limited_evidence, atlas_limited_evidence(s.monitoring_since, $1::TIMESTAMP)) AS limited_evidence,
  coalesce(e.checks_30d, 0) AS checks_30d, coalesce(e.passed_30d, 0) AS passed_30d, coalesce(e.missed_30d, 0) AS missed_30d,
  e.pass_rate, coalesce(e.freshness, 'no_data') AS freshness,
  ${iso('e.last_check_at')} AS last_check_at, e.last_check::VARCHAR AS last_check, e.latest_passed,
  t.service_id IS NOT NULL AS has_terms,
  ${iso('t.current_since')} AS terms_current_since, t.changes_30d AS terms_changes_30d, t.changes_90d AS terms_changes_90d,
  t.pay_to_changes_90d AS terms_pay_to_changes_90d, ${iso('t.last_change_at')} AS terms_last_change_at,
  t.last_change_kinds AS terms_last_change_kinds,
  -- The window start only while limited (the first observation, which never moves); after 90 days
  -- of tracking it is 90 days before the compute instant, moving at every compute, and the server
  -- completes it from the generation's data_as_of (site/contract/terms-window.ts): not staged, so
  -- not fingerprinted.
  ${iso('CASE WHEN t.limited THEN t.window_start END')} AS terms_window_start, t.limited AS terms_limited,
  dc.service_id IS NOT NULL AS has_directory, dc.in_directory, dc.rule AS directory_rule,
  -- Only a changed-scope instant is the service's own: a full evaluation's instant moves every service
  -- hourly and is the generation's (site/contract/directory-evaluated.ts), so it is neither staged
  -- nor fingerprinted.
  dc.scope AS directory_scope, ${iso("CASE WHEN dc.scope = 'changed' THEN dc.evaluated_at END")} AS directory_evaluated_at,
  dc.criteria::VARCHAR AS criteria,
  -- Outcome reports per outcome, moderation state and receipt state at the publish instant (macro
  -- atlas_outcome_counts): in the summary row, so a moderation decision or a receipt verdict changes
  -- the fingerprint.
  orc.j AS outcome_reports_j,
  -- The catalogs that list or listed it (catalog_listing, migration 024), oldest first.
  cl.j AS catalogs_j,
  -- Declared against observed terms (rule declared-terms/1; compute's declared_state,
  -- declared_comparisons, declared_differences of migration 060).
  dst.j AS declared_state_j, dcs.j AS declared_sources_j, ddf.j AS declared_diffs_j,
  -- Listed but failing / passing but unlisted at the compute instant (view catalog_standing of the
  -- rules file, materialized by compute: service_catalog_standing, migration 061).
  cs.listed_but_failing, cs.passing_but_unlisted,
  -- Every listed/unlisted interval up to the publish instant (catalog_listing_history, migration 061).
  ch.j AS catalog_history_j,
  -- Signed offers of the latest valid payment request (compute's signed_offers_summary, rule
  -- atlas_signed_offers_as_of): in the summary row, so a new state changes the fingerprint.
  ${SIGNED_OFFERS_COLUMN}
FROM services s
JOIN ords q ON q.id = s.id
LEFT JOIN prim p ON p.service_id = s.id
LEFT JOIN opcount oc ON oc.service_id = s.id
LEFT JOIN atlas_provider_endpoints h ON h.host = s.host
LEFT JOIN service_derived d ON d.service_id = s.id
LEFT JOIN evidence e ON e.service_id = s.id
LEFT JOIN terms_summary t ON t.service_id = s.id
LEFT JOIN directory_current dc ON dc.service_id = s.id
LEFT JOIN signed_offers_summary so ON so.service_id = s.id
LEFT JOIN (SELECT service_id, to_json(list({'outcome': outcome, 'state': state, 'receipt': receipt_state, 'n': n} ORDER BY outcome, state, receipt_state))::VARCHAR AS j
           FROM atlas_outcome_counts($1::TIMESTAMP) GROUP BY service_id) orc ON orc.service_id = s.id
LEFT JOIN (SELECT service_id, to_json(list({'kind': catalog_kind, 'name': catalog, 'since': ${iso('first_seen')}, 'until': ${iso('dropped_at')}}
             ORDER BY first_seen, catalog_kind, catalog))::VARCHAR AS j
           FROM catalog_listing GROUP BY service_id) cl ON cl.service_id = s.id
${DECLARED_JOINS}
${CATALOG_JOINS}${only ? '\nWHERE q.ord IN (SELECT ord FROM pub_todo)' : ''}`;

/** `pub_keys`: every service's ordinal, bucket, id, membership, the two keys of the static list, and the hash of its summary row. */
export const stageKeysSql = (now: Date, bucketBits: number): Statement => ({
  params: [now.toISOString(), bucketBits],
  sql: `CREATE OR REPLACE TEMP TABLE pub_keys AS
SELECT ord, bucket, id, in_directory, checks_30d, monitoring_since, hash(*COLUMNS(* EXCLUDE (ord, bucket))) AS h
FROM (${summarySelect(false)}) ORDER BY ord`,
});

/** `pub_summary`: the whole summary rows, for every service or (`only`) for those in pub_todo, by ordinal. */
export const stageSummarySql = (now: Date, bucketBits: number, only: boolean): Statement => ({
  params: [now.toISOString(), bucketBits],
  sql: `CREATE OR REPLACE TEMP TABLE pub_summary AS ${summarySelect(only)}
ORDER BY ord`,
});

/** The checks of the daily series (c: checks): the `days` UTC days ending with the publish instant's, up to it. */
export const dailyWindow = (now: string, days: string) =>
  `c.checked_at <= ${now}::TIMESTAMP AND c.checked_at >= date_trunc('day', ${now}::TIMESTAMP) - to_days(${days}::INTEGER - 1)`;

/** ` AND <column> IN (the ids of the services to render, temp table pub_todo)`, or nothing. */
const todoOnly = (only: boolean, column: string) =>
  only ? ` AND ${column} IN (SELECT k.id FROM pub_keys k JOIN pub_todo u ON u.ord = k.ord)` : '';

/**
 * A detail part: the SELECT of its rows (a `service_id` column first, then the columns the batch
 * reads), for every service or (`only`) for the services to render.
 */
export interface DetailPart {
  table: string;
  select: (only: boolean) => string;
  params: DuckDBValue[];
}

/**
 * Detail parts. Each is hashed for every service (hashPartSql: per service the sum of its rows'
 * hashes, for the fingerprint) and staged only for the services to render (stagePartSql: one temp
 * table each, keyed and sorted by the service's ordinal `ord` in pub_keys, an integer, so an
 * ord-range read touches only its own row groups: zonemaps on VARCHAR ids are truncated prefixes and
 * would not prune). Both read the same SELECT, so equal hashes mean equal staged rows. Each batch
 * aggregates its own services' rows into JSON text already in contract shape and order.
 * $1 is the publish instant; `recent` (checks per service) is bound too.
 */
export const detailParts = (now: Date, recent: number): DetailPart[] => {
  const t = now.toISOString();
  return [
    {
      table: 'pub_ops',
      params: [],
      select: (
        only,
      ) => `SELECT o.service_id, o.id, o.kind, o.is_primary, o.url, o.method, o.interval_hours, o.pass_rule, o.expected_statuses, o.enabled
   FROM operations o WHERE true${todoOnly(only, 'o.service_id')}`,
    },
    {
      table: 'pub_recent',
      params: [t, recent],
      // Only the last (recent + 1) intervals of the service's fastest operation (and at most 90 days)
      // can hold its latest `recent` checks on schedule: the window function sees a fraction of the table.
      select: (only) => `WITH lim AS (SELECT service_id, min(interval_hours) AS h FROM operations GROUP BY service_id)
   SELECT c.service_id, c.operation, c.slot, c.checked_at, c.status, c.passed, c.reason, c.rule, c.latency_ms
   FROM checks c JOIN lim ON lim.service_id = c.service_id
   WHERE c.checked_at <= $1::TIMESTAMP AND c.checked_at > $1::TIMESTAMP - INTERVAL 90 DAY
     AND c.checked_at > $1::TIMESTAMP - to_hours((lim.h * ($2::INTEGER + 1))::BIGINT)${todoOnly(only, 'c.service_id')}
   QUALIFY row_number() OVER (PARTITION BY c.service_id ORDER BY c.checked_at DESC, c.operation) <= $2::INTEGER`,
    },
    {
      table: 'pub_intervals',
      params: [t],
      select: (only) => `SELECT i.service_id, i.operation, i.changed_at, i.from_hours, i.to_hours, i.rule, i.reason
   FROM interval_changes i WHERE i.changed_at <= $1::TIMESTAMP${todoOnly(only, 'i.service_id')}`,
    },
    {
      table: 'pub_terms_changes',
      params: [t],
      select: (only) => `SELECT c.service_id, c.changed_at, c.kinds FROM terms_changes c
   WHERE c.changed_at <= $1::TIMESTAMP AND c.changed_at > $1::TIMESTAMP - INTERVAL 90 DAY${todoOnly(only, 'c.service_id')}`,
    },
    {
      // The latest valid payment request of the primary operation. Offers are cleaned of pay_to in JS.
      table: 'pub_terms_latest',
      params: [t],
      select: (only) => `WITH t AS (
     SELECT t.* FROM payment_terms t JOIN operations o ON o.service_id = t.service_id AND o.id = t.operation AND o.is_primary
     WHERE t.observed_at <= $1::TIMESTAMP${todoOnly(only, 't.service_id')}
     QUALIFY row_number() OVER (PARTITION BY t.service_id ORDER BY t.observed_at DESC, t.slot DESC) = 1
   )
   SELECT t.service_id, to_json({'observed_at': ${iso('t.observed_at')}, 'x402_version': t.x402_version, 'networks': t.networks,
     'offers': t.offers, 'min_price_usd': t.min_price_usd, 'max_price_usd': t.max_price_usd, 'currencies': t.currencies})::VARCHAR AS j
   FROM t`,
    },
  ];
};

/** Per service, the sum of the part's row hashes (every column but service_id), into `<table>_h`. */
export const hashPartSql = (p: DetailPart): Statement => ({
  sql: `CREATE OR REPLACE TEMP TABLE ${p.table}_h AS
   SELECT service_id, sum(hash(*COLUMNS(* EXCLUDE (service_id)))) AS h FROM (${p.select(false)}) GROUP BY service_id`,
  params: p.params,
});

/** The part's rows by ordinal, for every service or (`only`) for the services to render. */
export const stagePartSql = (p: DetailPart, only: boolean): Statement => ({
  sql: `CREATE OR REPLACE TEMP TABLE ${p.table} AS
   SELECT k.ord, p.* EXCLUDE (service_id) FROM (${p.select(only)}) p JOIN pub_keys k ON k.id = p.service_id ORDER BY k.ord`,
  params: p.params,
});

/**
 * The daily series part, for every service or (`only`) for those in pub_todo. Not a DetailPart: its
 * fingerprint is hashed from the raw checks of its window (fingerprint.ts), not from its rows.
 */
export const stageDailySql = (now: Date, days: number, only: boolean): Statement => ({
  sql: `CREATE OR REPLACE TEMP TABLE pub_daily AS
   WITH d AS (
     SELECT c.service_id, strftime(c.checked_at, '%Y-%m-%d') AS day, count(*)::INTEGER AS checks,
       count(*) FILTER (WHERE c.passed)::INTEGER AS passed, quantile_cont(c.latency_ms, 0.5) AS median_latency_ms
     FROM checks c
     WHERE ${dailyWindow('$1', '$2')}${todoOnly(only, 'c.service_id')}
     GROUP BY ALL
   )
   SELECT s.ord, d.day, d.checks, d.passed, d.median_latency_ms FROM d JOIN pub_keys s ON s.id = d.service_id ORDER BY s.ord`,
  params: [now.toISOString(), days],
});

export const DROP_STAGED = [
  'pub_keys',
  'pub_summary',
  ...['pub_ops', 'pub_recent', 'pub_intervals', 'pub_terms_changes', 'pub_terms_latest'].flatMap((t) => [t, `${t}_h`]),
  'pub_daily',
  'pub_fp',
  'pub_todo',
].map((t) => `DROP TABLE IF EXISTS temp.${t}`);

/**
 * Services per ordinal range $1..$2: the summary scalars and every detail part as JSON text.
 * `only` narrows every part to the services of the range listed in temp table pub_todo (an
 * incremental publish renders only the services whose fingerprint changed, fingerprint.ts).
 */
const batchSql = (only: string) => `
WITH
o AS (SELECT ord, to_json(list({'id': id, 'kind': kind, 'is_primary': is_primary, 'url': url, 'method': method,
        'check_interval_hours': interval_hours, 'pass_rule': pass_rule, 'expected_statuses': expected_statuses, 'enabled': enabled}
        ORDER BY is_primary DESC, id))::VARCHAR AS j
      FROM pub_ops WHERE ord BETWEEN $1 AND $2${only} GROUP BY ord),
r AS (SELECT ord, to_json(list({'operation': operation, 'slot': ${iso('slot')}, 'checked_at': ${iso('checked_at')},
        'status': status, 'passed': passed, 'reason': reason, 'rule': rule, 'latency_ms': latency_ms}
        ORDER BY checked_at DESC, operation))::VARCHAR AS j
      FROM pub_recent WHERE ord BETWEEN $1 AND $2${only} GROUP BY ord),
d AS (SELECT ord, to_json(list({'day': day, 'checks': checks, 'passed': passed, 'median_latency_ms': median_latency_ms} ORDER BY day))::VARCHAR AS j
      FROM pub_daily WHERE ord BETWEEN $1 AND $2${only} GROUP BY ord),
i AS (SELECT ord, to_json(list({'operation': operation, 'changed_at': ${iso('changed_at')}, 'from_hours': from_hours,
        'to_hours': to_hours, 'rule': rule, 'reason': reason} ORDER BY changed_at, operation))::VARCHAR AS j
      FROM pub_intervals WHERE ord BETWEEN $1 AND $2${only} GROUP BY ord),
c AS (SELECT ord, to_json(list({'changed_at': ${iso('changed_at')}, 'kinds': kinds} ORDER BY changed_at DESC))::VARCHAR AS j
      FROM pub_terms_changes WHERE ord BETWEEN $1 AND $2${only} GROUP BY ord),
l AS (SELECT ord, j FROM pub_terms_latest WHERE ord BETWEEN $1 AND $2${only})
SELECT s.*, o.j AS ops_j, r.j AS recent_j, d.j AS daily_j, i.j AS intervals_j, c.j AS terms_changes_j, l.j AS terms_latest_j
FROM pub_summary s
LEFT JOIN o ON o.ord = s.ord LEFT JOIN r ON r.ord = s.ord LEFT JOIN d ON d.ord = s.ord
LEFT JOIN i ON i.ord = s.ord LEFT JOIN c ON c.ord = s.ord LEFT JOIN l ON l.ord = s.ord
WHERE s.ord BETWEEN $1 AND $2${only.replaceAll('ord IN', 's.ord IN')}
ORDER BY s.ord`;

export const BATCH_SQL = batchSql('');

/** BATCH_SQL for the services of pub_todo ranked $3..$4, whose ordinals lie in $1..$2. */
export const BATCH_TODO_SQL = batchSql(' AND ord IN (SELECT ord FROM pub_todo WHERE rank BETWEEN $3 AND $4)');

/** The services to render, by ordinal ($1: ordinals separated by commas), ranked in order. */
export const STAGE_TODO_SQL = `CREATE OR REPLACE TEMP TABLE pub_todo AS
SELECT ord, row_number() OVER (ORDER BY ord)::INTEGER AS rank
FROM (SELECT unnest(string_split($1, ','))::INTEGER AS ord) ORDER BY ord`;
