import {
  type EIP712SignedReceipt,
  extractJWSHeader,
  extractJWSPayload,
  extractPublicKeyFromKid,
  type JWSSignedReceipt,
  verifyReceiptSignatureEIP712,
  verifyReceiptSignatureJWS,
} from '@x402/extensions/offer-receipt';
import { exportJWK } from 'jose';
import { publicKeyToAddress } from 'viem/accounts';

/**
 * The signature step of rule outcome-receipt/1: is the receipt's signature valid, and which key
 * signed it. All cryptography is the x402 authors' (@x402/extensions, on viem and jose); nothing
 * here computes a signature.
 *
 * No network, ever: a JWS key id is resolved only when the key is in the id itself (did:key,
 * did:jwk); a did:web id would need an HTTPS fetch (extractPublicKeyFromKid would make it), so it is
 * refused before the library is called and the signature is `not_checked` (did_web_not_resolved).
 */
export interface ReceiptSignature {
  format: 'eip712' | 'jws' | null;
  signature: 'valid' | 'invalid' | 'not_checked';
  /** Why invalid or not checked, in short words (e.g. did_web_not_resolved); null when valid. */
  detail: string | null;
  /** The signer's EVM address (EIP-712: recovered; JWS: of a secp256k1 key), lower-case; null when none. */
  signer: string | null;
  /** The signed payload (EIP-712: as transmitted; JWS: decoded from the compact string); null when unreadable. */
  payload: Record<string, unknown> | null;
}

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

async function eip712(receipt: Record<string, unknown>): Promise<ReceiptSignature> {
  const payload = asRecord(receipt.payload);
  if (!payload) return { format: 'eip712', signature: 'invalid', detail: 'no_payload', signer: null, payload: null };
  try {
    // Recovery always yields some address for a well-formed signature: a forged or altered one
    // recovers another key, which the payee check then refuses.
    const { signer } = await verifyReceiptSignatureEIP712(receipt as unknown as EIP712SignedReceipt);
    return { format: 'eip712', signature: 'valid', detail: null, signer: signer.toLowerCase(), payload };
  } catch {
    return { format: 'eip712', signature: 'invalid', detail: 'signature_unrecoverable', signer: null, payload };
  }
}

async function jws(receipt: Record<string, unknown>): Promise<ReceiptSignature> {
  const compact = String(receipt.signature ?? '');
  let header: { kid?: unknown; alg?: unknown };
  let payload: Record<string, unknown> | null;
  try {
    header = extractJWSHeader(compact);
    payload = asRecord(extractJWSPayload(compact));
  } catch {
    return { format: 'jws', signature: 'invalid', detail: 'jws_unreadable', signer: null, payload: null };
  }
  const kid = typeof header.kid === 'string' ? header.kid : '';
  const notChecked = (detail: string): ReceiptSignature => ({ format: 'jws', signature: 'not_checked', detail, signer: null, payload });
  if (!kid) return notChecked('no_kid');
  if (kid.startsWith('did:web:')) return notChecked('did_web_not_resolved');
  if (!kid.startsWith('did:key:') && !kid.startsWith('did:jwk:')) return notChecked('kid_method_unsupported');
  let key: Awaited<ReturnType<typeof extractPublicKeyFromKid>>;
  try {
    key = await extractPublicKeyFromKid(kid);
  } catch {
    return notChecked('kid_unreadable');
  }
  try {
    await verifyReceiptSignatureJWS(receipt as unknown as JWSSignedReceipt, key);
  } catch {
    return { format: 'jws', signature: 'invalid', detail: 'jws_signature_invalid', signer: null, payload };
  }
  const jwk = await exportJWK(key);
  const signer =
    jwk.kty === 'EC' && jwk.crv === 'secp256k1' && jwk.x && jwk.y
      ? publicKeyToAddress(
          `0x04${Buffer.from(jwk.x, 'base64url').toString('hex')}${Buffer.from(jwk.y, 'base64url').toString('hex')}`,
        ).toLowerCase()
      : null;
  return { format: 'jws', signature: 'valid', detail: signer ? null : 'key_not_evm', signer, payload };
}

/** Verify one receipt object (any shape: a malformed one is `invalid`, never an exception). */
export async function verifyReceiptSignature(receipt: unknown): Promise<ReceiptSignature> {
  const r = asRecord(receipt);
  if (r?.format === 'eip712') return eip712(r);
  if (r?.format === 'jws' && typeof r.signature === 'string') return jws(r);
  return { format: null, signature: 'invalid', detail: 'unknown_format', signer: null, payload: null };
}
