import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the real CLI in a child process (as cron would), from the project root. */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'cli', 'main.ts'), ...args], {
      cwd: opts.cwd ?? PROJECT_ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Run the CLI in this process: `main()` of cli/main.ts, the function the real entry calls, so
 * the same program object (buildProgram), argument parsing, commands and error-to-exit-code mapping,
 * with stdout and stderr captured and exit code returned instead of set. What it does not cover is the
 * process itself (tsx start-up, the entry shim, exit with handles still open): every command path
 * keeps one real `runCli` test for that, and the other cases of the path use this one, a child
 * process costing seconds of start-up each on a loaded machine. Calls must not overlap (they
 * swap process-wide writers); `env` is not supported: settings that come from the environment
 * need a real process.
 */
export async function runCliInProcess(args: string[]): Promise<CliResult> {
  const { main } = await import('../../cli/main.ts');
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  const exitCode = process.exitCode;
  // Writes of any shape (string or bytes, with or without encoding and callback) are captured whole.
  const capture =
    (append: (s: string) => void) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      cb?.();
      return true;
    };
  process.stdout.write = capture((s) => (stdout += s)) as typeof process.stdout.write;
  process.stderr.write = capture((s) => (stderr += s)) as typeof process.stderr.write;
  process.exitCode = undefined;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    process.exitCode = exitCode;
  }
}
