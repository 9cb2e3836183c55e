-- 041_cluster_inbox_watermark: how far `atlas ingest inbox` has loaded the replicas' writes from
-- PostgreSQL (cluster.postgres set; docs/notes/cluster.md). One row. `xmin` is a PostgreSQL
-- transaction id (xid8): every write of a transaction below it is in the tables keys / outcomes /
-- feedback; writes at or above it are read again at the next run, and the inserts skip ids already
-- there. Updated in the DuckDB transaction that inserts the rows, so a run killed at any point
-- leaves both as they were.
CREATE TABLE cluster_inbox_watermark (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  xmin BIGINT NOT NULL,
  loaded_at TIMESTAMP NOT NULL
);
