import { spawn } from 'node:child_process';
import { Command, CommanderError } from 'commander';
import { fileURLToPath } from 'node:url';
import { register } from '../../cli/commands/probe.ts';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';
import { exitCodeFor, isAtlasError } from '../../pipeline/core/errors.ts';
import type { CliResult } from '../helpers/cli.ts';

/**
 * `atlas probe` with the CLI's global options and error mapping, but without the other commands,
 * so the probe's process-level tests (exit codes, SIGKILL) do not depend on commands other engineers
 * are still writing. Same code path below commander: cli/commands/probe.ts → runProbe.
 */
export const ENTRY = fileURLToPath(import.meta.url);

async function main(argv: string[]): Promise<number> {
  const program = new Command('atlas')
    .option('--data <dir>')
    .option('--now <iso>')
    .option('--json')
    .option('--config <file>')
    .option('--debug')
    .exitOverride();
  register(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    process.stderr.write(`atlas: ${(e as Error).message}\n`);
    return isAtlasError(e) ? exitCodeFor(e.code) : 1;
  }
}

export function runProbeCli(args: string[], timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnProbeCli(args);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export const spawnProbeCli = (args: string[]) =>
  spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });

if (process.argv[1] === ENTRY) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
