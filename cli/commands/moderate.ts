import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { decideByOperator, type ReportFilter, runModeration } from '../../pipeline/moderation/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import type { ModerationStateName } from '../../site/contract/moderation.ts';
import { action } from './util.ts';

interface DecideOptions {
  reason?: string;
  by?: string;
  note?: string;
  file?: string;
  service?: string;
  key?: string;
  state?: string;
}

/** Report ids of a --file: one a line; blank lines and lines starting with # are ignored. */
function idsOfFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new AtlasError('bad_usage', `--file ${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

function decideCommand(moderate: Command, decision: 'accept' | 'reject'): void {
  const cmd = moderate
    .command(`${decision} [report-ids...]`)
    .description(
      decision === 'accept'
        ? 'accept outcome reports (ids, --file, or a filter); recorded with --by and the time'
        : 'reject outcome reports with a --reason from the fixed set (default operator_review); recorded with --by and the time',
    )
    .option('--by <name>', 'the operator recorded as the decider (required)')
    .option('--note <text>', 'a note kept with the decision')
    .option('--file <path>', 'more report ids, one a line (# comments)')
    .option('--service <id>', 'every report about this service')
    .option('--key <key-id>', 'every report of this key')
    .option('--state <state>', 'only reports in this state now (pending, accepted, rejected)');
  if (decision === 'reject') cmd.option('--reason <reason>', 'why (a reason of the fixed set; default operator_review)');
  cmd.action(
    action(async (ctx, ids: string[], opts: DecideOptions) => {
      if (!opts.by) throw new AtlasError('bad_usage', "required option '--by <name>' not specified");
      const all = [...ids, ...(opts.file ? idsOfFile(opts.file) : [])];
      const filter: ReportFilter = {
        ...(opts.service !== undefined ? { service: opts.service } : {}),
        ...(opts.key !== undefined ? { key: opts.key } : {}),
        ...(opts.state !== undefined ? { state: opts.state as ModerationStateName } : {}),
      };
      const now = ctx.clock();
      const r = await withStore(ctx.paths.db, async (store) => {
        await migrate(store, now);
        return decideByOperator(store, {
          decision,
          ids: all,
          filter,
          by: opts.by!,
          now,
          ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
          ...(opts.note !== undefined ? { note: opts.note } : {}),
        });
      });
      ctx.log.info(`moderate ${decision}: ${r.decided.length} report(s) decided by ${opts.by}`);
      for (const d of r.decided) process.stdout.write(`${JSON.stringify({ ...d, decided_by: opts.by, decided_at: now.toISOString() })}\n`);
    }),
  );
}

/**
 * `atlas moderate run`: the automatic rules (moderation/1) over every undecided outcome report (also
 * a step of `atlas cycle`, right after the inbox is ingested).
 * `atlas moderate accept|reject <report-id...> [--file F] [--service ID] [--key KEY_ID] [--state S]
 * --by NAME [--reason R] [--note TEXT]`: an operator's decision, never overridden by the rules.
 */
export function register(program: Command): void {
  const moderate = program.command('moderate').description('moderate outcome reports: the automatic rules (run) or an operator decision');
  moderate
    .command('run')
    .description('decide every undecided outcome report by the automatic rules (moderation/1)')
    .action(
      action(async (ctx) => {
        const r = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, ctx.clock());
          return runModeration(ctx, store);
        });
        ctx.log.info('moderate: done', { pending: r.pending, accepted: r.accepted, rejected: r.rejected });
        process.stdout.write(`${JSON.stringify(r)}\n`);
      }),
    );
  decideCommand(moderate, 'accept');
  decideCommand(moderate, 'reject');
}
