import type { Command } from 'commander';
import { fixedClock, parseNow, systemClock } from '../pipeline/core/clock.ts';
import { loadConfig } from '../pipeline/core/config.ts';
import type { Context } from '../pipeline/core/context.ts';
import { createLogger } from '../pipeline/core/log.ts';
import { resolvePaths } from '../pipeline/core/paths.ts';
import { loadSecret } from '../pipeline/core/secret.ts';

export interface GlobalOptions {
  data?: string;
  now?: string;
  json?: boolean;
  config?: string;
  debug?: boolean;
}

/** Build the Context from the program's global options (validated here: bad --now exits 2). */
export function contextFrom(cmd: Command): Context {
  const g = cmd.optsWithGlobals<GlobalOptions>();
  const clock = g.now ? fixedClock(parseNow(g.now)) : systemClock;
  const config = loadConfig(g.config);
  const paths = resolvePaths(g.data ?? config.paths.data, config.paths.listings);
  return {
    clock,
    config,
    paths,
    log: createLogger({ json: !!g.json }),
    secret: loadSecret(paths.secret),
  };
}
