import type { Command } from 'commander';
import { resolve } from 'node:path';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { ingestListings } from '../../pipeline/ingest/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

export function register(ingest: Command): void {
  ingest
    .command('listings')
    .description(
      'load reviewed listing files (default: config paths.listings, the project data/listings folder); exit 2 when any file is rejected',
    )
    .option('--dir <dir>', 'folder of listing files (*.json, one service per file); overrides config paths.listings')
    .action(
      action(async (ctx, opts: { dir?: string }) => {
        const dir = opts.dir ? resolve(opts.dir) : ctx.paths.listings;
        const result = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return ingestListings(ctx, store, dir);
        });
        const c = result.counts;
        ctx.log.info(
          `listings: ${c.loaded} loaded (${c.inserted} new, ${c.updated} updated), ${c.rejected} rejected, ${c.deactivated} deactivated, ${c.operations_inserted} operations added`,
          ctx.log.json ? { ...c, run: result.runId } : undefined,
        );
        if (result.rejected.length) {
          throw new AtlasError('invalid_input', `${result.rejected.length} listing file(s) rejected; the others were loaded`, {
            rejected: result.rejected,
          });
        }
      }),
    );
}
