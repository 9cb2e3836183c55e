import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { appendCorrection, freezeDueReports, freezeWeek, getReport, parseWeekId, weekId } from '../../pipeline/reports/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function weekOption(value: string): Date {
  const ws = parseWeekId(value);
  if (!ws) throw new AtlasError('bad_usage', `--week must be a Monday in YYYY-MM-DD form (got ${JSON.stringify(value)})`);
  return ws;
}

/**
 * `atlas report [--week YYYY-MM-DD]`: freeze every finished week not frozen yet (oldest first), or one
 * finished week; prints the frozen report(s) as JSON lines on stdout.
 * `atlas report correct --week YYYY-MM-DD --note TEXT [--figure PATH=VALUE ...]`: append a correction;
 * prints it as JSON.
 */
export function register(program: Command): void {
  const report = program
    .command('report')
    .description("freeze finished weeks' reports (or one with --week); `report correct` appends a correction")
    .option('--week <monday>', 'freeze this finished week (YYYY-MM-DD, a Monday)')
    .action(
      action(async (ctx, opts: { week?: string }) => {
        const now = ctx.clock();
        const out = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, now);
          if (opts.week) {
            const ws = weekOption(opts.week);
            const frozen = await freezeWeek(store, ws, now);
            ctx.log.info(
              frozen ? `froze the report of the week of ${weekId(ws)}` : `the week of ${weekId(ws)} was already frozen; unchanged`,
            );
            return [await getReport(store, weekId(ws), now)];
          }
          const r = await freezeDueReports(ctx, store);
          if (!r.frozen.length) ctx.log.info('no finished week to freeze');
          return Promise.all(r.frozen.map((id) => getReport(store, id, now)));
        });
        for (const r of out) process.stdout.write(`${JSON.stringify(r)}\n`);
      }),
    );
  report
    .command('correct')
    .description('append a correction to a frozen weekly report (its figures never change)')
    // The root program parses options anywhere, so `report correct --week W` may hand --week to
    // `report` itself: read it from either command.
    .option('--week <monday>', 'the frozen week (YYYY-MM-DD, a Monday; required)')
    .requiredOption('--note <text>', 'what is corrected and why')
    .option('--figure <path=value>', 'corrected figure, e.g. checks.by_kind.x402.missed=3 (repeatable)', collect, [])
    .action(
      action(async (ctx, opts: { week?: string; note: string; figure: string[] }) => {
        const week = opts.week ?? report.opts<{ week?: string }>().week;
        if (!week) throw new AtlasError('bad_usage', "required option '--week <monday>' not specified");
        weekOption(week);
        const now = ctx.clock();
        const correction = await withStore(ctx.paths.db, async (store) => {
          await migrate(store, now);
          return appendCorrection(store, { week, note: opts.note, figures: opts.figure }, now);
        });
        ctx.log.info(`correction ${correction.seq} appended to the week of ${week}`);
        process.stdout.write(`${JSON.stringify(correction)}\n`);
      }),
    );
}
