import type { Command } from 'commander';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { contextFrom } from '../context.ts';
import type { Context } from '../../pipeline/core/context.ts';

/** Wrap an action: build the Context from global options, then run. Errors go to main's one mapper. */
export function action<A extends unknown[]>(fn: (ctx: Context, ...args: A) => Promise<void> | void) {
  return async function (this: Command, ...args: unknown[]) {
    const cmd = args[args.length - 1] as Command;
    const ctx = contextFrom(cmd);
    await fn(ctx, ...(args.slice(0, -1) as A));
  };
}

export function parseIntOption(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value)) throw new AtlasError('bad_usage', `${name} must be a whole number (got ${JSON.stringify(value)})`);
    const n = Number(value);
    if (n < min || n > max) throw new AtlasError('bad_usage', `${name} must be between ${min} and ${max} (got ${n})`);
    return n;
  };
}
