import type { Command } from 'commander';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

export function register(program: Command): void {
  program
    .command('init')
    .description('create or migrate the database (running it twice changes nothing)')
    .action(
      action(async (ctx) => {
        const applied = await withStore(ctx.paths.db, (s) => migrate(s, ctx.clock()));
        ctx.log.info(applied.length ? `migrated ${ctx.paths.db}: ${applied.join(', ')}` : `${ctx.paths.db} is up to date`, {
          applied: applied.length,
        });
      }),
    );
}
