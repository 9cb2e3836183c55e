import type { Command } from 'commander';
import { resolve } from 'node:path';
import { limitHeapGrowth } from '../../pipeline/core/heap-growth.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { publish } from '../../pipeline/publish/index.ts';
import { action } from './util.ts';

export function register(program: Command): void {
  program
    .command('publish')
    .description(
      'write a new generation of the static tree and switch <public>/current to it (default data/public); only what changed is rendered, unchanged files are shared with the current generation',
    )
    .option('--out <dir>', 'public folder to publish into (default <data>/public)')
    .option('--full', 'render every service again instead of sharing unchanged files with the current generation')
    .action(
      action(async (ctx, opts: { out?: string; full?: boolean }) => {
        limitHeapGrowth();
        const r = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return publish(ctx, store, { out: opts.out ? resolve(opts.out) : undefined, full: opts.full === true });
        });
        ctx.log.info(`current → generations/${r.generation}`, {
          ...r.counts,
          invalid: r.invalid,
          pages: r.pages,
          ms: r.ms,
          rendered: r.incremental.rendered,
          shared_files: r.incremental.linked,
        });
      }),
    );
}
