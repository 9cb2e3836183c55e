import { z } from 'zod';
import { DateTime } from './common.ts';

/**
 * The signed artifacts of x402's `offer-receipt` extension (summarised in docs/notes/signed-offers.md): a signed offer in a
 * 402's `extensions["offer-receipt"].info.offers[]`, a signed receipt in a settlement response's
 * `extensions["offer-receipt"].info.receipt`. These schemas say only what a well-formed artifact is;
 * whether its signature holds is pipeline/x402/offer-receipt/verify.ts. Unknown keys are kept out
 * (zod strips them) because the signature covers only the payload fields named here.
 */

/** Payload of a signed offer, version 1. `validUntil` 0 or absent: no expiry. */
export const OfferPayload = z.object({
  version: z.literal(1),
  resourceUrl: z.string(),
  scheme: z.string(),
  /** CAIP-2 (v1 names are converted by the signer). */
  network: z.string(),
  asset: z.string(),
  payTo: z.string(),
  /** Atomic units. */
  amount: z.string(),
  validUntil: z.number().int().nonnegative().optional(),
});
export type OfferPayload = z.infer<typeof OfferPayload>;

/** Payload of a signed receipt, version 1. `transaction` "" or absent: not disclosed. */
export const ReceiptPayload = z.object({
  version: z.literal(1),
  network: z.string(),
  resourceUrl: z.string(),
  payer: z.string(),
  /** Unix seconds. */
  issuedAt: z.number().int().nonnegative(),
  transaction: z.string().optional(),
});
export type ReceiptPayload = z.infer<typeof ReceiptPayload>;

const Hex65 = z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'a 0x-prefixed 65-byte hex signature');
const JwsCompact = z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/, 'a JWS compact serialization');
const AcceptIndex = z.number().int().nonnegative().optional();

export const SignedOfferEip712 = z.object({
  format: z.literal('eip712'),
  payload: OfferPayload,
  signature: Hex65,
  acceptIndex: AcceptIndex,
});
export const SignedOfferJws = z.object({
  format: z.literal('jws'),
  signature: JwsCompact,
  acceptIndex: AcceptIndex,
});
/** One element of `info.offers[]`. */
export const SignedOffer = z.discriminatedUnion('format', [SignedOfferEip712, SignedOfferJws]);
export type SignedOffer = z.infer<typeof SignedOffer>;

export const SignedReceiptEip712 = z.object({
  format: z.literal('eip712'),
  payload: ReceiptPayload,
  signature: Hex65,
});
export const SignedReceiptJws = z.object({
  format: z.literal('jws'),
  signature: JwsCompact,
});
/** `info.receipt` of a settlement response (and what an outcome report may carry). */
export const SignedReceipt = z.discriminatedUnion('format', [SignedReceiptEip712, SignedReceiptJws]);
export type SignedReceipt = z.infer<typeof SignedReceipt>;

/** Verdict on one artifact's signature. */
export const SignatureState = z.enum(['valid', 'invalid', 'not_checked']);
export type SignatureState = z.infer<typeof SignatureState>;

/** Verdict on whether the signer may sign for the payee (only the payee key itself is checked). */
export const SignerAuthorisation = z.enum(['authorised', 'not_authorised', 'not_checked']);
export type SignerAuthorisation = z.infer<typeof SignerAuthorisation>;

/**
 * Why a signature or a signer was not found good, or not checked (published as-is; the field
 * dictionary lists them). One home so the verifier, the probe's counts and the docs agree.
 *
 * Signature (pipeline/x402/offer-receipt/verify.ts):
 * - `malformed`: not an artifact of the extension (shape, encoding, a placeholder signature);
 * - `unknown_format`: `format` is neither "eip712" nor "jws";
 * - `unsupported_version`: payload `version` other than 1 (the extension defines only 1);
 * - `jws_missing_kid`: a JWS header without `kid` (the extension requires it);
 * - `signature_mismatch`: the JWS signature does not verify with the key its `kid` names;
 * - `did_web_not_resolved`: the `kid` is a did:web URL, which needs an HTTPS fetch Atlas does not make;
 * - `kid_method_unsupported`: a `kid` that is not did:key, did:jwk or did:web (no offline key);
 * - `kid_key_unreadable`: a did:key / did:jwk whose key cannot be read.
 * Signer (pipeline/x402/offer-receipt/authorise.ts):
 * - `key_not_payee`: the signing key is not the payee's own key (other methods not checked);
 * - `key_has_no_address`: the key type has no payee-address form (e.g. P-256), so it cannot be the payee key;
 * - `no_payee_known`: nothing to compare the signer with;
 * - `signature_not_valid`: the signature was invalid or not checked, so the signer is unknown.
 */
export const SignatureReason = z.enum([
  'malformed',
  'unknown_format',
  'unsupported_version',
  'jws_missing_kid',
  'signature_mismatch',
  'did_web_not_resolved',
  'kid_method_unsupported',
  'kid_key_unreadable',
]);
export type SignatureReason = z.infer<typeof SignatureReason>;

export const SignerReason = z.enum(['key_not_payee', 'key_has_no_address', 'no_payee_known', 'signature_not_valid']);
export type SignerReason = z.infer<typeof SignerReason>;

/** At most this many signed offers of one 402 are read (a hostile 402 cannot make the probe verify thousands). */
export const MAX_SIGNED_OFFERS = 16;

/** Terms of a signed offer compared with its matching unsigned `accepts` entry. */
export const OFFER_TERM_FIELDS = ['scheme', 'network', 'asset', 'pay_to', 'amount'] as const;
export const OfferTermField = z.enum(OFFER_TERM_FIELDS);
export type OfferTermField = z.infer<typeof OfferTermField>;

/**
 * One signed offer as one check read it (table `offer_signatures`, migration 062; batch files and
 * probe workers carry the same shape). Keyed like its check: (service_id, operation, slot, offer_index).
 */
export const SignedOfferCheck = z.strictObject({
  /** Position in `info.offers[]`. */
  offer_index: z.number().int().nonnegative(),
  format: z.enum(['eip712', 'jws']).nullable(),
  signature: SignatureState,
  signature_reason: SignatureReason.nullable(),
  signer: SignerAuthorisation,
  signer_reason: SignerReason.nullable(),
  /** JWS: the DID method of the `kid` (`did:key`, `did:jwk`, `did:web`, `other`); null for EIP-712. */
  kid_method: z.enum(['did:key', 'did:jwk', 'did:web', 'other']).nullable(),
  /** The `accepts` entry it was compared with (all fields equal, else the `acceptIndex` hint, else the closest); null when not compared. */
  accept_index: z.number().int().nonnegative().nullable(),
  /** Valid signatures only: whether the signed terms differ from that entry; null when not compared. */
  terms_differ: z.boolean().nullable(),
  /** The differing fields (empty when equal or not compared). */
  differing: z.array(OfferTermField),
});
export type SignedOfferCheck = z.infer<typeof SignedOfferCheck>;

/** One reason with the number of signed offers it applies to. */
export const SignedOfferReason = z.strictObject({
  reason: z.union([SignatureReason, SignerReason]),
  offers: z.number().int().nonnegative(),
});
export type SignedOfferReason = z.infer<typeof SignedOfferReason>;

/**
 * The offer-receipt signed offers of a service's latest valid x402 payment request (rule
 * atlas_signed_offers_as_of in pipeline/store/rules.sql, at the compute instant). Counts of offers:
 * never a rate or a score. Null on a service whose 402 never carried a signed offer.
 */
export const SignedOffers = z.strictObject({
  checked_at: DateTime,
  signed: z.number().int().nonnegative(),
  valid: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  not_checked: z.number().int().nonnegative(),
  authorised: z.number().int().nonnegative(),
  not_authorised: z.number().int().nonnegative(),
  signer_not_checked: z.number().int().nonnegative(),
  reasons: z.array(SignedOfferReason),
  terms_differ: z.number().int().nonnegative(),
  differing_fields: z.array(OfferTermField),
  last_terms_differ_at: DateTime.nullable(),
});
export type SignedOffers = z.infer<typeof SignedOffers>;

/** The rule id published with the field and its events. */
export const SIGNED_OFFERS_RULE = 'signed-offers/1';
