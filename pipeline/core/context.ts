import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import type { Paths } from './paths.ts';

/**
 * What every pipeline step receives: the injected clock, resolved paths, configuration, logger and
 * the installation secret. Built once by the CLI (or by a test) and passed down; steps never read
 * process.env, the wall clock or cwd themselves.
 */
export interface Context {
  clock: Clock;
  paths: Paths;
  config: Config;
  log: Logger;
  secret: string;
}
