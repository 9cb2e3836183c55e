import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent } from 'undici';
import { FLEET_SUFFIX } from './state.ts';

/**
 * An undici Agent that connects `*.fleet.test` to 127.0.0.1 (other names use DNS) and reads
 * headers up to 128 KiB (the 28 kB PAYMENT-REQUIRED header overflows undici's 16 KiB default).
 * For tests of the fleet and quick scripts; Atlas's probe uses its own resolver (config.probe.resolve).
 */
export function fleetAgent(opts: { connections?: number; maxHeaderSize?: number } = {}): Agent {
  const lookup = (
    hostname: string,
    options: unknown,
    cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    if (hostname.endsWith(FLEET_SUFFIX)) {
      const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
      if (all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
      else cb(null, '127.0.0.1', 4);
      return;
    }
    dnsLookup(hostname, options as never, cb as never);
  };
  return new Agent({
    connect: { lookup: lookup as never },
    maxHeaderSize: opts.maxHeaderSize ?? 128 * 1024,
    ...(opts.connections ? { connections: opts.connections } : {}),
  });
}
