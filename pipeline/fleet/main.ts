import { parseArgs } from 'node:util';
import { fixedClock, parseNow, systemClock } from '../core/clock.ts';
import { fleetConfig } from './config.ts';
import { startFleet } from './fleet.ts';
import { writeFleetListings } from './listings.ts';

/**
 * Run the fleet standalone until Ctrl-C (for the demo and manual benchmarks):
 *   npx tsx pipeline/fleet/main.ts [--size N] [--seed S] [--latency MIN-MAX] [--hang SHARE]
 *                              [--now ISO] [--listings DIR] [--fast-encoding] [--two-catalogs]
 *                              [--catalog-drop-at ISO]
 * Prints one JSON line: port, registry URLs, the Atlas config fragment and the endpoint count.
 * `--two-catalogs`: the config names the second x402 catalog too (`fleet-bsc`), and the two
 * catalogs list overlapping but different sets (quirk splitCatalogs; docs/notes/ingest.md);
 * `--catalog-drop-at`: when the second catalog drops one resource both list (timeline.catalogDropAt).
 */
const { values } = parseArgs({
  options: {
    size: { type: 'string' },
    seed: { type: 'string' },
    latency: { type: 'string' },
    hang: { type: 'string' },
    now: { type: 'string' },
    listings: { type: 'string' },
    'fast-encoding': { type: 'boolean' },
    'two-catalogs': { type: 'boolean' },
    'catalog-drop-at': { type: 'string' },
  },
});

const [minMs, maxMs] = (values.latency ?? '0-0').split('-').map((v) => Number(v));
const clock = values.now ? fixedClock(parseNow(values.now)) : systemClock;
const fleet = await startFleet({
  clock,
  ...(values.size ? { size: Number(values.size) } : {}),
  ...(values.seed ? { seed: Number(values.seed) } : {}),
  latency: { minMs: minMs ?? 0, maxMs: maxMs ?? minMs ?? 0, hangShare: Number(values.hang ?? 0) },
  headerEncoding: values['fast-encoding'] ? 'buffer' : 'x402-core',
  ...(values['two-catalogs'] ? { registryQuirks: { splitCatalogs: true } } : {}),
  ...(values['catalog-drop-at'] ? { timeline: { catalogDropAt: parseNow(values['catalog-drop-at']) } } : {}),
});
if (values.listings) writeFleetListings(fleet, values.listings);
process.stdout.write(
  `${JSON.stringify({
    port: fleet.port,
    endpoints: fleet.endpoints.length,
    x402RegistryUrl: fleet.x402RegistryUrl,
    mcpRegistryUrl: fleet.mcpRegistryUrl,
    x402SecondRegistryUrl: fleet.x402SecondRegistryUrl,
    listingsDir: fleet.listingsDir ?? null,
    config: fleetConfig(fleet, { registries: true, secondCatalog: !!values['two-catalogs'] }),
  })}\n`,
);
const stop = (): void => {
  void fleet.close();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
