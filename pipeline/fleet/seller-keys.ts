import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { CompactSign, type JWK } from 'jose';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { base58 } from '../x402/offer-receipt/base58.ts';

/**
 * Signing keys of fleet sellers (and of tests), deterministic from a seed, and the two ways the
 * offer-receipt extension signs, done DIRECTLY with viem (EIP-712 typed data) and jose (JWS compact)
 * with the extension's types and domains written out here, never through the verifier's library:
 * a bug in the verifier cannot agree with itself. Used for offers (pipeline/fleet/respond-x402.ts)
 * and receipts.
 */

/** `name type` pairs of an EIP-712 struct, written as its encodeType string reads ("uint256 version, …"). */
const struct = (fields: string) =>
  fields.split(', ').map((f) => {
    const [type, name] = f.split(' ');
    return { name: name!, type: type! };
  });

/** The extension's canonical EIP-712 types (docs/notes/signed-offers.md), copied from the text. */
export const SPEC_TYPES = {
  Offer: struct(
    'uint256 version, string resourceUrl, string scheme, string network, string asset, string payTo, string amount, uint256 validUntil',
  ),
  Receipt: struct('uint256 version, string network, string resourceUrl, string payer, uint256 issuedAt, string transaction'),
};

const DOMAIN = {
  offer: { name: 'x402 offer', version: '1', chainId: 1 },
  receipt: { name: 'x402 receipt', version: '1', chainId: 1 },
} as const;

export interface SellerKeys {
  /** secp256k1: signs EIP-712 and ES256K JWS; its address is an EVM payee. */
  evm: PrivateKeyAccount;
  evmJwk: JWK;
  /** Ed25519: signs EdDSA JWS; its base58 public key is a Solana payee. */
  ed25519: KeyObject;
  solanaAddress: string;
  /** did:key URLs of both public keys (offline key ids). */
  didKeySecp256k1: string;
  didKeyEd25519: string;
  /** did:jwk of the secp256k1 public key. */
  didJwkSecp256k1: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();
const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/** Deterministic keys for a seed string (a fleet seed plus a seller name, or a test's label). */
export function sellerKeys(seed: string): SellerKeys {
  const d = sha256(`atlas-seller-secp256k1|${seed}`);
  const evm = privateKeyToAccount(`0x${d.toString('hex')}`);
  const pub = Buffer.from(evm.publicKey.slice(2), 'hex'); // 0x04 || x || y
  const x = pub.subarray(1, 33);
  const y = pub.subarray(33, 65);
  const evmJwk: JWK = { kty: 'EC', crv: 'secp256k1', x: b64u(x), y: b64u(y), d: b64u(d) };
  const compressed = Buffer.concat([Buffer.from([(y[31]! & 1) === 1 ? 3 : 2]), x]);
  const edSeed = sha256(`atlas-seller-ed25519|${seed}`);
  const ed25519 = createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), edSeed]),
    format: 'der',
    type: 'pkcs8',
  });
  const edPub = Buffer.from(String(createPublicKey(ed25519).export({ format: 'jwk' }).x), 'base64url');
  const { d: _d, ...publicJwk } = evmJwk;
  return {
    evm,
    evmJwk,
    ed25519,
    solanaAddress: base58(edPub),
    didKeySecp256k1: `did:key:z${base58(Buffer.concat([Buffer.from([0xe7, 0x01]), compressed]))}`,
    didKeyEd25519: `did:key:z${base58(Buffer.concat([Buffer.from([0xed, 0x01]), edPub]))}`,
    didJwkSecp256k1: `did:jwk:${b64u(Buffer.from(JSON.stringify(publicJwk)))}`,
  };
}

/** An EIP-712 signature over an offer or receipt payload (absent optional fields signed as 0 / ""). */
export function signEip712(
  kind: 'offer' | 'receipt',
  payload: Record<string, unknown>,
  account: PrivateKeyAccount,
): Promise<`0x${string}`> {
  const message =
    kind === 'offer'
      ? { validUntil: 0, ...payload, version: BigInt(Number(payload.version)) }
      : { transaction: '', ...payload, version: BigInt(Number(payload.version)) };
  if (kind === 'offer') (message as Record<string, unknown>).validUntil = BigInt(Number((message as Record<string, unknown>).validUntil));
  else (message as Record<string, unknown>).issuedAt = BigInt(Number(payload.issuedAt));
  return account.signTypedData({
    domain: DOMAIN[kind],
    types: { [kind === 'offer' ? 'Offer' : 'Receipt']: SPEC_TYPES[kind === 'offer' ? 'Offer' : 'Receipt'] },
    primaryType: kind === 'offer' ? 'Offer' : 'Receipt',
    message,
  } as Parameters<PrivateKeyAccount['signTypedData']>[0]);
}

/** A JWS compact serialization of a payload, signed by jose (ES256K with a secp256k1 JWK, EdDSA with an Ed25519 key). */
export async function signJws(
  payload: Record<string, unknown>,
  kid: string,
  key: { alg: 'ES256K'; jwk: JWK } | { alg: 'EdDSA'; key: KeyObject },
): Promise<string> {
  const signingKey = key.alg === 'ES256K' ? createPrivateKey({ key: key.jwk as import('node:crypto').JsonWebKey, format: 'jwk' }) : key.key;
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: key.alg, kid }).sign(signingKey);
}
