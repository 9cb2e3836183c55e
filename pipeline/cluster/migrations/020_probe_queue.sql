-- The probe queue's own tables (the jobs themselves live in pg-boss's schema, created by `atlas init`).
--
-- probe_checks: what workers write back, one row per (service, operation, slot) like DuckDB's checks
-- (the primary key makes a retried job's second result a no-op). check_row / terms_row hold the
-- check and its payment terms in the batch-file record shape (pipeline/probe/batches/format.ts),
-- which the writer validates with the same schema when it loads them (json, not jsonb: the text is kept
-- as written, key order included, so the loaded rows equal a local run's byte for byte). xid is the writing
-- transaction's id: the writer loads rows below pg_snapshot_xmin of a snapshot taken before its read
-- (every such transaction has ended), then advances its watermark there; seq only orders rows
-- within one transaction for paging.
CREATE TABLE atlas.probe_checks (
  service_id text NOT NULL,
  operation text NOT NULL,
  slot timestamptz NOT NULL,
  run_id text NOT NULL,
  job_id uuid NOT NULL,
  check_row json NOT NULL,
  terms_row json,
  written_at timestamptz NOT NULL DEFAULT now(),
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  seq bigserial NOT NULL,
  PRIMARY KEY (service_id, operation, slot)
);
CREATE INDEX probe_checks_xid ON atlas.probe_checks (xid, seq);
CREATE INDEX probe_checks_run ON atlas.probe_checks (run_id);

-- Which job holds each queued (service, operation, slot): the writer enqueues an operation's slot
-- again only when it has no written-back check and no open job (so two cycles in one slot, or a
-- cycle re-run after a crash, add no duplicate work; a job that failed for good frees its slots).
CREATE TABLE atlas.probe_queued (
  service_id text NOT NULL,
  operation text NOT NULL,
  slot timestamptz NOT NULL,
  job_id uuid NOT NULL,
  queued_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (service_id, operation, slot)
);
CREATE INDEX probe_queued_job ON atlas.probe_queued (job_id);

-- The writer's load watermark (one row): every probe_checks row with xid below it is in DuckDB.
CREATE TABLE atlas.probe_load (
  id integer PRIMARY KEY CHECK (id = 1),
  watermark xid8 NOT NULL,
  loaded_at timestamptz
);
INSERT INTO atlas.probe_load (id, watermark) VALUES (1, '0'::xid8);
