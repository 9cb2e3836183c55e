import { DAY_MS } from '../core/clock.ts';

/**
 * Scripted history of the fleet. Time-dependent behaviours compare the injected clock with these
 * instants, so a test can move the clock across them and watch Atlas record the change.
 * Windows are half-open: [start, end).
 */
export interface Timeline {
  /** `x402-price-change`: amount doubles from here on. */
  priceChangeAt: Date;
  /** `x402-payto-change`: a new receiving address from here on. */
  payToChangeAt: Date;
  /** `x402-network-added`: Polygon is offered next to Base from here on. */
  networkAddedAt: Date;
  /** `x402-outage` / `mcp-outage`: answer 503 inside these windows. */
  outages: Array<{ start: Date; end: Date }>;
  /** Documentation pages change (cosmetic, price, typo) or start failing from here on. */
  docsChangeAt: Date;
  /** The second x402 catalog stops listing one resource both catalogs listed (registry-x402-second.ts). */
  catalogDropAt: Date;
}

/** Defaults relative to the epoch: docs +5 d, price +10 d, second catalog's drop +15 d, payTo +20 d, network +30 d, outage +40 d..+42 d. */
export function defaultTimeline(epoch: Date, overrides: Partial<Timeline> = {}): Timeline {
  const at = (days: number): Date => new Date(epoch.getTime() + days * DAY_MS);
  return {
    priceChangeAt: at(10),
    payToChangeAt: at(20),
    networkAddedAt: at(30),
    outages: [{ start: at(40), end: at(42) }],
    docsChangeAt: at(5),
    catalogDropAt: at(15),
    ...overrides,
  };
}

export const inOutage = (tl: Timeline, at: Date): boolean =>
  tl.outages.some((w) => at.getTime() >= w.start.getTime() && at.getTime() < w.end.getTime());

export const after = (instant: Date, at: Date): boolean => at.getTime() >= instant.getTime();
