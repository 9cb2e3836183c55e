import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { ingestWellKnown, nonZero, reasonLines } from '../../pipeline/ingest/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

/**
 * `atlas ingest well-known --origins FILE`: sellers' own `/.well-known/x402` documents as a source.
 * A subcommand beside `x402` and `mcp` (not a configured registry): its input is a list of third-party
 * origins, each fetched through the probe's address guard, not one operator-chosen list endpoint.
 */
export function register(ingest: Command): void {
  ingest
    .command('well-known')
    .description(
      "sellers' /.well-known/x402 documents: one origin per line (host, host:port or https://host[:port]); fetched through the probe's address guard",
    )
    .requiredOption('--origins <file>', 'file of origins, one per line (# comments)')
    .action(
      action(async (ctx, opts: { origins: string }) => {
        if (!existsSync(opts.origins) || !statSync(opts.origins).isFile())
          throw new AtlasError('bad_usage', `--origins file not found: ${opts.origins}`);
        const r = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return ingestWellKnown(ctx, store, { originsFile: opts.origins });
        });
        const c = r.counts;
        ctx.log.info(
          `well-known: ${c.read} of ${c.origins} origin(s) read, ${c.declared} resources declared, ${c.seen} kept (${c.inserted} new, ${c.updated} updated, ${c.relisted} relisted, ${c.delisted_missing} delisted)`,
          ctx.log.json ? { ...c, origins_detail: r.origins, run: r.runId } : undefined,
        );
        for (const [outcome, n] of nonZero(c.outcomes)) ctx.log.info(`well-known: origins ${n} ${outcome}`);
        for (const line of reasonLines('well-known', c.skipped, c.noted)) ctx.log.info(line);
      }),
    );
}
