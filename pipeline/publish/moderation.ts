import { join } from 'node:path';
import type { Store } from '../store/store.ts';
import {
  MODERATION_INDEX_FILE,
  MODERATION_INDEX_FORMAT,
  MODERATION_RULE,
  type ModerationDecision,
  ModerationIndex,
} from '../../site/contract/moderation.ts';
import type { ReceiptVerdictEntry } from '../../site/contract/receipt-verdict.ts';
import { iso } from './sql.ts';
import { writeJson } from './write.ts';

/**
 * `index/moderation.json` (site/contract/moderation.ts ModerationIndex): the current decision of every
 * moderated outcome report at the publish instant, by report id, from macro atlas_outcome_state_as_of
 * (pipeline/store/rules.sql), and the receipt verdict of every report whose receipt was checked by
 * then (table outcome_receipt_checks, rule outcome-receipt/1). Pending reports and receipts not yet
 * checked are left out (the server answers pending for an id it does not find). Returns the number
 * of decisions written.
 */
export async function writeModerationIndex(store: Store, genDir: string, now: Date): Promise<number> {
  const rows = await store.all<{
    report_id: string;
    state: 'accepted' | 'rejected';
    reason: ModerationDecision['reason'];
    decided_at: string;
  }>(
    `SELECT report_id, state, reason, ${iso('decided_at')} AS decided_at
     FROM atlas_outcome_state_as_of($1::TIMESTAMP) WHERE state <> 'pending' ORDER BY report_id`,
    [now.toISOString()],
  );
  const decisions: Record<string, ModerationDecision> = {};
  for (const r of rows) decisions[r.report_id] = { state: r.state, reason: r.reason, decided_at: r.decided_at };
  const checked = await store.all<{ report_id: string } & ReceiptVerdictEntry>(
    `SELECT report_id, state, reason, ${iso('checked_at')} AS checked_at
     FROM outcome_receipt_checks WHERE checked_at <= $1::TIMESTAMP ORDER BY report_id`,
    [now.toISOString()],
  );
  const receipts: Record<string, ReceiptVerdictEntry> = {};
  for (const r of checked) receipts[r.report_id] = { state: r.state, reason: r.reason, checked_at: r.checked_at };
  await writeJson(join(genDir, ...MODERATION_INDEX_FILE.split('/')), ModerationIndex, {
    format: MODERATION_INDEX_FORMAT,
    rule: MODERATION_RULE,
    decisions,
    receipts,
  });
  return rows.length;
}
