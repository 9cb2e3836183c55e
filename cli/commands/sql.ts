import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { formatCsv, formatTable, query, withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

export function register(program: Command): void {
  program
    .command('sql')
    .description('read-only query against the database')
    .argument('<query>', 'SQL to run (read-only)')
    .option('--format <format>', 'table | json | csv', 'table')
    .action(
      action(async (ctx, sql: string, opts: { format: string }) => {
        if (!['table', 'json', 'csv'].includes(opts.format)) {
          throw new AtlasError('bad_usage', `--format must be table, json or csv (got ${JSON.stringify(opts.format)})`);
        }
        if (!existsSync(ctx.paths.db)) throw new AtlasError('bad_usage', `no database at ${ctx.paths.db}; run \`atlas init\` first`);
        const result = await withStore(
          ctx.paths.db,
          async (s) => {
            await s.run('SET VARIABLE atlas_now = $1::TIMESTAMP', [ctx.clock().toISOString()]);
            try {
              return await query(s, sql);
            } catch (e) {
              throw new AtlasError('invalid_input', `query failed: ${(e as Error).message.split('\n')[0]}`);
            }
          },
          { readOnly: true },
        );
        const out = opts.format === 'json' ? JSON.stringify(result.rows) : opts.format === 'csv' ? formatCsv(result) : formatTable(result);
        process.stdout.write(`${out}\n`);
      }),
    );
}
