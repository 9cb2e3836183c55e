-- 004_bounded_history: history that stays bounded as the index grows (docs/notes/history.md).
--
-- 1. Directory membership as transitions. `directory` held one row per service per evaluation (a
--    full evaluation every hour writes a row for every tracked service). It now holds one row per
--    change: a row starts when an evaluation finds a service's membership, rule or any criterion's
--    result (applies, passed, value, threshold: the whole criteria JSON) different from its current
--    row, and later evaluations that find the same state only move that row's `evaluated_at` forward.
--      since         the first evaluation that found this state
--      evaluated_at  the latest evaluation that confirmed it (what the service page publishes)
--      scope         the scope of that latest evaluation
--    Existing rows are converted without losing a state: for each run of consecutive evaluations of a
--    service with equal membership, rule and criteria, the first row is kept, dated `since` its own
--    evaluation and `evaluated_at` the run's last. The repeated confirmations in between carried no
--    other information; every evaluation's instant and scope stays in `directory_evaluations`.
CREATE TABLE directory_evaluations (
  evaluated_at TIMESTAMP NOT NULL,
  scope VARCHAR NOT NULL,                 -- changed | full
  evaluated INTEGER NOT NULL,             -- services evaluated
  in_directory INTEGER NOT NULL,          -- of which in the directory
  transitions INTEGER NOT NULL            -- rows this evaluation added to `directory`
);

-- Rows converted from the old table: the number of transitions of each old evaluation is not worth
-- reconstructing; it is written as the rows of that evaluation that start a run.
CREATE TEMP TABLE directory_runs AS
WITH ordered AS (
  SELECT *,
    (lag(in_directory) OVER w IS DISTINCT FROM in_directory
      OR lag(rule) OVER w IS DISTINCT FROM rule
      OR lag(criteria::VARCHAR) OVER w IS DISTINCT FROM criteria::VARCHAR) AS starts
  FROM directory
  WINDOW w AS (PARTITION BY service_id ORDER BY evaluated_at)
),
numbered AS (
  SELECT *, sum(starts::INTEGER) OVER (PARTITION BY service_id ORDER BY evaluated_at ROWS UNBOUNDED PRECEDING) AS run_no
  FROM ordered
)
SELECT service_id, run_no,
  min(evaluated_at) AS since,
  max(evaluated_at) AS evaluated_at,
  arg_min(in_directory, evaluated_at) AS in_directory,
  arg_min(rule, evaluated_at) AS rule,
  arg_max(scope, evaluated_at) AS scope,
  arg_min(criteria, evaluated_at) AS criteria
FROM numbered
GROUP BY service_id, run_no;

INSERT INTO directory_evaluations
SELECT d.evaluated_at, d.scope, count(*)::INTEGER, count(*) FILTER (WHERE d.in_directory)::INTEGER,
  count(r.service_id)::INTEGER
FROM directory d LEFT JOIN directory_runs r ON r.service_id = d.service_id AND r.since = d.evaluated_at
GROUP BY d.evaluated_at, d.scope;

DROP TABLE directory;

CREATE TABLE directory (
  service_id VARCHAR NOT NULL,
  since TIMESTAMP NOT NULL,               -- first evaluation that found this state
  evaluated_at TIMESTAMP NOT NULL,        -- latest evaluation that confirmed it
  in_directory BOOLEAN NOT NULL,
  rule VARCHAR NOT NULL,                  -- listing-criteria/1
  scope VARCHAR NOT NULL,                 -- scope of the latest evaluation: changed | full
  criteria JSON NOT NULL                  -- [{id, description, applies, passed, value, threshold}]
);

INSERT INTO directory
SELECT service_id, since, evaluated_at, in_directory, rule, scope, criteria FROM directory_runs ORDER BY since, service_id;

DROP TABLE directory_runs;

-- 2. Archived checks. Checks older than the archive cut (the longest evidence window plus a margin:
--    100 days) move to monthly Parquet files under the data folder (`atlas archive`,
--    pipeline/store/history.ts). A file counts only once it is listed here: the row is inserted in
--    the same transaction that deletes the archived rows from `checks`, so after a crash either the
--    file is listed and its rows are gone from `checks`, or it is not listed (and is removed by the
--    next run) and the rows are still live. View checks_all (rules.sql) reads `checks` and the listed
--    files, never a file that is not listed, so no check is counted twice or lost.
CREATE TABLE archive_files (
  path VARCHAR PRIMARY KEY,               -- relative to the data folder, '/'-separated: archive/checks/month=YYYY-MM/<run id>_0.parquet
  month VARCHAR NOT NULL,                 -- YYYY-MM of checked_at
  run_id VARCHAR NOT NULL,                -- the archive run that wrote it
  rows BIGINT NOT NULL,
  bytes BIGINT NOT NULL,
  min_checked_at TIMESTAMP NOT NULL,
  max_checked_at TIMESTAMP NOT NULL,
  archived_at TIMESTAMP NOT NULL
);

-- 3. Daily per-operation check aggregates for long-range charts (they outlive the raw rows, which
--    are archived after 100 days). Filled by `atlas compute` and before each archive run from macro
--    atlas_check_daily (rules.sql). Evidence is never computed from them: every published figure
--    reads the raw checks.
CREATE TABLE check_daily (
  service_id VARCHAR NOT NULL,
  operation VARCHAR NOT NULL,
  day DATE NOT NULL,                      -- UTC day of checked_at
  checks INTEGER NOT NULL,                -- checks that ran
  passed INTEGER NOT NULL,
  latency_n INTEGER NOT NULL,             -- checks with a latency
  latency_sum_ms DOUBLE,                  -- sum over those (mean = latency_sum_ms / latency_n)
  latency_p50_ms DOUBLE,
  latency_p95_ms DOUBLE
);
