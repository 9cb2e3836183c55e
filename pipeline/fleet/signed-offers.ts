import type { ServerResponse } from 'node:http';
import { toCaip2 } from '../../site/contract/networks.ts';
import { encodeHeader, type Offer, offersAt, paymentRequiredV2 } from './payment.ts';
import { makeSpec, type EndpointSpec } from './plan.ts';
import { type SellerKeys, sellerKeys, signEip712, signJws } from './seller-keys.ts';
import type { FleetState } from './state.ts';

/**
 * Sellers whose 402 carries offer-receipt signed offers (x402's offer-receipt extension,
 * `extensions["offer-receipt"].info.offers`), one endpoint per case, appended after the plan when
 * the fleet is started with `signedOffers: true` (off by default: the default fleet is unchanged).
 * Each is an ordinary v2 Base USDC seller whose payTo is its own secp256k1 key's address, so the
 * probe's verdict is `ok`; what differs is the signed offer (signed with viem / jose directly,
 * seller-keys.ts). Keys are deterministic in (fleet seed, endpoint name).
 */
export const SIGNED_OFFER_CASES = [
  'eip712-valid', // EIP-712 signed by the payee key: valid, authorised
  'jws-valid', // JWS ES256K, kid did:key of the payee key: valid, authorised
  'bad-signature', // JWS by the payee key with its signature bytes altered: invalid (signature_mismatch)
  'wrong-signer', // EIP-712 signed by another key (valid signature, not the payee key): not_authorised
  'did-web', // JWS whose kid is a did:web URL: not checked (never fetched)
  'terms-differ', // EIP-712 by the payee key over an amount twice the unsigned accepts entry's: terms differ
] as const;
export type SignedOfferCase = (typeof SIGNED_OFFER_CASES)[number];

export const SIGNED_OFFER_PREFIX = 'signed-offer:';
export type SignedOfferBehaviour = `signed-offer:${SignedOfferCase}`;
export const isSignedOfferBehaviour = (b: string): b is SignedOfferBehaviour => b.startsWith(SIGNED_OFFER_PREFIX);
export const signedOfferCase = (b: SignedOfferBehaviour): SignedOfferCase => b.slice(SIGNED_OFFER_PREFIX.length) as SignedOfferCase;

/** One x402 endpoint per case: host and name `signed-<case>`, path /api. */
export function signedOfferSpecs(first: number): EndpointSpec[] {
  return SIGNED_OFFER_CASES.map((c, i) => makeSpec(first + i, `signed-${c}`, `${SIGNED_OFFER_PREFIX}${c}`, `signed-${c}`, '/api'));
}

const keyCache = new Map<string, SellerKeys>();
/** The seller's keys (the payee key) and, for `wrong-signer`, another key of the same seed. */
export function signedOfferKeys(seed: number, name: string, role: 'payee' | 'other' = 'payee'): SellerKeys {
  const id = `fleet-${seed}|${name}|${role}`;
  let k = keyCache.get(id);
  if (!k) {
    k = sellerKeys(id);
    keyCache.set(id, k);
  }
  return k;
}

async function signedOffer(c: SignedOfferCase, payload: Record<string, unknown>, payee: SellerKeys, other: SellerKeys, host: string) {
  switch (c) {
    case 'eip712-valid':
      return { format: 'eip712', acceptIndex: 0, payload, signature: await signEip712('offer', payload, payee.evm) };
    case 'terms-differ': {
      const signed = { ...payload, amount: String(BigInt(String(payload.amount)) * 2n) };
      return { format: 'eip712', acceptIndex: 0, payload: signed, signature: await signEip712('offer', signed, payee.evm) };
    }
    case 'wrong-signer':
      return { format: 'eip712', acceptIndex: 0, payload, signature: await signEip712('offer', payload, other.evm) };
    case 'jws-valid':
      return {
        format: 'jws',
        acceptIndex: 0,
        signature: await signJws(payload, payee.didKeySecp256k1, { alg: 'ES256K', jwk: payee.evmJwk }),
      };
    case 'bad-signature': {
      const [h, p, s] = (await signJws(payload, payee.didKeySecp256k1, { alg: 'ES256K', jwk: payee.evmJwk })).split('.');
      const sig = Buffer.from(s!, 'base64url');
      sig[10] = (sig[10]! + 1) % 256;
      return { format: 'jws', acceptIndex: 0, signature: `${h}.${p}.${sig.toString('base64url')}` };
    }
    case 'did-web':
      return {
        format: 'jws',
        acceptIndex: 0,
        signature: await signJws(payload, `did:web:${host}#key-1`, { alg: 'ES256K', jwk: payee.evmJwk }),
      };
  }
}

/**
 * The offers of a seller that signs (a signed-offer or a signed-receipt seller) at `now`: its plan's
 * offers paid to its payee key's address. Its 402 asks exactly these and the catalogs list them
 * (seller-offers.ts), so only the quirk declaredTerms makes a catalog declare other terms.
 */
export function signingSellerOffers(state: FleetState, spec: EndpointSpec, now: Date): Offer[] {
  const payee = signedOfferKeys(state.signingSeed, spec.name);
  return offersAt(spec, now, state.timeline).map((o) => ({ ...o, payTo: payee.evm.address }));
}

/** The 402 of a signing seller: a v2 request whose payTo is the payee key's address, with one signed offer. */
export async function sendSignedOffer(state: FleetState, spec: EndpointSpec, res: ServerResponse, url: string, now: Date): Promise<void> {
  const c = signedOfferCase(spec.behaviour as SignedOfferBehaviour);
  const payee = signedOfferKeys(state.signingSeed, spec.name);
  const offers = signingSellerOffers(state, spec, now);
  const pr = paymentRequiredV2(spec, url, offers);
  const first = offers[0]!;
  const payload = {
    version: 1,
    resourceUrl: url,
    scheme: first.scheme,
    network: toCaip2(first.network),
    asset: first.asset,
    payTo: first.payTo,
    amount: first.amount,
    validUntil: Math.floor(now.getTime() / 1000) + 300,
  };
  const offer = await signedOffer(c, payload, payee, signedOfferKeys(state.signingSeed, spec.name, 'other'), `${spec.host}.fleet.test`);
  pr.extensions = { ...(pr.extensions as Record<string, unknown> | undefined), 'offer-receipt': { info: { offers: [offer] } } };
  const body = '{}';
  res.writeHead(402, {
    'content-type': 'application/json; charset=utf-8',
    'payment-required': encodeHeader(pr, state.headerEncoding),
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
