import { parseConfig, type Config } from '../../pipeline/core/config.ts';
import { fleetConfig, type Fleet } from '../../pipeline/fleet/index.ts';

/** The demo's cycle cadence: one cycle per (simulated or real) hour. */
export const DEMO_CYCLE_MINUTES = 60;

export interface DemoConfigOptions {
  port: number;
  host: string;
  probeTimeoutMs: number;
  probeConcurrency: number;
}

/**
 * The demo's configuration: probes may reach loopback and resolve `*.fleet.test` through the
 * fleet's map (allowPrivate is on for the demo only), the registries are the fleet's, a short probe
 * timeout keeps back-filled cycles quick, and rate limits are off (one local user). Its cycles run
 * hourly (back-filled and live), so the status windows expect an hourly cycle.
 */
export function demoConfig(fleet: Fleet, opts: DemoConfigOptions): Config {
  const f = fleetConfig(fleet, { registries: true });
  return parseConfig(
    {
      registries: f.registries,
      probe: { ...f.probe, timeoutMs: opts.probeTimeoutMs, concurrency: opts.probeConcurrency, perHost: 16 },
      serve: { port: opts.port, host: opts.host, rateLimits: { enabled: false } },
      cycle: { everyMinutes: DEMO_CYCLE_MINUTES },
    },
    'demo config',
  );
}
