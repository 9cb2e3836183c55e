import { afterEach, describe, expect, it, vi } from 'vitest';
import { verifyReceiptSignature } from '../../../pipeline/inbox/receipt-signature.ts';
import { addressOf, signEip712Receipt, signJwsReceipt, tamperJws } from '../../helpers/receipts.ts';

/**
 * The signature step against receipts signed independently (viem's signTypedData with the spec's
 * types, jose's CompactSign): a library bug cannot agree with itself here.
 */
const PAYLOAD = {
  version: 1,
  network: 'eip155:8453',
  resourceUrl: 'https://api.example.com/premium-data',
  payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
  issuedAt: 1_764_000_000,
};

afterEach(() => vi.unstubAllGlobals());

describe('verifyReceiptSignature', () => {
  it('EIP-712: a valid signature recovers the signing address (lower-case)', async () => {
    const r = await signEip712Receipt('seller', PAYLOAD);
    const v = await verifyReceiptSignature(r);
    expect(v).toMatchObject({ format: 'eip712', signature: 'valid', signer: addressOf('seller').toLowerCase() });
    expect(v.payload?.resourceUrl).toBe(PAYLOAD.resourceUrl);
  });

  it('EIP-712: a payload changed after signing recovers another address', async () => {
    const r = await signEip712Receipt('seller', PAYLOAD);
    const v = await verifyReceiptSignature({ ...r, payload: { ...r.payload, resourceUrl: 'https://other.example/x' } });
    expect(v.signature).toBe('valid');
    expect(v.signer).not.toBe(addressOf('seller').toLowerCase());
  });

  it('EIP-712: a signature that is not one is invalid', async () => {
    const r = await signEip712Receipt('seller', PAYLOAD);
    expect((await verifyReceiptSignature({ ...r, signature: '0x1234' })).signature).toBe('invalid');
  });

  it('JWS (ES256K, did:jwk): valid, with the address of the key; altered: invalid', async () => {
    const r = await signJwsReceipt('seller', PAYLOAD);
    expect(await verifyReceiptSignature(r)).toMatchObject({ format: 'jws', signature: 'valid', signer: addressOf('seller').toLowerCase() });
    const bad = await verifyReceiptSignature({ ...r, signature: tamperJws(r.signature) });
    expect(bad).toMatchObject({ signature: 'invalid', detail: 'jws_signature_invalid', signer: null });
  });

  it('JWS with a did:web key id: not checked, and nothing is fetched', async () => {
    const fetchSpy = vi.fn(() => Promise.reject(new Error('no network in this test')));
    vi.stubGlobal('fetch', fetchSpy);
    const r = await signJwsReceipt('seller', PAYLOAD, 'did:web:api.example.com#key-1');
    expect(await verifyReceiptSignature(r)).toMatchObject({ signature: 'not_checked', detail: 'did_web_not_resolved', signer: null });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('the extension example (a placeholder signature "sig"): invalid, never an exception', async () => {
    const example = {
      format: 'jws',
      signature:
        'eyJhbGciOiJFUzI1NksiLCJraWQiOiJkaWQ6d2ViOmFwaS5leGFtcGxlLmNvbSNrZXktMSJ9.eyJ2ZXJzaW9uIjoxLCJuZXR3b3JrIjoiZWlwMTU1Ojg0NTMiLCJyZXNvdXJjZVVybCI6Imh0dHBzOi8vYXBpLmV4YW1wbGUuY29tL3ByZW1pdW0tZGF0YSIsInBheWVyIjoiMHg4NTdiMDY1MTlFOTFlM0E1NDUzOGI5MWJEYmIwRTIyMzczZTM2YjY2IiwiaXNzdWVkQXQiOjE3MDMxMjM0NTZ9.sig',
    };
    // Its key id is did:web: refused before any key is looked up.
    expect(await verifyReceiptSignature(example)).toMatchObject({ signature: 'not_checked', detail: 'did_web_not_resolved' });
    expect(
      await verifyReceiptSignature({ format: 'eip712', payload: { ...PAYLOAD, transaction: '' }, signature: '0x1234567890abcdef' }),
    ).toMatchObject({
      signature: 'invalid',
    });
    expect(await verifyReceiptSignature({ format: 'other', signature: 'x' })).toMatchObject({
      signature: 'invalid',
      detail: 'unknown_format',
    });
  });
});
