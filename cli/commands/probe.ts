import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { parseShard } from '../../pipeline/probe/shard.ts';
import { runProbeToBatch } from '../../pipeline/probe/batches/run.ts';
import { limitHeapGrowth } from '../../pipeline/core/heap-growth.ts';
import { tuneStoreForSweep } from '../../pipeline/probe/process-memory.ts';
import { runProbeJobs } from '../../pipeline/probe/run-jobs.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action, parseIntOption } from './util.ts';

interface ProbeCliOptions {
  all?: boolean;
  concurrency?: number;
  timeoutMs?: number;
  allowPrivate?: boolean;
  shard?: string;
  only?: string;
  out?: string;
}

const ONLY = ['calls', 'documentation', 'all'] as const;

/**
 * `atlas probe`: run every check that is due, as one run per probe job (calls: kind `probe`,
 * documentation pages: kind `docs`; `--only` picks one). Migrates the database first. With `--out DIR` it is a
 * worker (docs/notes/sharding.md): the database is only read (never migrated or written) and the
 * checks go to one batch file in DIR for `atlas ingest checks DIR`.
 */
export function register(program: Command): void {
  program
    .command('probe')
    .description('run every scheduled check that is due and record each result (one row per slot)')
    .option('--all', 'probe every enabled operation now (still one row per slot)')
    .option(
      '--concurrency <n>',
      'requests in flight overall (default config probe.concurrency, 64)',
      parseIntOption('--concurrency', 1, 1024),
    )
    .option(
      '--timeout-ms <n>',
      'deadline per check for connect, headers and body (default 10000)',
      parseIntOption('--timeout-ms', 100, 120_000),
    )
    .option('--allow-private', 'lift the private-address guard (tests, demo)')
    .option('--shard <i/n>', 'probe only services whose id hashes to shard i of n (0 <= i < n)')
    .option('--only <kind>', 'calls | documentation | all (default all)')
    .option('--out <dir>', 'worker mode: read the database read-only, write the checks as one batch file into <dir>')
    .action(
      action(async (ctx, o: ProbeCliOptions) => {
        const shard = o.shard !== undefined ? parseShard(o.shard) : undefined;
        if (o.only !== undefined && !(ONLY as readonly string[]).includes(o.only)) {
          throw new AtlasError('bad_usage', `--only must be one of ${ONLY.join(', ')} (got ${JSON.stringify(o.only)})`);
        }
        const probeOpts = {
          all: !!o.all,
          concurrency: o.concurrency,
          timeoutMs: o.timeoutMs,
          allowPrivate: o.allowPrivate ? true : undefined,
          shard,
          only: o.only as (typeof ONLY)[number] | undefined,
          tty: !!process.stderr.isTTY && !ctx.log.json,
        };
        const out = o.out;
        // This process does one sweep: keep its heap and DuckDB's allocator lean (process-memory.ts).
        limitHeapGrowth();
        // A run over calls and documentation is one run per probe job (PROBE_JOBS), each under its own
        // kind; a worker writes one batch file of one run.
        const summaries =
          out !== undefined
            ? [
                await withStore(
                  ctx.paths.db,
                  async (store) => {
                    await tuneStoreForSweep(store);
                    return runProbeToBatch(ctx, store, { ...probeOpts, out });
                  },
                  { readOnly: true },
                ),
              ]
            : await withStore(ctx.paths.db, async (store) => {
                await migrate(store, ctx.clock());
                await tuneStoreForSweep(store);
                return runProbeJobs(ctx, store, probeOpts);
              });
        for (const summary of summaries) {
          const c = summary.counts;
          const reasons = Object.entries(c.by_reason)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ');
          ctx.log.info(
            ctx.log.json
              ? `${summary.kind} finished`
              : `${summary.kind}: ${c.probed}/${c.due} due checked, ${c.stored} stored (${c.passed} passed, ${c.failed} failed${reasons ? `: ${reasons}` : ''}), ${c.payment_terms} payment terms, ${(summary.durationMs / 1000).toFixed(1)} s, ${summary.checksPerSecond.toFixed(1)}/s, run ${summary.runId}${'file' in summary ? `, batch ${summary.file}` : ''}`,
            ctx.log.json
              ? {
                  run: summary.runId,
                  kind: summary.kind,
                  status: summary.status,
                  ...c,
                  duration_ms: Math.round(summary.durationMs),
                  ...('file' in summary ? { batch: summary.file } : {}),
                }
              : undefined,
          );
        }
      }),
    );
}
