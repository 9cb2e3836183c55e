import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { ingestCheckBatches } from '../../pipeline/probe/batches/load.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

/**
 * `atlas ingest checks DIR`: load the batch files probe workers wrote (`atlas probe --out DIR`) into
 * the database (docs/notes/sharding.md). Idempotent: a batch already loaded is skipped, so it is safe
 * to run every cycle. A torn or invalid file is named on stderr and the command exits 2 after loading
 * the others.
 */
export function register(ingest: Command): void {
  ingest
    .command('checks')
    .description('load the check batch files written by probe workers (atlas probe --out DIR)')
    .argument('<dir>', 'the folder the workers write their batch files into')
    .action(
      action(async (ctx, dir: string) => {
        const s = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return ingestCheckBatches(ctx, store, dir);
        });
        ctx.log.info(
          ctx.log.json
            ? 'ingest checks: done'
            : `ingest checks: ${s.loaded.length} of ${s.files} batch files loaded (${s.alreadyLoaded} already loaded, ${s.invalid.length} refused), ${s.checksInserted} checks stored, ${s.skippedExistingSlot} for a filled slot skipped, ${s.termsInserted} payment terms, run ${s.runId}`,
          ctx.log.json ? { run: s.runId, ...s.counts } : undefined,
        );
        if (s.invalid.length) {
          throw new AtlasError('invalid_input', `ingest checks: not loaded: ${s.invalid.map((f) => f.error).join('; ')}`);
        }
      }),
    );
}
