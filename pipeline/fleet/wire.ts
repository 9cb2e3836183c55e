import type { Timeline } from './timeline.ts';
import type { FleetOptions } from './types.ts';

/**
 * FleetOptions over IPC (JSON): the clock stays in the parent; dates travel as ISO strings and the
 * timeline is sent fully resolved so both processes agree on every instant.
 */
export interface WireOptions {
  size?: number;
  seed?: number;
  latency?: FleetOptions['latency'];
  epoch: string;
  timeline: {
    priceChangeAt: string;
    payToChangeAt: string;
    networkAddedAt: string;
    docsChangeAt: string;
    catalogDropAt: string;
    outages: Array<{ start: string; end: string }>;
  };
  slowMs?: number;
  sseIntervalMs?: number;
  registryQuirks?: FleetOptions['registryQuirks'];
  headerEncoding?: FleetOptions['headerEncoding'];
  real402?: FleetOptions['real402'];
  realMcp?: FleetOptions['realMcp'];
  signedOffers?: FleetOptions['signedOffers'];
  signedReceipts?: FleetOptions['signedReceipts'];
}

export interface StartMessage {
  type: 'start';
  options: WireOptions;
  now: string;
  clock: 'fixed' | 'system';
}

export function encodeOptions(opts: FleetOptions, epoch: Date, tl: Timeline): WireOptions {
  const { clock: _clock, epoch: _epoch, timeline: _tl, ...rest } = opts;
  return {
    ...rest,
    epoch: epoch.toISOString(),
    timeline: {
      priceChangeAt: tl.priceChangeAt.toISOString(),
      payToChangeAt: tl.payToChangeAt.toISOString(),
      networkAddedAt: tl.networkAddedAt.toISOString(),
      docsChangeAt: tl.docsChangeAt.toISOString(),
      catalogDropAt: tl.catalogDropAt.toISOString(),
      outages: tl.outages.map((w) => ({ start: w.start.toISOString(), end: w.end.toISOString() })),
    },
  };
}

export function decodeOptions(w: WireOptions): Omit<FleetOptions, 'clock'> {
  const { epoch, timeline, ...rest } = w;
  return {
    ...rest,
    epoch: new Date(epoch),
    timeline: {
      priceChangeAt: new Date(timeline.priceChangeAt),
      payToChangeAt: new Date(timeline.payToChangeAt),
      networkAddedAt: new Date(timeline.networkAddedAt),
      docsChangeAt: new Date(timeline.docsChangeAt),
      catalogDropAt: new Date(timeline.catalogDropAt),
      outages: timeline.outages.map((o) => ({ start: new Date(o.start), end: new Date(o.end) })),
    },
  };
}
