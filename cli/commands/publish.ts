import type { Command } from 'commander';
import { notImplemented } from './util.ts';

export function register(program: Command): void {
  program.command('publish').description('(not implemented yet)').action(notImplemented('atlas publish'));
}
