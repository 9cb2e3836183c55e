import type { Command } from 'commander';
import { runDocs } from '../../pipeline/docs/index.ts';
import { withStore } from '../../pipeline/store/index.ts';
import { action, parseIntOption } from './util.ts';

interface DocsCliOptions {
  all?: boolean;
  concurrency?: number;
  timeoutMs?: number;
  allowPrivate?: boolean;
}

/**
 * `atlas docs`: fetch reviewed services' documentation pages that are due (daily) through the probe's
 * safe HTTP edge, record their checks, snapshots and changes. Migrates the database first.
 */
export function register(program: Command): void {
  program
    .command('docs')
    .description("fetch reviewed services' documentation pages that are due, record snapshots and changes")
    .option('--all', 'fetch every documentation page now (still one check per slot)')
    .option('--concurrency <n>', 'requests in flight overall', parseIntOption('--concurrency', 1, 1024))
    .option('--timeout-ms <n>', 'deadline per page', parseIntOption('--timeout-ms', 100, 120_000))
    .option('--allow-private', 'lift the private-address guard (tests, demo)')
    .action(
      action(async (ctx, o: DocsCliOptions) => {
        const summary = await withStore(ctx.paths.db, (store) =>
          runDocs(ctx, store, {
            all: !!o.all,
            concurrency: o.concurrency,
            timeoutMs: o.timeoutMs,
            allowPrivate: o.allowPrivate ? true : undefined,
          }),
        );
        const c = summary.counts;
        ctx.log.info(
          ctx.log.json
            ? 'docs finished'
            : `docs: ${c.probed}/${c.due} pages checked (${c.passed} passed, ${c.failed} failed), run ${summary.runId}`,
          ctx.log.json ? { run: summary.runId, status: summary.status, ...c } : undefined,
        );
      }),
    );
}
