import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { limitHeapGrowth } from '../../pipeline/core/heap-growth.ts';
import { runCycle } from '../../pipeline/cycle/index.ts';
import { withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

export function register(program: Command): void {
  program
    .command('cycle')
    .description('everything due, in order: ingest, probe, compute, reports, publish (what cron runs)')
    .option('--force', 'run every step now, whatever its cadence')
    .option('--allow-private', 'let probes reach private addresses (tests, demo)')
    .option('--skip-registries', 'do not read the registry sources of the config')
    .action(
      action(async (ctx, opts: { force?: boolean; allowPrivate?: boolean; skipRegistries?: boolean }) => {
        limitHeapGrowth();
        const result = await withStore(ctx.paths.db, (s) =>
          runCycle(ctx, s, {
            force: !!opts.force,
            skipRegistries: !!opts.skipRegistries,
            probe: opts.allowPrivate ? { allowPrivate: true } : {},
          }),
        );
        for (const s of result.steps)
          ctx.log.info(`${s.step}: ${s.status}${s.error ? ` (${s.error})` : ''}`, { step: s.step, status: s.status });
        if (result.failed) throw new AtlasError('internal', `cycle finished with ${result.failed} failed step(s)`);
      }),
    );
}
