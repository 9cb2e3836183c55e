import { createHash } from 'node:crypto';
import { CompactSign, importJWK, type JWK } from 'jose';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * Receipts signed INDEPENDENTLY of the verifier under test: EIP-712 with viem's account.signTypedData
 * and the domain and Receipt types written out here from the extension's text, JWS with jose's CompactSign
 * and a did:jwk key id. Keys come from fixed seeds (sha256 of a label), so every run signs the same.
 */
export const RECEIPT_DOMAIN = { name: 'x402 receipt', version: '1', chainId: 1 } as const;
export const RECEIPT_TYPES_FROM_SPEC = {
  Receipt: [
    { name: 'version', type: 'uint256' },
    { name: 'network', type: 'string' },
    { name: 'resourceUrl', type: 'string' },
    { name: 'payer', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'transaction', type: 'string' },
  ],
} as const;

export interface TestReceiptPayload {
  version: number;
  network: string;
  resourceUrl: string;
  payer: string;
  issuedAt: number;
  transaction?: string;
}

/** A deterministic secp256k1 private key for a label. */
export const testKey = (label: string): `0x${string}` => `0x${createHash('sha256').update(`atlas-test-key:${label}`).digest('hex')}`;
export const addressOf = (label: string): string => privateKeyToAccount(testKey(label)).address;

export async function signEip712Receipt(label: string, payload: TestReceiptPayload) {
  const account = privateKeyToAccount(testKey(label));
  const signature = await account.signTypedData({
    domain: RECEIPT_DOMAIN,
    types: RECEIPT_TYPES_FROM_SPEC,
    primaryType: 'Receipt',
    message: { ...payload, version: BigInt(payload.version), issuedAt: BigInt(payload.issuedAt), transaction: payload.transaction ?? '' },
  });
  return { format: 'eip712' as const, payload: { ...payload, transaction: payload.transaction ?? '' }, signature };
}

/** The secp256k1 key of a label as a private JWK (d, x, y), from viem's public key. */
async function secp256k1Jwk(label: string): Promise<JWK> {
  const priv = testKey(label);
  const pub = privateKeyToAccount(priv).publicKey; // 0x04 || x || y
  const b = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');
  return { kty: 'EC', crv: 'secp256k1', d: b(priv.slice(2)), x: b(pub.slice(4, 68)), y: b(pub.slice(68, 132)) };
}

/** A JWS receipt (ES256K) whose kid is a did:jwk carrying the public key; `kid` overrides it (e.g. a did:web id). */
export async function signJwsReceipt(label: string, payload: TestReceiptPayload, kid?: string) {
  const jwk = await secp256k1Jwk(label);
  const { d: _d, ...pub } = jwk;
  const key = await importJWK(jwk, 'ES256K');
  const didJwk = `did:jwk:${Buffer.from(JSON.stringify(pub)).toString('base64url')}#0`;
  const signature = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256K', kid: kid ?? didJwk })
    .sign(key);
  return { format: 'jws' as const, signature };
}

/** The same JWS with its signature part altered (one character of the signature changed). */
export function tamperJws(compact: string): string {
  const [h, p, s] = compact.split('.');
  const flipped = s!.startsWith('A') ? `B${s!.slice(1)}` : `A${s!.slice(1)}`;
  return `${h}.${p}.${flipped}`;
}

/** The offer-receipt extension's example receipt payload (EIP-712 form), with overrides. */
export const exampleReceiptPayload = (o: Record<string, unknown> = {}) => ({
  version: 1,
  network: 'eip155:8453',
  resourceUrl: 'https://api.example.com/premium-data',
  payer: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
  issuedAt: 1703123456,
  transaction: '',
  ...o,
});
