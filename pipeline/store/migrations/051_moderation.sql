-- 051_moderation: decisions on outcome reports (docs/notes/moderation.md).
--
-- One row per decision, never updated or deleted, so the history of a report's moderation is kept.
-- The automatic rules (`atlas moderate run`, a step of `atlas cycle`) decide each report once, and
-- only a report with no decision yet; an operator (`atlas moderate accept|reject`) may decide any
-- report any number of times. The state of a report is derived by one rule, macro
-- atlas_outcome_state_as_of in pipeline/store/rules.sql: its latest operator decision, else the
-- rules' decision, else pending. `outcomes.moderation` (001) is the state on receipt only (always
-- 'pending'): nothing reads it for a figure.
CREATE TABLE outcome_moderation (
  report_id VARCHAR NOT NULL,             -- outcomes.id
  seq INTEGER NOT NULL,                   -- 1, 2, … per report, in the order decided
  state VARCHAR NOT NULL,                 -- accepted | rejected
  reason VARCHAR,                         -- rejected: one of MODERATION_REASONS (site/contract/moderation.ts); accepted: null
  rule_version VARCHAR NOT NULL,          -- the rules' version (moderation/1), or 'operator'
  decided_by VARCHAR NOT NULL,            -- 'pipeline' or the operator's name
  decided_at TIMESTAMP NOT NULL,          -- the decider's clock (injected; --now in the CLI)
  note VARCHAR,                           -- an operator's note
  PRIMARY KEY (report_id, seq)
);
