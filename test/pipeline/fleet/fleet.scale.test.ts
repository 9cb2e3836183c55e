import { describe, expect, it } from 'vitest';
import { fleetAgent, MCP_BEHAVIOURS, startFleet, X402_BEHAVIOURS } from '../../../pipeline/fleet/index.ts';
import { createState } from '../../../pipeline/fleet/model.ts';
import { testClock } from '../../helpers/context.ts';
import { hit } from './hit.ts';

/**
 * Bench-size fleets: 20k endpoints generated deterministically with the documented mix, and
 * thousands of concurrent connections served. Not part of `npm test` (vitest.config.ts leaves
 * *.scale.test.ts out): `npm run test:scale` runs it. fleet.test.ts asserts the same properties on
 * a fleet a tenth of the size.
 */
describe('fleet at benchmark size', () => {
  it('plans 20,000 endpoints deterministically, mixing behaviours, hosts and payer bands', () => {
    const clock = testClock('2026-11-25T12:00:00Z');
    const a = createState({ clock, size: 20_000, seed: 7, latency: { minMs: 20, maxMs: 300, hangShare: 0.05 } }, { port: 1, deadPort: 2 });
    const b = createState({ clock, size: 20_000, seed: 7, latency: { minMs: 20, maxMs: 300, hangShare: 0.05 } }, { port: 1, deadPort: 2 });
    expect(a.specs.length).toBe(20_000);
    expect(a.specs.map((s) => `${s.name}|${s.latencyMs}|${s.hangs}`)).toEqual(b.specs.map((s) => `${s.name}|${s.latencyMs}|${s.hangs}`));
    const generated = a.specs.slice(100);
    const hangShare = generated.filter((s) => s.hangs).length / generated.length;
    expect(hangShare).toBeGreaterThan(0.04);
    expect(hangShare).toBeLessThan(0.06);
    expect(a.specs.filter((s) => s.hangs && s.behaviour.endsWith('-dead'))).toEqual([]); // refused, never hanging
    const lat = generated.filter((s) => !s.hangs).map((s) => s.latencyMs);
    expect(Math.min(...lat)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...lat)).toBeLessThan(300);
    const behaviours = new Set(a.specs.map((s) => s.behaviour));
    expect(behaviours.size).toBe(X402_BEHAVIOURS.length + MCP_BEHAVIOURS.length);
    const v2 = a.specs.filter((s) => s.behaviour === 'x402-v2').length / a.specs.length;
    expect(v2).toBeGreaterThan(0.4);
    const hostSizes = new Map<string, number>();
    for (const s of a.specs) hostSizes.set(s.host, (hostSizes.get(s.host) ?? 0) + 1);
    expect(Math.max(...hostSizes.values())).toBeGreaterThanOrEqual(4);
    expect(hostSizes.size).toBeGreaterThan(10_000);
    const payers = a.specs.filter((s) => s.protocol === 'x402').map((s) => s.payers);
    expect(payers.filter((p) => p >= 100).length).toBeGreaterThan(1000);
    expect(payers.filter((p) => p < 5).length).toBeGreaterThan(1000);
  });

  it('serves 20,000 endpoints and 2,000 concurrent connections without falling over', async () => {
    const clock = testClock('2026-11-25T12:00:00Z');
    // Every generated endpoint answers after 300–800 ms, so the requests below overlap in flight.
    const fleet = await startFleet({ clock, size: 20_000, latency: { minMs: 300, maxMs: 800, hangShare: 0 }, headerEncoding: 'buffer' });
    const agent = fleetAgent();
    try {
      const rssBefore = process.memoryUsage().rss;
      const hosts = new Set<string>();
      const targets = fleet.endpoints
        .slice(100)
        .filter((e) => e.expected.status !== null && e.behaviour !== 'x402-sse-endless' && e.behaviour !== 'mcp-legacy-sse')
        .filter((e) => !hosts.has(e.host) && hosts.add(e.host)) // one per host: one connection each
        .slice(0, 2000);
      expect(targets.length).toBe(2000);
      const t0 = performance.now();
      const results = await Promise.all(targets.map((e) => hit(agent, e.url, { method: e.method, timeoutMs: 90_000, readBody: false })));
      const ms = performance.now() - t0;
      const wrong = results.map((h, i) => ({ h, e: targets[i]! })).filter(({ h, e }) => h.status !== e.expected.status);
      expect(wrong.map(({ h, e }) => `${e.name}: ${h.status ?? h.error} != ${e.expected.status}`).slice(0, 5)).toEqual([]);
      console.log(
        `fleet scale: 20,000 endpoints; 2,000 concurrent requests on 2,000 hosts answered correctly in ${Math.round(ms)} ms; ` +
          `rss +${Math.round((process.memoryUsage().rss - rssBefore) / 1e6)} MB`,
      );
      const page = (await (await fetch(`${fleet.x402RegistryUrl}?type=http&limit=1000&offset=10000`)).json()) as {
        items: unknown[];
        pagination: { total: number };
      };
      expect(page.items.length).toBe(1000);
      expect(page.pagination.total).toBe(fleet.endpoints.filter((e) => e.protocol === 'x402' && e.listed).length);
    } finally {
      await agent.close();
      await fleet.close();
    }
  }, 180_000);
});
