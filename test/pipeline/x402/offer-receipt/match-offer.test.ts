import { describe, expect, it } from 'vitest';
import { type AcceptTerms, matchOffer } from '../../../../pipeline/x402/offer-receipt/match-offer.ts';
import type { OfferPayload } from '../../../../site/contract/offer-receipt.ts';

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAY = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C';
const accept = (o: Partial<AcceptTerms> = {}): AcceptTerms => ({
  scheme: 'exact',
  caip2: 'eip155:8453',
  asset: USDC,
  payTo: PAY,
  amount: '10000',
  ...o,
});
const payload = (o: Partial<OfferPayload> = {}): OfferPayload => ({
  version: 1,
  resourceUrl: 'https://api.example.com/premium-data',
  scheme: 'exact',
  network: 'eip155:8453',
  asset: USDC,
  payTo: PAY,
  amount: '10000',
  ...o,
});

describe('matchOffer', () => {
  it.each<[string, OfferPayload, AcceptTerms[], number | undefined, ReturnType<typeof matchOffer>]>([
    ['equal terms', payload(), [accept()], 0, { acceptIndex: 0, differing: [] }],
    [
      'EVM addresses in another letter case',
      payload({ asset: USDC.toLowerCase(), payTo: PAY.toUpperCase().replace('0X', '0x') }),
      [accept()],
      0,
      { acceptIndex: 0, differing: [] },
    ],
    [
      'a v1 network name in the payload is read as CAIP-2',
      payload({ network: 'base' }),
      [accept()],
      undefined,
      { acceptIndex: 0, differing: [] },
    ],
    ['leading zeros of the amount', payload({ amount: '010000' }), [accept()], 0, { acceptIndex: 0, differing: [] }],
    ['matched by fields, whatever the hint', payload(), [accept({ amount: '5' }), accept()], 0, { acceptIndex: 1, differing: [] }],
    [
      'no equal entry: the hinted one',
      payload({ amount: '20000' }),
      [accept({ caip2: 'eip155:137' }), accept()],
      0,
      { acceptIndex: 0, differing: ['network', 'amount'] },
    ],
    [
      'no equal entry, hint out of range: the closest',
      payload({ amount: '20000' }),
      [accept({ caip2: 'eip155:137' }), accept()],
      7,
      { acceptIndex: 1, differing: ['amount'] },
    ],
    [
      'payee and scheme differ',
      payload({ payTo: '0x0000000000000000000000000000000000000001', scheme: 'upto' }),
      [accept()],
      undefined,
      { acceptIndex: 0, differing: ['scheme', 'pay_to'] },
    ],
    [
      'Solana addresses compare exactly',
      payload({ network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', payTo: 'AbC', asset: 'x' }),
      [accept({ caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', payTo: 'abc', asset: 'x' })],
      0,
      { acceptIndex: 0, differing: ['pay_to'] },
    ],
    ['no accepts', payload(), [], 0, null],
  ])('%s', (_name, p, accepts, hint, want) => {
    expect(matchOffer(p, accepts, hint)).toEqual(want);
  });
});
