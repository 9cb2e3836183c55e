import type { Command } from 'commander';
import { ingestInbox } from '../../pipeline/inbox/load.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

/**
 * `atlas ingest inbox`: load the server's append logs (<data>/inbox/*.jsonl, every replica) into
 * the tables keys / outcomes / feedback. Idempotent by id; safe to run every cycle.
 */
export function register(ingest: Command): void {
  ingest
    .command('inbox')
    .description('load keys, outcome reports and feedback written by the server into the database')
    .action(
      action(async (ctx) => {
        await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          const s = await ingestInbox(ctx, store);
          ctx.log.info('ingest inbox: done', {
            keys: `${s.keys.inserted}/${s.keys.read}`,
            outcomes: `${s.outcomes.inserted}/${s.outcomes.read}`,
            feedback: `${s.feedback.inserted}/${s.feedback.read}`,
            receipts_verified: `${s.receipts.verified}/${s.receipts.checked}`,
            skipped_lines: s.keys.skipped + s.outcomes.skipped + s.feedback.skipped,
          });
        });
      }),
    );
}
