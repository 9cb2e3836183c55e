-- 010_writes: the replicas' writes (docs/notes/cluster.md, "Replicas"). Any replica writes a key, an
-- outcome report or a feedback message in one transaction; `atlas ingest inbox` moves new rows into
-- DuckDB's keys / outcomes / feedback. Columns are those of the inbox records
-- (site/contract/inbox-records.ts); times are timestamptz, read back as ISO strings.
--
-- `xid` is the writing transaction (pg_current_xact_id()): the loader's watermark is a transaction
-- id, never `seq`, because a sequence value is taken before commit and a lower one can commit after
-- a higher one was read. `seq` only orders rows within one read.
CREATE TABLE atlas.keys (
  key_id text PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,
  label text,
  contact text,
  created_at timestamptz NOT NULL,
  address_hash text,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX keys_xid ON atlas.keys (xid);

-- One report per (key, idempotency key): a repeat on any replica finds the first one here.
CREATE TABLE atlas.outcomes (
  id text PRIMARY KEY,
  key_id text NOT NULL,
  idempotency_key text NOT NULL,
  service_id text,
  referral_id text,
  outcome text NOT NULL,
  failure_kind text,
  operation text,
  task_category text,
  reported_at timestamptz,
  received_at timestamptz NOT NULL,
  moderation text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  UNIQUE (key_id, idempotency_key)
);
CREATE INDEX outcomes_xid ON atlas.outcomes (xid);

CREATE TABLE atlas.feedback (
  id text PRIMARY KEY,
  kind text NOT NULL,
  note text,
  about text,
  contact text,
  received_at timestamptz NOT NULL,
  address_hash text,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX feedback_xid ON atlas.feedback (xid);

-- Per-address counts per UTC day ('keys' | 'feedback'), taken in the transaction of the row they
-- count by one conditional upsert: a write that fails never consumes the limit, and R replicas
-- together never pass the limit. Days before yesterday are deleted by the replicas now and then.
CREATE TABLE atlas.daily_counts (
  what text NOT NULL,
  day date NOT NULL,
  address_hash text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (what, day, address_hash)
);

-- Per-minute request windows shared by the replicas (`k:<key id>` or `a:<address>`). Unlogged: a
-- PostgreSQL crash empties it, which only forgets the current minute's counts.
CREATE UNLOGGED TABLE atlas.request_windows (
  who text NOT NULL,
  minute bigint NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (who, minute)
);
