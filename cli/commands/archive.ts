import type { Command } from 'commander';
import { ARCHIVE_AFTER_DAYS, migrate, runArchive, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

/**
 * `atlas archive`: move checks older than the archive cut into monthly Parquet files under the data
 * folder (pipeline/store/history.ts; docs/notes/history.md). `atlas cycle` runs it once a day; view
 * checks_all reads live and archived checks together. Prints the result as JSON.
 */
export function register(program: Command): void {
  program
    .command('archive')
    .description(
      `move checks older than ${ARCHIVE_AFTER_DAYS} days (at --now) to <data>/archive/checks/month=YYYY-MM/*.parquet; view checks_all reads both`,
    )
    .action(
      action(async (ctx) => {
        const result = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return runArchive(store, ctx.clock);
        });
        process.stdout.write(`${JSON.stringify(result)}\n`);
      }),
    );
}
