import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../pipeline/core/config.ts';
import { runProbe } from '../../../pipeline/probe/index.ts';
import { startFleet, fleetConfig, type Fleet } from '../../../pipeline/fleet/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { seedServices, type SeedService } from './seed.ts';

/**
 * The whole catalogue of the fleet, as discovered services (inserted directly; ingest is tested
 * elsewhere): the stored verdict, reason and status of every behaviour equal the fleet's `expected`.
 * Reviewed documentation pages are probed with reviewed/1 (expected 200).
 */
describe('probe against the fleet', () => {
  const clock = testClock('2026-11-25T12:10:00Z');
  const t = tempDir();
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ clock, slowMs: 30_000, sseIntervalMs: 20 });
  });
  afterAll(async () => {
    await fleet.close();
    t.cleanup();
  });

  it('stores exactly the expected verdict of every fleet behaviour', async () => {
    const store = await openTestStore(t.dir);
    try {
      const services: SeedService[] = fleet.endpoints
        .filter((e) => e.protocol !== 'web')
        .map((e, i) => ({
          id: `cand_f${i}`,
          protocol: e.protocol === 'mcp' ? 'mcp' : 'x402',
          ops: [{ url: e.url, method: e.method, rule: e.protocol === 'mcp' ? ('mcp-reach/3' as const) : ('x402-mainnet/2' as const) }],
        }));
      const docs: SeedService[] = fleet.docs.map((d, i) => ({
        id: `svc_d${i}`,
        protocol: 'none',
        ops: [{ url: d.url, kind: 'documentation' as const, rule: 'reviewed/1' as const, expected: [200], intervalHours: 24 }],
      }));
      await seedServices(store, [...services, ...docs]);
      const config = parseConfig(fleetConfig(fleet));
      const ctx = makeContext(t.dir, { clock, config });
      const summary = await runProbe(ctx, store, { timeoutMs: 3000 });
      expect(summary.counts.probed).toBe(services.length + docs.length);
      const rows = await store.all<{ service_id: string; passed: boolean; reason: string; status: number | null }>(
        'SELECT service_id, passed, reason, status FROM checks',
      );
      const by = new Map(rows.map((r) => [r.service_id, r]));
      const mismatches: unknown[] = [];
      fleet.endpoints
        .filter((e) => e.protocol !== 'web')
        .forEach((e, i) => {
          const got = by.get(`cand_f${i}`);
          const want = e.expectedAt(clock());
          if (!got || got.passed !== want.passed || got.reason !== want.reason || got.status !== want.status)
            mismatches.push({ name: e.name, behaviour: e.behaviour, want, got });
        });
      fleet.docs.forEach((d, i) => {
        const got = by.get(`svc_d${i}`);
        const want = d.expected;
        if (!got || got.passed !== want.passed || got.reason !== want.reason || got.status !== want.status)
          mismatches.push({ name: d.name, behaviour: d.behaviour, want, got });
      });
      expect(mismatches).toEqual([]);
      // What MCP's plain GET records beside the verdict: a 401's auth schemes, a paid server's 402 protocols.
      const recorded = await store.all<{ service_id: string; auth_schemes: string | null; protocols: string | null }>(
        'SELECT service_id, auth_schemes::VARCHAR AS auth_schemes, protocols::VARCHAR AS protocols FROM checks',
      );
      const rec = new Map(recorded.map((r) => [r.service_id, r]));
      const mcpRecords = new Map<string, string>();
      fleet.endpoints
        .filter((e) => e.protocol !== 'web')
        .forEach((e, i) => {
          const r = rec.get(`cand_f${i}`)!;
          if (e.protocol === 'mcp') mcpRecords.set(e.behaviour, `${r.auth_schemes} ${r.protocols}`);
          else expect(r.auth_schemes, e.name).toBeNull();
        });
      expect(Object.fromEntries([...mcpRecords].filter(([, v]) => v !== 'null null'))).toEqual({
        'mcp-auth': '[bearer] null',
        'mcp-auth-no-scheme': '[] null',
        'mcp-paid-x402': 'null [x402-v2]',
        'mcp-paid-mpp': 'null [mpp]',
      });
      // Every behaviour of the catalogue was covered.
      expect(new Set(fleet.endpoints.map((e) => e.behaviour)).size).toBeGreaterThanOrEqual(40);
    } finally {
      store.close();
    }
  }, 60_000);
});
