#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { AtlasError, exitCodeFor, isAtlasError } from '../pipeline/core/errors.ts';
import { addExamples } from './commands/examples.ts';
import { registerCommands } from './commands/index.ts';

/** commander wiring only: parse, call pipeline/site/serve, map errors to exit codes (0 / 1 / 2). */
export function buildProgram(): Command {
  const program = new Command('atlas')
    .description('Atlas: a directory of x402 endpoints, MCP servers and task marketplaces, with measured evidence')
    .option('--data <dir>', 'runtime state folder (database, published tree, inbox, secret)')
    .option('--now <iso>', 'simulated clock (ISO-8601)')
    .option('--json', 'log lines as JSON')
    .option('--config <file>', 'config file (default ./atlas.config.json when present)')
    .option('--debug', 'print stack traces of unexpected errors')
    .exitOverride();
  registerCommands(program);
  addExamples(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version exit 0; usage errors have already been printed by commander.
      return e.exitCode === 0 ? 0 : 2;
    }
    const debug = argv.includes('--debug');
    if (isAtlasError(e)) {
      process.stderr.write(`atlas: ${e.message}\n`);
      if (debug && e.cause) process.stderr.write(`${String((e.cause as Error)?.stack ?? e.cause)}\n`);
      return exitCodeFor(e.code);
    }
    process.stderr.write(`atlas: failed: ${(e as Error)?.message ?? String(e)}\n`);
    if (debug) process.stderr.write(`${(e as Error)?.stack ?? ''}\n`);
    return 1;
  }
}

export { AtlasError };

const isEntry = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry || process.argv[1]?.endsWith('cli/main.ts')) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`atlas: failed: ${(e as Error)?.message}\n`);
      process.exitCode = 1;
    },
  );
}
