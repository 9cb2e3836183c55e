import type { Command } from 'commander';
import { register as registerChecks } from './ingest-checks.ts';
import { register as registerInbox } from './ingest-inbox.ts';
import { register as registerListings } from './ingest-listings.ts';
import { register as registerRegistry } from './ingest-registry.ts';
import { register as registerWellKnown } from './ingest-well-known.ts';

export function register(program: Command): void {
  const ingest = program
    .command('ingest')
    .description("load listings, registries, the server inbox or probe workers' check batches into the database");
  registerListings(ingest);
  registerRegistry(ingest); // x402 and mcp
  registerWellKnown(ingest);
  registerInbox(ingest);
  registerChecks(ingest);
}
