import { describe, expect, it } from 'vitest';
import { checkAddress, expandV6, ipLiteralOf, isBlockedAddress } from '../../../pipeline/probe/address-guard.ts';
// Network safety: runs behind the loopback-only guard (test/net/no-egress.mjs), which refuses
// non-loopback connects and fails the test, so the private and public addresses below can never be
// reached even if the code under test is broken.

describe('address guard', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '240.0.0.1',
    '192.0.2.5',
    '198.18.0.1',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    '2001:db8::1',
    'fec0::1',
    '[::1]',
    '::ffff:0:127.0.0.1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  ])('blocks %s', (ip) => {
    expect(isBlockedAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows public %s', (ip) => {
    expect(checkAddress(ip)).toEqual({ blocked: false });
  });

  it('fails closed on anything that is not an IP', () => {
    expect(isBlockedAddress('example.com')).toBe(true);
    expect(isBlockedAddress('')).toBe(true);
  });

  it('expands IPv6 forms', () => {
    expect(expandV6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(expandV6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(expandV6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(expandV6('1::2::3')).toBeNull();
  });

  it('recognises IP literals in URL hostnames', () => {
    expect(ipLiteralOf('[::1]')).toBe('::1');
    expect(ipLiteralOf(new URL('http://2130706433/').hostname)).toBe('127.0.0.1');
    expect(ipLiteralOf(new URL('http://0x7f.1/').hostname)).toBe('127.0.0.1');
    expect(ipLiteralOf('api.example.com')).toBeNull();
  });
});
