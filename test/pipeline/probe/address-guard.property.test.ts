import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { checkAddress, ipLiteralOf } from '../../../pipeline/probe/address-guard.ts';

/**
 * The hand-written guard (pipeline/probe/address-guard.ts) against an independent reference built on
 * ipaddr.js's special ranges. The reference maps ipaddr.js's `range()` to our policy: only `unicast`
 * is allowed; IPv6 forms that embed an IPv4 address are judged by that address; Teredo is refused
 * whole. Where the two still differ, our guard is deliberately STRICTER, and each difference is one
 * row of EXTRA_REFUSED with its reason (ipaddr.js 1.9 has no such range). Pure: no network.
 *
 * Why the reference does not parse text: ipaddr.js 1.9 rejects valid forms (`::1.2.3.4`) and accepts
 * others Node's isIP does not (`2130706433`); the generators build the numeric address first and hand
 * the reference the numbers, and OUR guard the text in every spelling under test.
 */
type V4 = [number, number, number, number];
type V6 = [number, number, number, number, number, number, number, number];

/** Ranges we refuse that ipaddr.js 1.9 calls unicast (base, prefix bits, why). */
const EXTRA_REFUSED_V4: ReadonlyArray<[V4, number, string]> = [
  [[198, 18, 0, 0], 15, 'benchmarking (RFC 2544) is not a public service range'],
];
const EXTRA_REFUSED_V6: ReadonlyArray<[V6, number, string]> = [
  [[0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, 'site-local (deprecated, still routed inside sites)'],
  [[0x0100, 0, 0, 0, 0, 0, 0, 0], 64, 'discard prefix (RFC 6666)'],
];

const inV4 = (a: V4, [base, bits]: readonly [V4, number, string]) => new ipaddr.IPv4(a).match(new ipaddr.IPv4(base), bits);
const inV6 = (g: V6, [base, bits]: readonly [V6, number, string]) => new ipaddr.IPv6(g).match(new ipaddr.IPv6(base), bits);

function refV4(a: V4): boolean {
  if (EXTRA_REFUSED_V4.some((r) => inV4(a, r))) return true;
  return new ipaddr.IPv4(a).range() !== 'unicast';
}

const v4Of = (hi: number, lo: number): V4 => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];

/** true = refuse. */
function refV6(g: V6): boolean {
  if (EXTRA_REFUSED_V6.some((r) => inV6(g, r))) return true;
  const range = new ipaddr.IPv6(g).range();
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return refV4(v4Of(g[6], g[7]));
    case '6to4':
      return refV4(v4Of(g[1], g[2]));
    case 'teredo':
      return true;
    case 'unicast':
      // IPv4-compatible ::/96 (deprecated) is unicast to ipaddr.js; we judge the embedded address.
      return g.slice(0, 6).every((x) => x === 0) ? refV4(v4Of(g[6], g[7])) : false;
    default:
      return true;
  }
}

const byte = fc.integer({ min: 0, max: 255 });
const group = fc.integer({ min: 0, max: 0xffff });

/** IPv4 addresses, half of them drawn near the edges of the special ranges. */
const SPECIAL_V4: V4[] = [
  [0, 0, 0, 0],
  [10, 0, 0, 0],
  [100, 64, 0, 0],
  [100, 128, 0, 0],
  [127, 0, 0, 0],
  [169, 254, 0, 0],
  [172, 16, 0, 0],
  [172, 32, 0, 0],
  [192, 0, 0, 0],
  [192, 0, 2, 0],
  [192, 88, 99, 0],
  [192, 168, 0, 0],
  [198, 18, 0, 0],
  [198, 20, 0, 0],
  [198, 51, 100, 0],
  [203, 0, 113, 0],
  [224, 0, 0, 0],
  [240, 0, 0, 0],
  [255, 255, 255, 255],
];
const v4 = fc.oneof(
  fc.tuple(byte, byte, byte, byte),
  fc.tuple(fc.constantFrom(...SPECIAL_V4), fc.integer({ min: 0, max: 0xffff }), fc.boolean()).map(([b, d, up]): V4 => {
    const n = (((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3] + (up ? d : -d - 1)) >>> 0;
    return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  }),
);

const SPECIAL_V6_HEADS: number[][] = [
  [],
  [0, 0, 0, 0, 0, 0xffff],
  [0, 0, 0, 0, 0xffff, 0],
  [0x64, 0xff9b, 0, 0, 0, 0],
  [0x64, 0xff9b, 1],
  [0x2002],
  [0x2001, 0],
  [0x2001, 0xdb8],
  [0x2001, 0x4860],
  [0xfc00],
  [0xfdff],
  [0xfe80],
  [0xfebf],
  [0xfec0],
  [0xff02],
  [0x100, 0, 0, 0],
  [0x2606, 0x4700],
];
const v6 = fc.oneof(
  fc.tuple(group, group, group, group, group, group, group, group),
  fc
    .tuple(fc.constantFrom(...SPECIAL_V6_HEADS), fc.array(group, { minLength: 8, maxLength: 8 }), fc.nat({ max: 8 }))
    .map(([head, rest, zeros]) => {
      const g = [...head, ...rest.slice(head.length)];
      // Bias towards long zero runs so `::` forms and tiny addresses (::1, ::a.b.c.d) show up.
      for (let k = 8 - zeros; k < 7; k++) if (k >= head.length) g[k] = 0;
      return g as V6;
    }),
);
const embeddedV4 = fc.tuple(
  fc.constantFrom<number[]>([0, 0, 0, 0, 0, 0xffff], [0, 0, 0, 0, 0xffff, 0], [0x64, 0xff9b, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0]),
  v4,
);

const hex = (n: number) => n.toString(16);
const full = (g: readonly number[]) => g.map(hex).join(':');
/** RFC 5952-ish shortest form via Node's URL serializer, e.g. `::ffff:7f00:1`. */
const canonical = (g: readonly number[]) => new URL(`http://[${full(g)}]/`).hostname.slice(1, -1);
const withDottedTail = (g: readonly number[]) => `${g.slice(0, 6).map(hex).join(':')}:${v4Of(g[6]!, g[7]!).join('.')}`;

const ours = (text: string) => checkAddress(text).blocked;

describe('address guard against ipaddr.js (property)', () => {
  it('classifies every IPv4 address like the reference', () => {
    fc.assert(
      fc.property(v4, (a) => {
        expect(ours(a.join('.')), a.join('.')).toBe(refV4(a));
      }),
      { numRuns: 5000 },
    );
  });

  it('classifies every IPv6 address like the reference, in full, shortest, bracketed and zoned forms', () => {
    fc.assert(
      fc.property(v6, (g) => {
        const want = refV6(g);
        for (const text of [full(g), canonical(g), `[${canonical(g)}]`, `${canonical(g)}%eth0`])
          expect(ours(text), `${text} (${new ipaddr.IPv6(g).range()})`).toBe(want);
      }),
      { numRuns: 5000 },
    );
  });

  it('judges IPv4-mapped, -translated, -compatible and NAT64 addresses by the embedded address, hex or dotted', () => {
    fc.assert(
      fc.property(embeddedV4, ([head, a]) => {
        const g = [...head, (a[0] << 8) | a[1], (a[2] << 8) | a[3]] as V6;
        const want = refV6(g);
        expect(want, 'the reference judges by the embedded address').toBe(refV4(a));
        for (const text of [full(g), canonical(g), withDottedTail(g)]) expect(ours(text), text).toBe(want);
      }),
      { numRuns: 3000 },
    );
  });

  it('6to4 is judged by the embedded address; Teredo is refused whole', () => {
    fc.assert(
      fc.property(v4, fc.array(group, { minLength: 5, maxLength: 5 }), (a, rest) => {
        const sixToFour = [0x2002, (a[0] << 8) | a[1], (a[2] << 8) | a[3], ...rest] as V6;
        expect(ours(full(sixToFour))).toBe(refV4(a));
        expect(refV6(sixToFour)).toBe(refV4(a));
        const teredo = [0x2001, 0, (a[0] << 8) | a[1], (a[2] << 8) | a[3], ...rest.slice(0, 4)] as V6;
        expect(ours(full(teredo))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('odd IPv4 spellings in a URL (decimal, hex, octal, short) reach the guard as the same dotted address', () => {
    fc.assert(
      fc.property(v4, (a) => {
        const n = (((a[0] << 24) >>> 0) + (a[1] << 16) + (a[2] << 8) + a[3]) >>> 0;
        const spellings = [
          String(n),
          `0x${n.toString(16)}`,
          a.map((x) => `0${x.toString(8)}`).join('.'),
          a.map((x) => `0x${x.toString(16)}`).join('.'),
          `${a[0]}.${(a[1] << 16) | (a[2] << 8) | a[3]}`,
          `${a[0]}.${a[1]}.${(a[2] << 8) | a[3]}`,
        ];
        for (const s of spellings) {
          const lit = ipLiteralOf(new URL(`http://${s}/`).hostname);
          expect(lit, s).toBe(a.join('.'));
          expect(ours(lit!), s).toBe(refV4(a));
          // Unnormalised, the same text is not an IP literal to the guard: refused (fail closed).
          if (s !== a.join('.')) expect(ours(s), s).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('lists its disagreements with ipaddr.js: each is a range we refuse and ipaddr.js 1.9 calls unicast', () => {
    for (const [base] of EXTRA_REFUSED_V4) {
      expect(new ipaddr.IPv4(base).range()).toBe('unicast');
      expect(ours(base.join('.'))).toBe(true);
    }
    for (const [base] of EXTRA_REFUSED_V6) {
      expect(new ipaddr.IPv6(base).range()).toBe('unicast');
      expect(ours(full(base))).toBe(true);
    }
    // Fixed in our guard after this test found them: IPv4-translated and Teredo were allowed.
    expect(ours('::ffff:0:7f00:1')).toBe(true);
    expect(ours('::ffff:0:808:808')).toBe(false);
    expect(ours('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toBe(true);
  });
});
