import { extractPublicKeyFromKid } from '@x402/extensions/offer-receipt';
import { base64url, exportJWK, type KeyLike } from 'jose';
import { publicKeyToAddress } from 'viem/accounts';
import type { SignatureReason } from '../../../site/contract/offer-receipt.ts';
import { base58 } from './base58.ts';

/**
 * The public key a JWS `kid` names, read OFFLINE only. did:key and did:jwk carry the key in the URL
 * and are read by the x402 authors' extractPublicKeyFromKid; did:web needs an HTTPS fetch of the
 * seller's DID document (the library would make it), so it is refused BEFORE the library is called:
 * Atlas makes no request beyond the probe's own. Any other method has no offline key.
 */
export type KidKey = { ok: true; key: KeyLike } | { ok: false; reason: SignatureReason };

export async function keyOfKid(kid: string): Promise<KidKey> {
  if (kid.startsWith('did:web:')) return { ok: false, reason: 'did_web_not_resolved' };
  if (!kid.startsWith('did:key:') && !kid.startsWith('did:jwk:')) return { ok: false, reason: 'kid_method_unsupported' };
  try {
    return { ok: true, key: await extractPublicKeyFromKid(kid) };
  } catch {
    return { ok: false, reason: 'kid_key_unreadable' };
  }
}

/** Where a payee address lives: EVM addresses compare case-insensitively, Solana ones exactly. */
export type AddressKind = 'evm' | 'solana';

/**
 * The payee address a public key would have, when its type has one: secp256k1 → the EVM address
 * (viem's publicKeyToAddress of the uncompressed point), Ed25519 → the Solana address (the base58 of
 * the 32 key bytes). Other key types (P-256, RSA) have no payee address: null.
 */
export async function addressOfKey(key: KeyLike): Promise<{ address: string; kind: AddressKind } | null> {
  const jwk = await exportJWK(key);
  if (jwk.kty === 'EC' && jwk.crv === 'secp256k1' && jwk.x && jwk.y) {
    const point = Buffer.concat([Buffer.from([4]), base64url.decode(jwk.x), base64url.decode(jwk.y)]);
    return { address: publicKeyToAddress(`0x${point.toString('hex')}`), kind: 'evm' };
  }
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && jwk.x) return { address: base58(base64url.decode(jwk.x)), kind: 'solana' };
  return null;
}
