import { describe, expect, it } from 'vitest';
import { sellerKeys, signEip712 } from '../../../../pipeline/fleet/seller-keys.ts';
import { checkSignedOffers, hasSignedOffers } from '../../../../pipeline/x402/offer-receipt/index.ts';
import { signedOfferCheck } from '../../../helpers/offer-checks.ts';

const K = sellerKeys('read-offers-test');
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const v1Accept = {
  scheme: 'exact',
  network: 'base',
  maxAmountRequired: '10000',
  asset: USDC,
  payTo: K.evm.address,
  resource: 'https://a/x',
  maxTimeoutSeconds: 60,
};
const payload = {
  version: 1,
  resourceUrl: 'https://a/x',
  scheme: 'exact',
  network: 'eip155:8453',
  asset: USDC,
  payTo: K.evm.address,
  amount: '10000',
};
const request = (offers: unknown, accepts: unknown[] = [v1Accept]) => ({
  x402Version: 1,
  accepts,
  extensions: { 'offer-receipt': { info: { offers } } },
});

describe('checkSignedOffers', () => {
  it('no extension: null (and nothing to verify)', async () => {
    expect(hasSignedOffers({ x402Version: 2, accepts: [] })).toBe(false);
    expect(await checkSignedOffers({ x402Version: 2, accepts: [], extensions: { bazaar: {} } })).toBeNull();
  });
  it('a v1 request: the signed CAIP-2 offer matches the v1 entry (network name, maxAmountRequired)', async () => {
    const signature = await signEip712('offer', payload, K.evm);
    const [o] = (await checkSignedOffers(request([{ format: 'eip712', acceptIndex: 0, payload, signature }])))!;
    expect(o).toEqual(signedOfferCheck());
  });
  it('an empty list: no rows; not a list: one malformed offer; more than 16: the first 16', async () => {
    expect(await checkSignedOffers(request([]))).toEqual([]);
    expect(await checkSignedOffers(request({ format: 'eip712' }))).toMatchObject([
      { offer_index: 0, signature: 'invalid', signature_reason: 'malformed' },
    ]);
    const many = await checkSignedOffers(request(Array.from({ length: 40 }, () => ({ format: 'jws', signature: 'x' }))));
    expect(many).toHaveLength(16);
  });
  it('an invalid signature is never compared with accepts', async () => {
    const [o] = (await checkSignedOffers(
      request([{ format: 'eip712', payload: { ...payload, amount: '1' }, signature: `0x${'00'.repeat(65)}` }]),
    ))!;
    expect(o).toMatchObject({ signature: 'invalid', accept_index: null, terms_differ: null, differing: [] });
  });
});
