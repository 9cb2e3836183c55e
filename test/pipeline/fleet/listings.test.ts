import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readListingDir } from '../../../pipeline/ingest/listings/read.ts';
import { fleetConfig, startFleet, writeFleetListings, type Fleet } from '../../../pipeline/fleet/index.ts';
import { parseConfig } from '../../../pipeline/core/config.ts';
import { tempDir, testClock } from '../../helpers/context.ts';

/** Reviewed listing files and the Atlas config fragment pointing at the fleet. */
const clock = testClock('2026-11-25T12:00:00Z');
let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet({ clock });
});
afterAll(async () => {
  await fleet?.close();
});

describe('fleet listings and config', () => {
  it('writes one valid reviewed listing per documented service', () => {
    const tmp = tempDir('fleet-listings-');
    try {
      const written = writeFleetListings(fleet, tmp.dir);
      expect(fleet.listingsDir).toBe(tmp.dir);
      const set = readListingDir(tmp.dir);
      expect(set.rejected).toEqual([]);
      expect(set.valid.length).toBe(fleet.docs.length);
      expect(written.length).toBe(fleet.docs.length);
      for (const { listing } of set.valid) {
        const primary = listing.operations.find((o) => o.primary)!;
        expect(fleet.endpoints.some((e) => e.url === primary.url)).toBe(true);
        const doc = listing.operations.find((o) => o.kind === 'documentation')!;
        expect(fleet.docs.some((d) => d.url === doc.url)).toBe(true);
      }
    } finally {
      tmp.cleanup();
    }
  });

  it('fleetConfig is a valid Atlas config fragment', () => {
    const cfg = parseConfig(fleetConfig(fleet, { registries: true }));
    expect(cfg.probe.allowPrivate).toBe(true);
    expect(cfg.probe.resolve).toEqual({ '*.fleet.test': '127.0.0.1' });
    expect(cfg.registries.map((r) => r.source)).toEqual([fleet.x402RegistryUrl, fleet.mcpRegistryUrl]);
  });
});
