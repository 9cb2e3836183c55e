import { DAY_MS, HOUR_MS } from '../../pipeline/core/clock.ts';
import type { Timeline } from '../../pipeline/fleet/index.ts';

/**
 * The fleet's scripted events placed inside the simulated history, so each one is visible on the
 * pages: an outage early on, documentation edits, a price change, a new receiving address, an added
 * network, and a short outage in the last day (when checks are hourly). Scaled to `days`.
 */
export function demoTimeline(start: Date, days: number): Timeline {
  const at = (fraction: number) => new Date(start.getTime() + Math.round(fraction * days * DAY_MS));
  const end = start.getTime() + days * DAY_MS;
  return {
    docsChangeAt: at(0.35),
    catalogDropAt: at(0.45),
    priceChangeAt: at(0.5),
    payToChangeAt: at(0.65),
    networkAddedAt: at(0.8),
    outages: [
      { start: at(0.2), end: new Date(at(0.2).getTime() + 12 * HOUR_MS) },
      { start: new Date(end - 10 * HOUR_MS), end: new Date(end - 6 * HOUR_MS) },
    ],
  };
}
