import type { Command } from 'commander';
import { resolve } from 'node:path';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { publish } from '../../site/publish/index.ts';
import { action } from './util.ts';

export function register(program: Command): void {
  program
    .command('publish')
    .description('write a new generation of the static tree and switch <public>/current to it (default data/public)')
    .option('--out <dir>', 'public folder to publish into (default <data>/public)')
    .action(
      action(async (ctx, opts: { out?: string }) => {
        const r = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return publish(ctx, store, { out: opts.out ? resolve(opts.out) : undefined });
        });
        ctx.log.info(`current → generations/${r.generation}`, { ...r.counts, invalid: r.invalid, pages: r.pages, ms: r.ms });
      }),
    );
}
