import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { exportTables } from '../../pipeline/store/export.ts';
import { withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

/**
 * `atlas export`: the research export (pipeline/store/export.ts; docs/research-guide.md). Opens the
 * database read-only, so it runs beside the pipeline between its runs; `--snapshot` reads the
 * hourly snapshot instead, which no run ever holds. Prints one line per written file (path, rows,
 * bytes) and a total.
 */
export function register(program: Command): void {
  program
    .command('export')
    .description(
      'tables for researchers: Parquet, checks Hive-partitioned by month, every other table one file (no key hashes or contacts)',
    )
    .requiredOption('--out <dir>', 'output folder (must be empty or absent unless --force)')
    .option('--format <format>', 'parquet | csv', 'parquet')
    .option('--force', 'replace a non-empty --out (the new export is written beside it, then swapped in)', false)
    .option('--snapshot', "read the researchers' snapshot instead of the live database", false)
    .action(
      action(async (ctx, opts: { out: string; format: string; force: boolean; snapshot: boolean }) => {
        if (opts.format !== 'parquet' && opts.format !== 'csv')
          throw new AtlasError('bad_usage', `--format must be parquet or csv (got ${JSON.stringify(opts.format)})`);
        const format = opts.format;
        const out = resolve(opts.out);
        const db = opts.snapshot ? ctx.paths.snapshot : ctx.paths.db;
        if (!existsSync(db))
          throw new AtlasError(
            'bad_usage',
            opts.snapshot ? `no snapshot at ${db}; \`atlas cycle\` writes it` : `no database at ${db}; run \`atlas init\` first`,
          );
        const result = await withStore(db, (s) => exportTables(s, out, { format, force: opts.force }), { readOnly: true });
        let rows = 0;
        let bytes = 0;
        for (const f of result.files) {
          rows += f.rows;
          bytes += f.bytes;
          process.stdout.write(`${f.path}\t${f.table ? `${f.rows} rows` : '-'}\t${f.bytes} bytes\n`);
        }
        process.stdout.write(`${result.files.length} files, ${rows} rows, ${bytes} bytes in ${out}\n`);
        ctx.log.info(`exported ${result.files.length} files to ${out}`);
      }),
    );
}
