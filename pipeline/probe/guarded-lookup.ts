import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { checkAddress } from './address-guard.ts';
import { compileResolveMap, type ResolveMap } from './resolve-map.ts';

/**
 * The `lookup` handed to net.connect/tls.connect through undici's `connect` options. It runs at
 * connect time for every new socket, so the addresses it returns are exactly the ones connected to:
 * there is no window between "checked" and "connected" for DNS rebinding. If ANY resolved address is
 * blocked the whole name is refused (a name mixing public and private records is hostile).
 */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addrs) => (err ? reject(err) : resolve(addrs))),
  );

export class BlockedAddressError extends Error {
  readonly code = 'ATLAS_BLOCKED_ADDRESS';
  constructor(
    readonly address: string,
    readonly why: string,
  ) {
    super(`refused to connect to ${address} (${why})`);
    this.name = 'BlockedAddressError';
  }
}

export interface GuardOptions {
  allowPrivate: boolean;
  resolveMap: ResolveMap;
  resolver?: Resolver;
}

/** Resolve (static map first, then DNS) and judge every address. Throws BlockedAddressError. */
export async function resolveGuarded(
  hostname: string,
  opts: GuardOptions,
  mapLookup = compileResolveMap(opts.resolveMap),
): Promise<LookupAddress[]> {
  const mapped = mapLookup(hostname);
  let addrs: LookupAddress[];
  if (mapped !== null) addrs = [{ address: mapped, family: isIP(mapped) || 4 }];
  else if (isIP(hostname)) addrs = [{ address: hostname, family: isIP(hostname) }];
  else addrs = await (opts.resolver ?? systemResolver)(hostname);
  if (!addrs.length) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
  if (!opts.allowPrivate) {
    for (const a of addrs) {
      const v = checkAddress(a.address);
      if (v.blocked) throw new BlockedAddressError(a.address, v.why);
    }
  }
  return addrs;
}

type LookupCb = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Node's lookup signature (hostname, options, callback), honouring `all` (set by autoSelectFamily). */
export function makeGuardedLookup(opts: GuardOptions) {
  const mapLookup = compileResolveMap(opts.resolveMap);
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCb): void => {
    resolveGuarded(hostname, opts, mapLookup).then(
      (addrs) => {
        const fam = options?.family === 6 || options?.family === 'IPv6' ? 6 : options?.family === 4 || options?.family === 'IPv4' ? 4 : 0;
        const list = fam ? addrs.filter((a) => a.family === fam) : addrs;
        if (!list.length) return callback(Object.assign(new Error(`no IPv${fam} address for ${hostname}`), { code: 'ENOTFOUND' }), []);
        if (options?.all) callback(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, options?.all ? [] : '', 0),
    );
  };
}
