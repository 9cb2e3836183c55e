import { describe, expect, it } from 'vitest';
import { keyFromHeaders } from '../../../serve/auth/keys.ts';
import { signReferral, verifyReferral } from '../../../serve/auth/referral.ts';
import { DailyCounter, secondsToNextUtcDay } from '../../../serve/inbox/daily-counter.ts';
import { ResultCache } from '../../../serve/search/cache.ts';
import { freshnessAt } from '../../../serve/search/freshness.ts';
import { parseServicesQuery, queryKey } from '../../../serve/search/query.ts';

const T = new Date('2026-11-25T12:00:00Z');

describe('referral ids', () => {
  it('round-trip; reject other secrets, edits, expiry (> 7 days) and issue times in the future', () => {
    const tok = signReferral('s'.repeat(32), 'cand_abc', 'key_1', T);
    expect(verifyReferral('s'.repeat(32), tok, T)).toEqual({ ok: true, serviceId: 'cand_abc', keyId: 'key_1', issuedAt: T });
    expect(verifyReferral('t'.repeat(32), tok, T)).toMatchObject({ ok: false, reason: 'bad_signature' });
    const [p, body, mac] = tok.split('.');
    const edited = `${p}.${Buffer.from(`cand_xyz|key_1|${T.getTime() / 1000}`).toString('base64url')}.${mac}`;
    expect(verifyReferral('s'.repeat(32), edited, T)).toMatchObject({ ok: false, reason: 'bad_signature' });
    expect(body).toBeTruthy();
    expect(verifyReferral('s'.repeat(32), tok, new Date(T.getTime() + 7 * 86_400_000))).toMatchObject({ ok: true });
    expect(verifyReferral('s'.repeat(32), tok, new Date(T.getTime() + 7 * 86_400_000 + 1000))).toMatchObject({
      ok: false,
      reason: 'expired',
    });
    expect(verifyReferral('s'.repeat(32), tok, new Date(T.getTime() - 120_000))).toMatchObject({ ok: false, reason: 'not_yet_valid' });
    for (const junk of ['', 'ref1', 'ref1..', 'ref2.a.b', `${tok}x`, 'ref1.!!!.AAAAAAAAAAAAAAAAAAAAAA'])
      expect(verifyReferral('s'.repeat(32), junk, T).ok).toBe(false);
  });
});

describe('keys from headers', () => {
  const h = (m: Record<string, string>) => (n: string) => m[n];
  it('Bearer (any case) or X-API-Key; nothing else', () => {
    expect(keyFromHeaders(h({ authorization: 'Bearer abc' }))).toBe('abc');
    expect(keyFromHeaders(h({ authorization: 'bearer  abc ' }))).toBe('abc');
    expect(keyFromHeaders(h({ 'x-api-key': ' abc ' }))).toBe('abc');
    expect(keyFromHeaders(h({ authorization: 'Basic abc' }))).toBeNull();
    expect(keyFromHeaders(h({}))).toBeNull();
  });
});

describe('daily counter', () => {
  it('counts per UTC day, releases, and rolls over at midnight', () => {
    const c = new DailyCounter();
    c.reset('2026-11-25');
    expect(c.tryTake('2026-11-25', 'a', 2)).toBe(true);
    expect(c.tryTake('2026-11-25', 'a', 2)).toBe(true);
    expect(c.tryTake('2026-11-25', 'a', 2)).toBe(false);
    c.give('2026-11-25', 'a');
    expect(c.tryTake('2026-11-25', 'a', 2)).toBe(true);
    expect(c.tryTake('2026-11-26', 'a', 2)).toBe(true);
    expect(c.count('2026-11-26', 'a')).toBe(1);
    expect(secondsToNextUtcDay(new Date('2026-11-25T23:59:59.500Z'))).toBe(1);
  });
});

describe('result cache', () => {
  it('expires after the TTL by the injected time, evicts least recently used, aliases share age', () => {
    const c = new ResultCache<number>(1000, 2);
    const e = c.set('a', 1, 0);
    c.alias('raw-a', e);
    expect(c.get('raw-a', 999)?.value).toBe(1);
    expect(c.get('a', 1000)).toBeUndefined();
    c.set('x', 1, 0);
    c.set('y', 2, 0);
    c.get('x', 1);
    c.set('z', 3, 1);
    expect(c.get('y', 2)).toBeUndefined();
    expect(c.get('x', 2)?.value).toBe(1);
    expect(c.get('x', -5)).toBeUndefined(); // clock moved back: recompute
  });
});

describe('freshness and query keys', () => {
  it('fresh within two intervals, stale after, no_data without a check', () => {
    expect(freshnessAt(0, 1, 2 * 3_600_000)).toBe('fresh');
    expect(freshnessAt(0, 1, 2 * 3_600_000 + 1)).toBe('stale');
    expect(freshnessAt(null, 1, 0)).toBe('no_data');
  });
  it('equivalent queries share one key', () => {
    const k = (q: Record<string, string>) => queryKey(parseServicesQuery(q));
    expect(k({})).toBe(k({ limit: '50', offset: '0', scope: 'directory', sort: 'evidence' }));
    expect(k({ host: 'A.test', q: ' x  y ' })).toBe(k({ host: 'a.test', q: 'x y' }));
    expect(k({ mainnet: '1' })).toBe(k({ mainnet: 'true' }));
    expect(k({ limit: '5' })).not.toBe(k({ limit: '6' }));
  });
});
