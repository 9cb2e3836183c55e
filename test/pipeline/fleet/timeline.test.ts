import { decodePaymentRequiredHeader } from '@x402/core/http';
import { parsePaymentRequired } from '@x402/core/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../pipeline/core/clock.ts';
import { fleetAgent, startFleet, type Fleet } from '../../../pipeline/fleet/index.ts';
import { testClock } from '../../helpers/context.ts';
import { hit } from './hit.ts';

/** Scripted history: answers follow the injected clock across the timeline's instants. */
const EPOCH = '2026-10-01T00:00:00Z';
const clock = testClock(EPOCH);
let fleet: Fleet;
const agent = fleetAgent();

beforeAll(async () => {
  fleet = await startFleet({
    clock,
    timeline: { outages: [{ start: new Date('2026-10-05T00:00:00Z'), end: new Date('2026-10-05T06:00:00Z') }] },
  });
});
afterAll(async () => {
  await fleet?.close();
  await agent.close();
});

async function offers(name: string) {
  const h = await hit(agent, fleet.endpoint(name).url, { method: fleet.endpoint(name).method });
  const p = parsePaymentRequired(decodePaymentRequiredHeader(h.headers['payment-required']!));
  if (!p.success || p.data.x402Version !== 2) throw new Error('expected a v2 payment request');
  return p.data.accepts;
}

describe('fleet timeline', () => {
  it('defaults are relative to the epoch (clock() at start)', () => {
    expect(fleet.epoch.toISOString()).toBe(new Date(EPOCH).toISOString());
    expect(fleet.timeline.priceChangeAt.getTime() - fleet.epoch.getTime()).toBe(10 * DAY_MS);
    expect(fleet.timeline.payToChangeAt.getTime() - fleet.epoch.getTime()).toBe(20 * DAY_MS);
    expect(fleet.timeline.networkAddedAt.getTime() - fleet.epoch.getTime()).toBe(30 * DAY_MS);
  });

  it('price doubles at priceChangeAt; payTo changes at payToChangeAt; Polygon is added at networkAddedAt', async () => {
    clock.set(new Date(fleet.timeline.priceChangeAt.getTime() - HOUR_MS));
    const before = await offers('weather-alerts');
    const payBefore = (await offers('market-trades'))[0]!.payTo;
    expect((await offers('market-book')).map((o) => o.network)).toEqual(['eip155:8453']);

    clock.set(fleet.timeline.priceChangeAt);
    const afterPrice = await offers('weather-alerts');
    expect(BigInt(afterPrice[0]!.amount)).toBe(BigInt(before[0]!.amount) * 2n);
    expect((await offers('market-trades'))[0]!.payTo).toBe(payBefore);

    clock.set(fleet.timeline.payToChangeAt);
    expect((await offers('market-trades'))[0]!.payTo).not.toBe(payBefore);

    clock.set(fleet.timeline.networkAddedAt);
    expect((await offers('market-book')).map((o) => o.network)).toEqual(['eip155:8453', 'eip155:137']);
  });

  it('outage windows answer 503 and flip the expected verdict, then recover', async () => {
    const x = fleet.endpoint('x402-outage');
    const m = fleet.endpoint('mcp-outage');
    clock.set('2026-10-04T23:59:59Z');
    expect((await hit(agent, x.url)).status).toBe(402);
    expect(x.expected).toEqual({ passed: true, reason: 'ok', status: 402 });
    clock.set('2026-10-05T01:00:00Z');
    expect((await hit(agent, x.url)).status).toBe(503);
    expect(x.expected).toEqual({ passed: false, reason: 'not_402', status: 503 });
    expect((await hit(agent, m.url)).status).toBe(503);
    expect(m.expected).toEqual({ passed: false, reason: 'status_not_allowed', status: 503 });
    clock.set('2026-10-05T06:00:00Z');
    expect((await hit(agent, x.url)).status).toBe(402);
    expect((await hit(agent, m.url)).status).toBe(406);
    expect(x.expectedAt(new Date('2026-10-05T03:00:00Z')).status).toBe(503);
  });
});
