import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../pipeline/core/config.ts';
import { fleetConfig, startFleet, type Fleet } from '../../../../pipeline/fleet/index.ts';
import { ingestMcp } from '../../../../pipeline/ingest/index.ts';
import { makeContext, testClock, withTestStore } from '../../../helpers/context.ts';

/** The fleet's MCP registry through the real ingest: each lifecycle example lands in its counted reason. */
const clock = testClock('2026-11-25T12:00:00Z');
let fleet: Fleet;

beforeAll(async () => {
  fleet = await startFleet({ clock });
});
afterAll(async () => {
  await fleet?.close();
});

describe('MCP registry ingest of the fleet', () => {
  it('skips the old version, the {host} remote, the plain-http remote and the withdrawn servers; tracks none of them', async () => {
    await withTestStore(async (store, dir) => {
      const config = parseConfig(fleetConfig(fleet));
      const ctx = makeContext(dir, { clock, config });
      const r = await ingestMcp(ctx, store, { source: fleet.mcpRegistryUrl, registry: 'fleet-mcp', delayMs: 0 });
      expect(r.counts.skipped).toMatchObject({
        older_version: 1,
        unfilled_placeholder: 2, // the lifecycle {host} remote and mcp-template-unfilled's {region}
        not_https: 1,
        withdrawn_untracked: 2, // lifecycle-deprecated and lifecycle-versions@2.0.0 (deprecated)
      });
      expect(r.counts).toMatchObject({ deprecated: 2, complete: true });
      const lifecycle = await store.all("SELECT id FROM services WHERE mcp_server_name LIKE 'io.fleet/lifecycle-%'");
      expect(lifecycle).toEqual([]);
      // Every fleet remote kept is plain http on the fleet's resolve-mapped hosts.
      const hosts = await store.all<{ host: string }>("SELECT DISTINCT host FROM services WHERE protocol = 'mcp'");
      expect(hosts.length).toBeGreaterThan(5);
      expect(hosts.every((h) => h.host.endsWith('.fleet.test'))).toBe(true);
    });
  }, 30_000);
});
