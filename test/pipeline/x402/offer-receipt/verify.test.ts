import { createECDH, createPrivateKey } from 'node:crypto';
import { CompactSign } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sellerKeys, signEip712, signJws } from '../../../../pipeline/fleet/seller-keys.ts';
import { keyedHash } from '../../../../pipeline/core/secret.ts';
import { base58 } from '../../../../pipeline/x402/offer-receipt/base58.ts';
import { signerAuthorised, verifyArtifact } from '../../../../pipeline/x402/offer-receipt/index.ts';
import { exampleReceiptPayload } from '../../../helpers/receipts.ts';

/**
 * Signatures are made here with viem (account.signTypedData, the extension's types written out in
 * pipeline/fleet/seller-keys.ts) and jose (CompactSign), never with the verifier's library, so a bug
 * in the library cannot agree with itself. Keys are derived from fixed seeds.
 */
const A = sellerKeys('verify-test-A');
const B = sellerKeys('verify-test-B');
const offer = (o: Record<string, unknown> = {}) => ({
  version: 1,
  resourceUrl: 'https://api.example.com/premium-data',
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: A.evm.address,
  amount: '10000',
  validUntil: 1703123516,
  ...o,
});
const receipt = exampleReceiptPayload;
const b64uJson = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

afterEach(() => vi.restoreAllMocks());

describe('verifyArtifact: EIP-712', () => {
  it('a valid offer recovers its signer, which is the payee key', async () => {
    const payload = offer();
    const v = await verifyArtifact('offer', {
      format: 'eip712',
      acceptIndex: 0,
      payload,
      signature: await signEip712('offer', payload, A.evm),
    });
    expect(v).toMatchObject({
      signature: 'valid',
      format: 'eip712',
      signer: { address: A.evm.address, addressKind: 'evm' },
      acceptIndex: 0,
    });
    expect(v.payload).toEqual(payload);
    expect(signerAuthorised(v, { addresses: [A.evm.address.toLowerCase()] })).toEqual({ state: 'authorised', method: 'payee_key' });
  });
  it('a valid receipt is authorised against stored pay_to hashes (EVM lower-cased before hashing)', async () => {
    const payload = receipt();
    const v = await verifyArtifact('receipt', { format: 'eip712', payload, signature: await signEip712('receipt', payload, A.evm) });
    expect(v.signature).toBe('valid');
    const stored = [keyedHash('s3cret-s3cret-16', 'pay_to', A.evm.address.toLowerCase())];
    expect(signerAuthorised(v, { hashes: stored, secret: 's3cret-s3cret-16' }).state).toBe('authorised');
    expect(signerAuthorised(v, { hashes: stored, secret: 'another-secret-16' })).toMatchObject({
      state: 'not_authorised',
      reason: 'key_not_payee',
    });
  });
  it('an absent validUntil / transaction is the zero value the signer signed', async () => {
    const { validUntil: _v, ...noExpiry } = offer();
    const sig = await signEip712('offer', { ...noExpiry, validUntil: 0 }, A.evm);
    const v = await verifyArtifact('offer', { format: 'eip712', payload: noExpiry, signature: sig });
    expect(signerAuthorised(v, { addresses: [A.evm.address] }).state).toBe('authorised');
    const { transaction: _t, ...noTx } = receipt();
    const r = await verifyArtifact('receipt', {
      format: 'eip712',
      payload: noTx,
      signature: await signEip712('receipt', receipt(), A.evm),
    });
    expect(r.signer?.address).toBe(A.evm.address);
  });
  it('a tampered payload recovers another signer: not the payee key', async () => {
    const payload = offer();
    const sig = await signEip712('offer', payload, A.evm);
    const v = await verifyArtifact('offer', { format: 'eip712', payload: { ...payload, amount: '1' }, signature: sig });
    expect(v.signature).toBe('valid');
    expect(v.signer?.address).not.toBe(A.evm.address);
    expect(signerAuthorised(v, { addresses: [payload.payTo] })).toEqual({
      state: 'not_authorised',
      method: 'payee_key',
      reason: 'key_not_payee',
    });
  });
  it('the domain matters: an offer signature does not verify as a receipt-domain signer and vice versa', async () => {
    const payload = receipt();
    const asOffer = await verifyArtifact('receipt', { format: 'eip712', payload, signature: await signEip712('receipt', payload, B.evm) });
    expect(signerAuthorised(asOffer, { addresses: [A.evm.address] }).state).toBe('not_authorised');
  });
  it('a wrong signer (a valid signature by a key that is not the payee)', async () => {
    const payload = offer();
    const v = await verifyArtifact('offer', { format: 'eip712', payload, signature: await signEip712('offer', payload, B.evm) });
    expect(v).toMatchObject({ signature: 'valid', signer: { address: B.evm.address } });
    expect(signerAuthorised(v, { addresses: [payload.payTo] }).reason).toBe('key_not_payee');
  });
  it('a signature that is no curve point is invalid', async () => {
    const v = await verifyArtifact('offer', { format: 'eip712', payload: offer(), signature: `0x${'00'.repeat(64)}1b` });
    expect(v).toMatchObject({ signature: 'invalid', reason: 'malformed' });
    expect(signerAuthorised(v, { addresses: [A.evm.address] })).toEqual({
      state: 'not_checked',
      method: 'payee_key',
      reason: 'signature_not_valid',
    });
  });
});

describe('verifyArtifact: JWS', () => {
  it.each([
    ['ES256K, did:key', () => signJws(offer(), A.didKeySecp256k1, { alg: 'ES256K', jwk: A.evmJwk })],
    ['ES256K, did:jwk', () => signJws(offer(), A.didJwkSecp256k1, { alg: 'ES256K', jwk: A.evmJwk })],
  ])('%s: valid, and the key is the EVM payee', async (_name, sign) => {
    const v = await verifyArtifact('offer', { format: 'jws', acceptIndex: 0, signature: await sign() });
    expect(v).toMatchObject({ signature: 'valid', format: 'jws', signer: { address: A.evm.address, addressKind: 'evm' }, acceptIndex: 0 });
    expect(v.payload).toEqual(offer());
    expect(signerAuthorised(v, { addresses: [A.evm.address] }).state).toBe('authorised');
  });
  it('EdDSA, did:key: the Ed25519 key is the Solana payee', async () => {
    const payload = offer({
      network: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      payTo: A.solanaAddress,
      asset: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    });
    const v = await verifyArtifact('offer', {
      format: 'jws',
      signature: await signJws(payload, A.didKeyEd25519, { alg: 'EdDSA', key: A.ed25519 }),
    });
    expect(v.signer).toMatchObject({ address: A.solanaAddress, addressKind: 'solana' });
    expect(signerAuthorised(v, { addresses: [A.solanaAddress] }).state).toBe('authorised');
    // Solana addresses are case-sensitive.
    expect(signerAuthorised(v, { addresses: [A.solanaAddress.toLowerCase()] }).state).toBe('not_authorised');
  });
  it('a valid receipt (did:key)', async () => {
    const v = await verifyArtifact('receipt', {
      format: 'jws',
      signature: await signJws(receipt(), A.didKeySecp256k1, { alg: 'ES256K', jwk: A.evmJwk }),
    });
    expect(v).toMatchObject({ kind: 'receipt', signature: 'valid', payload: receipt() });
  });
  it('a tampered payload is invalid', async () => {
    const [h, , s] = (await signJws(offer(), A.didKeySecp256k1, { alg: 'ES256K', jwk: A.evmJwk })).split('.');
    const v = await verifyArtifact('offer', { format: 'jws', signature: `${h}.${b64uJson(offer({ amount: '1' }))}.${s}` });
    expect(v).toMatchObject({ signature: 'invalid', reason: 'signature_mismatch', signer: { kid: A.didKeySecp256k1 } });
  });
  it('a kid naming key A on a signature by key B is invalid', async () => {
    const v = await verifyArtifact('offer', {
      format: 'jws',
      signature: await signJws(offer(), A.didKeySecp256k1, { alg: 'ES256K', jwk: B.evmJwk }),
    });
    expect(v).toMatchObject({ signature: 'invalid', reason: 'signature_mismatch' });
  });
  it('a valid signature by a key that is not the payee', async () => {
    const v = await verifyArtifact('offer', {
      format: 'jws',
      signature: await signJws(offer(), B.didKeySecp256k1, { alg: 'ES256K', jwk: B.evmJwk }),
    });
    expect(v.signature).toBe('valid');
    expect(signerAuthorised(v, { addresses: [A.evm.address] })).toMatchObject({ state: 'not_authorised', reason: 'key_not_payee' });
  });
  it('did:web is never fetched: not checked, with the reason', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const v = await verifyArtifact('offer', {
      format: 'jws',
      signature: await signJws(offer(), 'did:web:api.example.com#key-1', { alg: 'ES256K', jwk: A.evmJwk }),
    });
    expect(v).toMatchObject({ signature: 'not_checked', reason: 'did_web_not_resolved', signer: { kid: 'did:web:api.example.com#key-1' } });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(signerAuthorised(v, { addresses: [A.evm.address] }).reason).toBe('signature_not_valid');
  });
  it('another DID method: not checked', async () => {
    const v = await verifyArtifact('offer', {
      format: 'jws',
      signature: await signJws(offer(), `did:ethr:${A.evm.address}`, { alg: 'ES256K', jwk: A.evmJwk }),
    });
    expect(v).toMatchObject({ signature: 'not_checked', reason: 'kid_method_unsupported' });
  });
  it('a P-256 key verifies but has no payee address', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.alloc(32, 7));
    const pub = ecdh.getPublicKey(undefined, 'compressed');
    const kid = `did:key:z${base58(Buffer.concat([Buffer.from([0x80, 0x24]), pub]))}`;
    const full = ecdh.getPublicKey();
    const key = createPrivateKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        d: Buffer.alloc(32, 7).toString('base64url'),
        x: full.subarray(1, 33).toString('base64url'),
        y: full.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(offer())))
      .setProtectedHeader({ alg: 'ES256', kid })
      .sign(key);
    const v = await verifyArtifact('offer', { format: 'jws', signature: jws });
    expect(v).toMatchObject({ signature: 'valid', signer: { kid, keyHasNoAddress: true } });
    expect(signerAuthorised(v, { addresses: [A.evm.address] })).toMatchObject({ state: 'not_checked', reason: 'key_has_no_address' });
  });
  it('a header without kid is invalid', async () => {
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(offer())))
      .setProtectedHeader({ alg: 'ES256K' })
      .sign(createPrivateKey({ key: A.evmJwk as import('node:crypto').JsonWebKey, format: 'jwk' }));
    expect(await verifyArtifact('offer', { format: 'jws', signature: jws })).toMatchObject({
      signature: 'invalid',
      reason: 'jws_missing_kid',
    });
  });
});

describe('verifyArtifact: malformed and unsupported', () => {
  it.each<[string, unknown, string]>([
    ['not an object', 'eyJ', 'malformed'],
    ['null', null, 'malformed'],
    ['no format', { signature: '0x' }, 'unknown_format'],
    ['unknown format', { format: 'cose', signature: 'x' }, 'unknown_format'],
    ['eip712 without payload', { format: 'eip712', signature: `0x${'11'.repeat(65)}` }, 'malformed'],
    ['eip712 short signature', { format: 'eip712', payload: offer(), signature: '0x1234' }, 'malformed'],
    [
      'eip712 payload missing amount',
      { format: 'eip712', payload: { ...offer(), amount: undefined }, signature: `0x${'11'.repeat(65)}` },
      'malformed',
    ],
    ['jws with two parts', { format: 'jws', signature: 'a.b' }, 'malformed'],
    ['jws header not JSON', { format: 'jws', signature: 'YWJj.YWJj.YWJj' }, 'malformed'],
  ])('%s → invalid', async (_name, artifact, reason) => {
    expect(await verifyArtifact('offer', artifact)).toMatchObject({ signature: 'invalid', reason });
  });
  it('payload version 2 is not checked (unsupported), in both formats', async () => {
    const payload = offer({ version: 2 });
    expect(await verifyArtifact('offer', { format: 'eip712', payload, signature: `0x${'11'.repeat(65)}` })).toMatchObject({
      signature: 'not_checked',
      reason: 'unsupported_version',
    });
    const jws = await signJws(payload, A.didKeySecp256k1, { alg: 'ES256K', jwk: A.evmJwk });
    expect(await verifyArtifact('offer', { format: 'jws', signature: jws })).toMatchObject({
      signature: 'not_checked',
      reason: 'unsupported_version',
    });
  });
  it('no payee known: not checked', async () => {
    const payload = offer();
    const v = await verifyArtifact('offer', { format: 'eip712', payload, signature: await signEip712('offer', payload, A.evm) });
    expect(signerAuthorised(v, { addresses: [] })).toMatchObject({ state: 'not_checked', reason: 'no_payee_known' });
  });
});

describe("the extension's own examples (placeholder signatures)", () => {
  // The offer and receipt examples of the extension text, verbatim.
  const SPEC_JWS_OFFER =
    'eyJhbGciOiJFUzI1NksiLCJraWQiOiJkaWQ6d2ViOmFwaS5leGFtcGxlLmNvbSNrZXktMSJ9.eyJ2ZXJzaW9uIjoxLCJyZXNvdXJjZVVybCI6Imh0dHBzOi8vYXBpLmV4YW1wbGUuY29tL3ByZW1pdW0tZGF0YSIsInNjaGVtZSI6ImV4YWN0IiwibmV0d29yayI6ImVpcDE1NTo4NDUzIiwiYXNzZXQiOiIweDgzMzU4OWZDRDZlRGI2RTA4ZjRjN0MzMkQ0ZjcxYjU0YmRBMDI5MTMiLCJwYXlUbyI6IjB4MjA5NjkzQmM2YWZjMEM1MzI4YkEzNkZhRjAzQzUxNEVGMzEyMjg3QyIsImFtb3VudCI6IjEwMDAwIiwidmFsaWRVbnRpbCI6MTcwMzEyMzUxNn0.sig';
  const SPEC_JWS_RECEIPT =
    'eyJhbGciOiJFUzI1NksiLCJraWQiOiJkaWQ6d2ViOmFwaS5leGFtcGxlLmNvbSNrZXktMSJ9.eyJ2ZXJzaW9uIjoxLCJuZXR3b3JrIjoiZWlwMTU1Ojg0NTMiLCJyZXNvdXJjZVVybCI6Imh0dHBzOi8vYXBpLmV4YW1wbGUuY29tL3ByZW1pdW0tZGF0YSIsInBheWVyIjoiMHg4NTdiMDY1MTlFOTFlM0E1NDUzOGI5MWJEYmIwRTIyMzczZTM2YjY2IiwiaXNzdWVkQXQiOjE3MDMxMjM0NTZ9.sig';
  it('EIP-712 offer and receipt examples: invalid (the signature is "0x1234567890abcdef...")', async () => {
    const eipOffer = {
      format: 'eip712',
      acceptIndex: 0,
      payload: { ...offer(), payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' },
      signature: '0x1234567890abcdef...',
    };
    expect(await verifyArtifact('offer', eipOffer)).toMatchObject({ signature: 'invalid', reason: 'malformed', acceptIndex: 0 });
    expect(await verifyArtifact('receipt', { format: 'eip712', payload: receipt(), signature: '0x1234567890abcdef...' })).toMatchObject({
      signature: 'invalid',
      reason: 'malformed',
    });
  });
  it('JWS examples: their kid is did:web, so they are not checked (and nothing is fetched)', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const o = await verifyArtifact('offer', { format: 'jws', acceptIndex: 0, signature: SPEC_JWS_OFFER });
    expect(o).toMatchObject({ signature: 'not_checked', reason: 'did_web_not_resolved', signer: { kid: 'did:web:api.example.com#key-1' } });
    expect(o.payload?.payTo).toBe('0x209693Bc6afc0C5328bA36FaF03C514EF312287C');
    expect(await verifyArtifact('receipt', { format: 'jws', signature: SPEC_JWS_RECEIPT })).toMatchObject({
      signature: 'not_checked',
      reason: 'did_web_not_resolved',
    });
    expect(fetchSpy).not.toHaveBeenCalled();
  });
  it('the JWS example with an offline kid: its placeholder signature is invalid', async () => {
    const [, payload] = SPEC_JWS_OFFER.split('.');
    const header = b64uJson({ alg: 'ES256K', kid: A.didKeySecp256k1 });
    expect(await verifyArtifact('offer', { format: 'jws', signature: `${header}.${payload}.sig` })).toMatchObject({
      signature: 'invalid',
      reason: 'signature_mismatch',
    });
  });
});

describe('base58 (the Solana address form)', () => {
  it.each<[number[] | string, string]>([
    ['Hello World!', '2NEpo7TZRRrLZSi2U'],
    [[0, 0, 0x28, 0x7f, 0xb4, 0xcd], '11233QC4'],
    [Array(32).fill(0), '11111111111111111111111111111111'],
  ])('%j → %s', (input, out) => {
    expect(base58(typeof input === 'string' ? new TextEncoder().encode(input) : Uint8Array.from(input))).toBe(out);
  });
});
