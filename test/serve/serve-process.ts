import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../pipeline/core/paths.ts';

/** A real `atlas serve` child process (tests and the soak bench). */
export interface ServeProcess {
  child: ChildProcess;
  /** The URL the server printed as its first stdout line. */
  url: string;
  stderr(): string;
  /**
   * Resolves when the child's stderr (its log) holds a line matching `pattern`, counting lines
   * already written; rejects if the child exits first. An event to await, not a poll.
   */
  logged(pattern: RegExp): Promise<string>;
  /** SIGTERM, then the exit code (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Spawn `atlas <args>` (args must run `serve --port 0` or another port) and resolve once the URL is
 * printed; rejects with the child's stderr when it exits first.
 */
export async function startServeProcess(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', join(PROJECT_ROOT, 'cli', 'main.ts'), ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^(http:\/\/\S+)\n/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`atlas serve exited ${code}: ${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    logged(pattern) {
      return new Promise<string>((resolve, reject) => {
        const find = () => stderr.split('\n').find((l) => pattern.test(l));
        const onData = () => {
          const line = find();
          if (line === undefined) return;
          child.stderr!.off('data', onData);
          child.off('exit', onExit);
          resolve(line);
        };
        const onExit = (code: number | null) => {
          child.stderr!.off('data', onData);
          reject(new Error(`atlas serve exited ${code} before logging ${pattern}: ${stderr}`));
        };
        child.stderr!.on('data', onData);
        child.once('exit', onExit);
        onData();
      });
    },
    stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
      return exit.finally(() => clearTimeout(force));
    },
  };
}

/**
 * Wait for an event observed through `check` (true once it happened), trying every 50 ms until
 * `deadlineMs`; resolves with the time it took, rejects at the deadline. A bounded wait for
 * something another process does (it exposes no event to await), not a sleep standing in for an
 * assertion. The deadline only ends a wait that would never succeed, so it is far above what a slow
 * machine needs; callers assert on what happened, not on how long it took.
 */
export async function waitFor(what: string, check: () => Promise<boolean>, deadlineMs = 30_000): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await check()) return performance.now() - t0;
    if (performance.now() - t0 > deadlineMs) throw new Error(`${what}: not within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
