import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { withStore } from '../../pipeline/store/index.ts';
import { action } from './util.ts';

export function register(program: Command): void {
  program
    .command('export')
    .description('raw tables for researchers (one Parquet file per table, plus schema.sql)')
    .requiredOption('--out <dir>', 'output folder (must be empty or absent)')
    .option('--format <format>', 'parquet | csv', 'parquet')
    .action(
      action(async (ctx, opts: { out: string; format: string }) => {
        if (!['parquet', 'csv'].includes(opts.format))
          throw new AtlasError('bad_usage', `--format must be parquet or csv (got ${JSON.stringify(opts.format)})`);
        const out = resolve(opts.out);
        if (existsSync(out) && readdirSync(out).length) throw new AtlasError('bad_usage', `--out ${out} is not empty`);
        if (!existsSync(ctx.paths.db)) throw new AtlasError('bad_usage', `no database at ${ctx.paths.db}; run \`atlas init\` first`);
        mkdirSync(out, { recursive: true });
        // EXPORT DATABASE takes no bound parameters (DuckDB's parser refuses `$1` there): the path is
        // quoted as a string literal, quotes doubled; the format is one of two fixed words.
        await withStore(
          ctx.paths.db,
          (s) => s.run(`EXPORT DATABASE '${out.replace(/'/g, "''")}' (FORMAT ${opts.format === 'csv' ? 'csv' : 'parquet'})`),
          { readOnly: true },
        );
        ctx.log.info(`exported ${readdirSync(out).length} files to ${out}`);
      }),
    );
}
