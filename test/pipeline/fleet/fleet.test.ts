import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import { describe, expect, it } from 'vitest';
import { fleetAgent, MCP_BEHAVIOURS, startFleet, startFleetProcess, X402_BEHAVIOURS } from '../../../pipeline/fleet/index.ts';
import { encodeHeader, offersAt, paymentRequiredV2 } from '../../../pipeline/fleet/payment.ts';
import { createState } from '../../../pipeline/fleet/model.ts';
import { testClock } from '../../helpers/context.ts';
import { hit } from './hit.ts';

/**
 * The fleet's plan and server at a tenth of bench size (fleet.scale.test.ts runs 20,000 endpoints
 * outside `npm test`), its header encoding, and the fleet in a child process.
 */
describe('fleet', () => {
  it('plans 2,000 endpoints deterministically, mixing behaviours, hosts and payer bands', () => {
    const clock = testClock('2026-11-25T12:00:00Z');
    const a = createState({ clock, size: 2_000, seed: 7, latency: { minMs: 20, maxMs: 300, hangShare: 0.05 } }, { port: 1, deadPort: 2 });
    const b = createState({ clock, size: 2_000, seed: 7, latency: { minMs: 20, maxMs: 300, hangShare: 0.05 } }, { port: 1, deadPort: 2 });
    expect(a.specs.length).toBe(2_000);
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
    expect(hostSizes.size).toBeGreaterThan(1_000);
    const payers = a.specs.filter((s) => s.protocol === 'x402').map((s) => s.payers);
    expect(payers.filter((p) => p >= 100).length).toBeGreaterThan(100);
    expect(payers.filter((p) => p < 5).length).toBeGreaterThan(100);
  });

  it('serves 2,000 endpoints and 200 concurrent connections without falling over', async () => {
    const clock = testClock('2026-11-25T12:00:00Z');
    // Every generated endpoint answers after 300–800 ms, so the requests below overlap in flight.
    const fleet = await startFleet({ clock, size: 2_000, latency: { minMs: 300, maxMs: 800, hangShare: 0 }, headerEncoding: 'buffer' });
    const agent = fleetAgent();
    try {
      const hosts = new Set<string>();
      const targets = fleet.endpoints
        .slice(100)
        .filter((e) => e.expected.status !== null && e.behaviour !== 'x402-sse-endless' && e.behaviour !== 'mcp-legacy-sse')
        .filter((e) => !hosts.has(e.host) && hosts.add(e.host)) // one per host: one connection each
        .slice(0, 200);
      expect(targets.length).toBe(200);
      const results = await Promise.all(targets.map((e) => hit(agent, e.url, { method: e.method, timeoutMs: 90_000, readBody: false })));
      const wrong = results.map((h, i) => ({ h, e: targets[i]! })).filter(({ h, e }) => h.status !== e.expected.status);
      expect(wrong.map(({ h, e }) => `${e.name}: ${h.status ?? h.error} != ${e.expected.status}`).slice(0, 5)).toEqual([]);
      const page = (await (await fetch(`${fleet.x402RegistryUrl}?type=http&limit=100&offset=500`)).json()) as {
        items: unknown[];
        pagination: { total: number };
      };
      expect(page.items.length).toBe(100);
      expect(page.pagination.total).toBe(fleet.endpoints.filter((e) => e.protocol === 'x402' && e.listed).length);
    } finally {
      await agent.close();
      await fleet.close();
    }
  }, 60_000);

  it('the buffer header encoding is byte-identical to @x402/core encodePaymentRequiredHeader', () => {
    const clock = testClock('2026-11-25T12:00:00Z');
    const state = createState({ clock, size: 2000 }, { port: 1, deadPort: 2 });
    for (const spec of state.specs.filter((s) => s.protocol === 'x402')) {
      const pr = paymentRequiredV2(spec, `http://x.fleet.test/${spec.name}`, offersAt(spec, clock(), state.timeline));
      const core = encodePaymentRequiredHeader(pr as never);
      expect(encodeHeader(pr, 'buffer')).toBe(core);
      expect(decodePaymentRequiredHeader(core)).toEqual(pr);
    }
  });
});

describe('fleet in a child process', () => {
  it('serves the same endpoints, forwards setListed and follows syncClock', async () => {
    const clock = testClock('2026-10-01T00:00:00Z');
    const fleet = await startFleetProcess({
      clock,
      timeline: { outages: [{ start: new Date('2026-10-02T00:00:00Z'), end: new Date('2026-10-03T00:00:00Z') }] },
    });
    const agent = fleetAgent();
    try {
      expect(fleet.pid).toBeGreaterThan(0);
      const results = await Promise.all(
        fleet.endpoints
          .filter((e) => e.expected.status !== null)
          .map(async (e) => ({ e, h: await hit(agent, e.url, { method: e.method, timeoutMs: 5000, readBody: false }) })),
      );
      for (const { e, h } of results) expect(h.status, e.name).toBe(e.expected.status);

      const outage = fleet.endpoint('x402-outage');
      clock.set('2026-10-02T12:00:00Z');
      expect(outage.expected.status).toBe(503);
      expect((await hit(agent, outage.url)).status).toBe(402); // the child has not been told yet
      await fleet.syncClock();
      expect((await hit(agent, outage.url)).status).toBe(503);

      fleet.setListed('ocr', false);
      await fleet.syncClock(); // IPC is ordered: once this is acknowledged, setListed was applied
      const page = (await (await fetch(`${fleet.x402RegistryUrl}?type=http&limit=1000`)).json()) as { items: Array<{ resource: string }> };
      expect(page.items.some((i) => i.resource === fleet.endpoint('ocr').url)).toBe(false);
      expect(page.items.some((i) => i.resource === fleet.endpoint('news').url)).toBe(true);
    } finally {
      await agent.close();
      await fleet.close();
    }
  }, 60_000);
});
