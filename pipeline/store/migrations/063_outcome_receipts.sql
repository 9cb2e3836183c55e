-- 063_outcome_receipts: outcome reports backed by the seller's signed x402 receipt (issue 27, item 4;
-- docs/notes/outcome-receipts.md, site/contract/outcome-receipt.ts).
--
-- outcomes.receipt: the receipt object exactly as the reporter sent it (JSON), null without one.
-- It names the payer (usually the reporter's wallet address), so the research export leaves it out.
--
-- outcome_receipt_checks: one verdict per report that carried a receipt, made once by
-- `atlas ingest inbox` (pipeline/inbox/receipt-checks.ts) in the transaction that loads the report,
-- by rule outcome-receipt/1, and never updated. A report with a receipt always has its row; a report
-- without one never has. The receipt state of a report (verified / not_verified / no_receipt) is
-- derived by one rule, macro atlas_outcome_state_as_of in pipeline/store/rules.sql.
ALTER TABLE outcomes ADD COLUMN receipt JSON;

CREATE TABLE outcome_receipt_checks (
  report_id VARCHAR PRIMARY KEY,          -- outcomes.id
  state VARCHAR NOT NULL,                 -- verified | not_verified
  reason VARCHAR,                         -- null when verified; else one of RECEIPT_REASONS
  detail VARCHAR,                         -- the check's own words (e.g. did_web_not_resolved), short
  format VARCHAR,                         -- eip712 | jws (null when unreadable)
  signature VARCHAR NOT NULL,             -- valid | invalid | not_checked
  signer_hash VARCHAR,                    -- keyed hash of the signer's address (as payment_terms.pay_to_hashes), null when unknown
  resource_match BOOLEAN,                 -- the receipt's resourceUrl is the service's (null when not reached)
  issued_at TIMESTAMP,                    -- the receipt's issuedAt (UTC), null when unreadable
  window_lo TIMESTAMP,                    -- the issuedAt window applied (RECEIPT_WINDOW)
  window_hi TIMESTAMP,
  rule VARCHAR NOT NULL,                  -- outcome-receipt/1
  checked_at TIMESTAMP NOT NULL           -- the loader's clock (injected)
);
