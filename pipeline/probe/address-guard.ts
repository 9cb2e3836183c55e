import { isIP } from 'node:net';

/**
 * The private-address guard (docs/design.md, decision 6). Pure: an IP literal in, a verdict out.
 * Blocked: loopback, RFC 1918, link-local (incl. cloud metadata 169.254.169.254), CGNAT 100.64/10,
 * "this network" 0/8, IETF/documentation/benchmark ranges, multicast, reserved 240/4 and broadcast;
 * IPv6 unspecified, loopback, ULA fc00::/7 (incl. fd00:ec2::254), link-local fe80::/10, site-local
 * fec0::/10, multicast ff00::/8, documentation 2001:db8::/32, discard 100::/64, and every form that
 * embeds an IPv4 address (mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, compatible ::/96,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) when the embedded address is blocked, and Teredo 2001::/32
 * whole (its embedded server and client addresses cannot be judged as one). Anything that is not an
 * IP literal is blocked (fail closed): odd IPv4 spellings (0x7f.1, 2130706433, 127.1) reach this
 * guard only after WHATWG URL parsing has rewritten them to dotted quads.
 * test/pipeline/probe/address-guard.property.test.ts checks every verdict against ipaddr.js's ranges.
 */
export type BlockVerdict = { blocked: false } | { blocked: true; why: string };

const V4_RANGES: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local / metadata'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved / broadcast'],
];

function v4ToInt(ip: string): number {
  const p = ip.split('.').map(Number);
  return (((p[0]! << 24) >>> 0) + (p[1]! << 16) + (p[2]! << 8) + p[3]!) >>> 0;
}

const V4_MASKS = V4_RANGES.map(([base, bits, why]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { net: (v4ToInt(base) & mask) >>> 0, mask, why };
});

function checkV4(ip: string): BlockVerdict {
  const n = v4ToInt(ip);
  for (const r of V4_MASKS) if ((n & r.mask) >>> 0 === r.net) return { blocked: true, why: r.why };
  return { blocked: false };
}

/** Expand an IPv6 literal (possibly with a dotted IPv4 tail or a zone id) into 8 16-bit groups. */
export function expandV6(ip: string): number[] | null {
  let s = ip.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    if (isIP(dotted[1]!) !== 4) return null;
    const n = v4ToInt(dotted[1]!);
    s = `${s.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const groups = [...head, ...Array<string>(fill).fill('0'), ...tail].map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : null;
}

const v4FromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

function checkV6(ip: string): BlockVerdict {
  const g = expandV6(ip);
  if (!g) return { blocked: true, why: 'unparseable IPv6' };
  const [a, b, c, d, e, f, h, i] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return { blocked: true, why: 'unspecified' };
  if (zeroTo(7) && i === 1) return { blocked: true, why: 'loopback' };
  // IPv4-mapped ::ffff:0:0/96 and IPv4-compatible ::/96: judge the embedded IPv4 address.
  if (zeroTo(5) && f === 0xffff) return embedded(v4FromGroups(h, i), 'IPv4-mapped');
  // IPv4-translated ::ffff:0:0:0/96 (SIIT) carries an IPv4 address the same way.
  if (zeroTo(4) && e === 0xffff && f === 0) return embedded(v4FromGroups(h, i), 'IPv4-translated');
  if (zeroTo(6)) return embedded(v4FromGroups(h, i), 'IPv4-compatible');
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return embedded(v4FromGroups(h, i), 'NAT64');
  if (a === 0x2002) return embedded(v4FromGroups(b, c), '6to4');
  if (a === 0x2001 && b === 0) return { blocked: true, why: 'Teredo (2001::/32)' };
  if ((a & 0xfe00) === 0xfc00) return { blocked: true, why: 'unique local (fc00::/7)' };
  if ((a & 0xffc0) === 0xfe80) return { blocked: true, why: 'link-local (fe80::/10)' };
  if ((a & 0xffc0) === 0xfec0) return { blocked: true, why: 'site-local (fec0::/10)' };
  if ((a & 0xff00) === 0xff00) return { blocked: true, why: 'multicast' };
  if (a === 0x2001 && b === 0x0db8) return { blocked: true, why: 'documentation' };
  if (a === 0x0100 && b === 0 && c === 0 && d === 0) return { blocked: true, why: 'discard' };
  return { blocked: false };
}

function embedded(v4: string, form: string): BlockVerdict {
  const r = checkV4(v4);
  return r.blocked ? { blocked: true, why: `${form} ${r.why}` } : r;
}

export function checkAddress(ip: string): BlockVerdict {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const kind = isIP(bare.split('%')[0]!);
  if (kind === 4) return checkV4(bare);
  if (kind === 6) return checkV6(bare);
  return { blocked: true, why: 'not an IP address' };
}

export const isBlockedAddress = (ip: string): boolean => checkAddress(ip).blocked;

/** An IP literal as it appears in a URL hostname (`[::1]` or `127.0.0.1`), or null for a name. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}
