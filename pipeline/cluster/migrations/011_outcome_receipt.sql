-- 011_outcome_receipt: an outcome report may carry the seller's signed x402 receipt (issue 27;
-- site/contract/outcome-receipt.ts). Stored exactly as received, never verified by the replicas;
-- `atlas ingest inbox` copies it into DuckDB and verifies it there. Null without one (and for
-- every report written before this migration).
ALTER TABLE atlas.outcomes ADD COLUMN receipt jsonb;
