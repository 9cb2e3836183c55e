import { describe, expect, it } from 'vitest';
import { keyedHash } from '../../../pipeline/core/secret.ts';
import { normalizeTerms } from '../../../pipeline/x402/terms.ts';
import type { RawOffer } from '../../../pipeline/x402/payment-request.ts';

const offer = (o: Partial<RawOffer> = {}): RawOffer => ({
  scheme: 'exact',
  network: 'base',
  caip2: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: '10000',
  payTo: '0xAbC0000000000000000000000000000000000001',
  maxTimeoutSeconds: 60,
  ...o,
});

describe('normalizeTerms', () => {
  it('normalizes, hashes payTo with the secret, sorts and prices', () => {
    const t = normalizeTerms(1, [offer()], 'sec');
    expect(t.offers).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:8453',
        asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        amount: '10000',
        pay_to_hash: keyedHash('sec', 'pay_to', '0xabc0000000000000000000000000000000000001'),
        max_timeout_seconds: 60,
      },
    ]);
    expect(t.networks).toEqual(['eip155:8453']);
    expect(t.amounts).toEqual(['exact|eip155:8453|0x833589fcd6edb6e08f4c7c32d4f71b54bda02913=10000']);
    expect(t.minPriceUsd).toBeCloseTo(0.01);
    expect(JSON.stringify(t)).not.toContain('0xAbC');
  });
  it('equal terms in any order and address case hash the same; a price change does not', () => {
    const a = normalizeTerms(
      2,
      [offer(), offer({ caip2: 'eip155:137', network: 'eip155:137', asset: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359' })],
      's',
    );
    const b = normalizeTerms(
      2,
      [
        offer({ caip2: 'eip155:137', network: 'eip155:137', asset: '0x3C499C542CEF5E3811E1192CE70D8CC03D5C3359' }),
        offer({ payTo: '0xabc0000000000000000000000000000000000001' }),
      ],
      's',
    );
    expect(a.termsHash).toBe(b.termsHash);
    expect(normalizeTerms(2, [offer({ amount: '20000' })], 's').termsHash).not.toBe(normalizeTerms(2, [offer()], 's').termsHash);
    expect(normalizeTerms(1, [offer()], 's').termsHash).not.toBe(normalizeTerms(2, [offer()], 's').termsHash);
  });
  it('unpriced assets give a null price; Solana addresses keep their case', () => {
    const t = normalizeTerms(
      2,
      [offer({ caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', network: 'solana', asset: 'SoMeToken', payTo: 'SoLPayee' })],
      's',
    );
    expect(t.minPriceUsd).toBeNull();
    expect(t.assets).toEqual(['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp|SoMeToken']);
    expect(t.payToHashes).toEqual([keyedHash('s', 'pay_to', 'SoLPayee')]);
  });
});
