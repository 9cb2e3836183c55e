import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { computeAll } from '../../pipeline/compute/index.ts';
import { DIRECTORY_SCOPES, DirectoryScope } from '../../site/contract/common.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

export function register(program: Command): void {
  program
    .command('compute')
    .description('evidence, check intervals, payment terms, derived fields and directory membership, at --now')
    .option(
      '--scope <scope>',
      'directory evaluation: full (every service) or changed (checked or placed since their last evaluation); default: full when an hourly full evaluation is due',
    )
    .action(
      action(async (ctx, opts: { scope?: string }) => {
        const parsed = DirectoryScope.optional().safeParse(opts.scope);
        if (!parsed.success) {
          throw new AtlasError('bad_usage', `--scope must be ${DIRECTORY_SCOPES.join(' or ')} (got ${JSON.stringify(opts.scope)})`);
        }
        const scope = parsed.data;
        const summary = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return computeAll(ctx, store, scope ? { scope } : {});
        });
        process.stdout.write(`${JSON.stringify(summary)}\n`);
      }),
    );
}
