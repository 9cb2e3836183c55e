import { join } from 'node:path';
import type { Store } from '../store/store.ts';
import {
  MODERATION_INDEX_FILE,
  MODERATION_INDEX_FORMAT,
  MODERATION_RULE,
  type ModerationDecision,
  ModerationIndex,
} from '../../site/contract/moderation.ts';
import { iso } from './sql.ts';
import { writeJson } from './write.ts';

/**
 * `index/moderation.json` (site/contract/moderation.ts ModerationIndex): the current decision of every
 * moderated outcome report at the publish instant, by report id, from macro atlas_outcome_state_as_of
 * (pipeline/store/rules.sql). Pending reports are left out (the server answers pending for an id it
 * does not find). Returns the number of decisions written.
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
  await writeJson(join(genDir, ...MODERATION_INDEX_FILE.split('/')), ModerationIndex, {
    format: MODERATION_INDEX_FORMAT,
    rule: MODERATION_RULE,
    decisions,
  });
  return rows.length;
}
