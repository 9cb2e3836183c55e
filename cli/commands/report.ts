import type { Command } from 'commander';
import { notImplemented } from './util.ts';

export function register(program: Command): void {
  const report = program.command('report').description('(not implemented yet)').action(notImplemented('atlas report'));
  report.command('correct').description('(not implemented yet)').action(notImplemented('atlas report correct'));
}
