import { fixedClock } from '../../pipeline/core/clock.ts';
import { startFleet } from '../../pipeline/fleet/index.ts';

/**
 * The benchmark's fleet, in its own process (so the prober being measured gets a core of its own and
 * its RSS is not mixed with the fleet's). Args: size seed minMs maxMs hangShare slowMs.
 * Sends { port, endpoints: [{ url, method, protocol }] } over IPC; closes on 'close' or disconnect.
 */
const [size, seed, minMs, maxMs, hangShare, slowMs] = process.argv.slice(2).map(Number);
const fleet = await startFleet({
  clock: fixedClock(new Date('2026-11-25T12:10:00Z')),
  size: size!,
  seed: seed!,
  latency: { minMs: minMs!, maxMs: maxMs!, hangShare: hangShare! },
  slowMs: slowMs!,
  sseIntervalMs: 250,
});
process.send!({
  port: fleet.port,
  endpoints: fleet.endpoints.map((e) => ({ url: e.url, method: e.method, protocol: e.protocol })),
});
const stop = () => void fleet.close().finally(() => process.exit(0));
process.on('message', (m) => m === 'close' && stop());
process.on('disconnect', stop);
