import {
  extractJWSHeader,
  extractJWSPayload,
  verifyOfferSignatureEIP712,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureEIP712,
  verifyReceiptSignatureJWS,
} from '@x402/extensions/offer-receipt';
import {
  OfferPayload,
  ReceiptPayload,
  type SignatureReason,
  type SignatureState,
  SignedOffer,
  SignedReceipt,
} from '../../../site/contract/offer-receipt.ts';
import { type AddressKind, addressOfKey, keyOfKid } from './jws-key.ts';

/**
 * Verifying ONE signed artifact of x402's offer-receipt extension (docs/notes/signed-offers.md). Pure
 * apart from the library calls, and never touches the network (jws-key.ts refuses did:web).
 *
 * - EIP-712: the x402 authors' verifyOfferSignatureEIP712 / verifyReceiptSignatureEIP712 (viem's
 *   typed-data recovery with the extension's canonical domain and types). Recovery yields SOME address
 *   for any well-formed signature: `valid` here means "a signer was recovered"; a tampered payload or
 *   another key recovers a different address, which the authorisation check (authorise.ts) catches.
 *   An absent optional field is signed as its zero value (validUntil 0, transaction ""), as the
 *   extension prescribes for EIP-712.
 * - JWS: the key comes from the `kid` (did:key / did:jwk only), then verifyOfferSignatureJWS /
 *   verifyReceiptSignatureJWS with that key (jose's compact verification): `valid` means the signature
 *   holds for the key the `kid` names. did:web and other methods: `not_checked`, with the reason.
 * - Anything else (shape, placeholder signatures such as the extension's own examples): `invalid`,
 *   with the reason; a payload version other than 1 is `not_checked` (`unsupported_version`).
 */
export type ArtifactKind = 'offer' | 'receipt';
type PayloadOf<K extends ArtifactKind> = K extends 'offer' ? OfferPayload : ReceiptPayload;

export interface Signer {
  /** Recovered (EIP-712) or derived from the key (JWS secp256k1 / Ed25519); absent when the key has none. */
  address?: string;
  addressKind?: AddressKind;
  /** JWS only: the header's key id. */
  kid?: string;
  /** JWS only: the key had a type with no payee address (e.g. P-256). */
  keyHasNoAddress?: boolean;
}

export interface VerifiedArtifact<K extends ArtifactKind = ArtifactKind> {
  kind: K;
  signature: SignatureState;
  format: 'eip712' | 'jws' | null;
  signer?: Signer;
  /** The signed payload: present when the signature is valid (or not checked but readable). */
  payload?: PayloadOf<K>;
  /** Offers only: the unsigned hint into `accepts[]`. */
  acceptIndex?: number;
  reason?: SignatureReason;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** What the steps below return before the kind is put back on the type. */
type Result = Omit<VerifiedArtifact, 'kind' | 'payload'> & { payload?: OfferPayload | ReceiptPayload };
type Extra = Pick<Result, 'acceptIndex'>;

const fail = (
  format: Result['format'],
  signature: 'invalid' | 'not_checked',
  reason: SignatureReason,
  extra: Partial<Result> = {},
): Result => ({ signature, format, reason, ...extra });

/** The payload of a JWS compact string without verifying it (for the version check and not-checked records). */
function unverifiedJwsPayload(jws: string): unknown {
  try {
    return extractJWSPayload<unknown>(jws);
  } catch {
    return undefined;
  }
}

export async function verifyArtifact<K extends ArtifactKind>(kind: K, artifact: unknown): Promise<VerifiedArtifact<K>> {
  const result = await verifyAny(kind, artifact);
  return { kind, ...result } as VerifiedArtifact<K>;
}

async function verifyAny(kind: ArtifactKind, artifact: unknown): Promise<Result> {
  if (!isObj(artifact)) return fail(null, 'invalid', 'malformed');
  const format = artifact.format === 'eip712' || artifact.format === 'jws' ? artifact.format : null;
  if (!format) return fail(null, 'invalid', 'unknown_format');
  const extra: Extra = kind === 'offer' && typeof artifact.acceptIndex === 'number' ? { acceptIndex: artifact.acceptIndex } : {};
  const rawPayload = format === 'eip712' ? artifact.payload : unverifiedJwsPayload(String(artifact.signature ?? ''));
  if (isObj(rawPayload) && rawPayload.version !== undefined && rawPayload.version !== 1)
    return fail(format, 'not_checked', 'unsupported_version', extra);
  const shape = (kind === 'offer' ? SignedOffer : SignedReceipt).safeParse(artifact);
  if (!shape.success) return fail(format, 'invalid', 'malformed', extra);
  const art = shape.data;
  return art.format === 'eip712'
    ? verifyEip712(kind, art.payload, art.signature as `0x${string}`, extra)
    : verifyJws(kind, art.signature, extra);
}

async function recoverEip712(kind: ArtifactKind, payload: OfferPayload | ReceiptPayload, signature: `0x${string}`): Promise<string> {
  if (kind === 'offer') {
    const p = { validUntil: 0, ...(payload as OfferPayload) };
    return (await verifyOfferSignatureEIP712({ format: 'eip712', payload: p, signature })).signer;
  }
  const p = { transaction: '', ...(payload as ReceiptPayload) };
  return (await verifyReceiptSignatureEIP712({ format: 'eip712', payload: p, signature })).signer;
}

async function verifyEip712(
  kind: ArtifactKind,
  payload: OfferPayload | ReceiptPayload,
  signature: `0x${string}`,
  extra: Extra,
): Promise<Result> {
  try {
    const address = await recoverEip712(kind, payload, signature);
    return { signature: 'valid', format: 'eip712', signer: { address, addressKind: 'evm' }, payload, ...extra };
  } catch {
    // viem refuses signatures that are no point on the curve (e.g. r = s = 0).
    return fail('eip712', 'invalid', 'malformed', extra);
  }
}

async function verifyJws(kind: ArtifactKind, jws: string, extra: Extra): Promise<Result> {
  let kid: unknown;
  try {
    kid = extractJWSHeader(jws).kid;
  } catch {
    return fail('jws', 'invalid', 'malformed', extra);
  }
  if (typeof kid !== 'string' || !kid) return fail('jws', 'invalid', 'jws_missing_kid', extra);
  const schema = kind === 'offer' ? OfferPayload : ReceiptPayload;
  const claimed = schema.safeParse(unverifiedJwsPayload(jws));
  if (!claimed.success) return fail('jws', 'invalid', 'malformed', { ...extra, signer: { kid } });
  const key = await keyOfKid(kid);
  if (!key.ok) {
    const unresolvable = key.reason === 'did_web_not_resolved' || key.reason === 'kid_method_unsupported';
    return fail('jws', unresolvable ? 'not_checked' : 'invalid', key.reason, { ...extra, signer: { kid }, payload: claimed.data });
  }
  try {
    const artifact = { format: 'jws' as const, signature: jws };
    const verified =
      kind === 'offer' ? await verifyOfferSignatureJWS(artifact, key.key) : await verifyReceiptSignatureJWS(artifact, key.key);
    const payload = schema.parse(verified);
    const addr = await addressOfKey(key.key);
    const signer: Signer = addr ? { address: addr.address, addressKind: addr.kind, kid } : { kid, keyHasNoAddress: true };
    return { signature: 'valid', format: 'jws', signer, payload, ...extra };
  } catch {
    return fail('jws', 'invalid', 'signature_mismatch', { ...extra, signer: { kid } });
  }
}
