import type { Command } from 'commander';
import { notImplemented } from './util.ts';

export function register(ingest: Command): void {
  ingest.command('inbox').description('(not implemented yet)').action(notImplemented('atlas ingest inbox'));
}
