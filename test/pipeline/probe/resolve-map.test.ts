import { describe, expect, it } from 'vitest';
import { lookupStatic } from '../../../pipeline/probe/resolve-map.ts';
import { resolveGuarded } from '../../../pipeline/probe/guarded-lookup.ts';
// Network safety: runs behind the loopback-only guard (test/net/no-egress.mjs), which refuses
// non-loopback connects and fails the test, so the private and public addresses below can never be
// reached even if the code under test is broken.

describe('static resolve map and guarded resolution', () => {
  const map = { '*.fleet.test': '127.0.0.1', 'exact.fleet.test': '127.0.0.2', '*.deep.fleet.test': '127.0.0.3' };
  it('exact beats wildcard, longest wildcard wins, the bare suffix does not match', () => {
    expect(lookupStatic(map, 'exact.fleet.test')).toBe('127.0.0.2');
    expect(lookupStatic(map, 'A.Fleet.Test.')).toBe('127.0.0.1');
    expect(lookupStatic(map, 'x.deep.fleet.test')).toBe('127.0.0.3');
    expect(lookupStatic(map, 'fleet.test')).toBeNull();
    expect(lookupStatic(map, 'example.com')).toBeNull();
  });

  it('judges mapped and resolved addresses unless private addresses are allowed', async () => {
    await expect(resolveGuarded('a.fleet.test', { allowPrivate: false, resolveMap: map })).rejects.toMatchObject({
      code: 'ATLAS_BLOCKED_ADDRESS',
    });
    await expect(resolveGuarded('a.fleet.test', { allowPrivate: true, resolveMap: map })).resolves.toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
    const resolver = async () => [{ address: '93.184.216.34', family: 4 }];
    await expect(resolveGuarded('example.com', { allowPrivate: false, resolveMap: {}, resolver })).resolves.toHaveLength(1);
    const bad = async () => [{ address: '::ffff:10.0.0.1', family: 6 }];
    await expect(resolveGuarded('example.com', { allowPrivate: false, resolveMap: {}, resolver: bad })).rejects.toMatchObject({
      code: 'ATLAS_BLOCKED_ADDRESS',
    });
  });
});
