import type { SignerAuthorisation, SignerReason } from '../../../site/contract/offer-receipt.ts';
import { payToHash } from '../terms.ts';
import type { AddressKind } from './jws-key.ts';

import type { VerifiedArtifact } from './verify.ts';

/**
 * Is the signer of a verified artifact authorised for the payee? The extension (docs/notes/signed-offers.md) names
 * the payee key itself (signer = payTo), DID documents (did:web) and DNS `_controllers.<domain>`
 * records; Atlas checks ONLY the payee key, which needs no network access. So:
 * - `authorised`: the signer's address is one of the payees (EVM case-insensitively, Solana exactly);
 * - `not_authorised`: the signer's key is known and is not a payee's (`key_not_payee`). The other
 *   methods are not checked, so this says "not the payee key", never "not authorised by anyone";
 * - `not_checked`: no signer to compare (`signature_not_valid`), a key type with no address
 *   (`key_has_no_address`), or no payee known (`no_payee_known`).
 * Pure: no I/O.
 */
export interface SignerVerdict {
  state: SignerAuthorisation;
  method: 'payee_key';
  reason?: SignerReason;
}

/**
 * The payees to compare a signer with: plain addresses (an offer's own payTo), or the salted pay_to
 * hashes Atlas stores (terms.ts: addresses are never stored), with the secret that made them: a
 * receipt's signer can then be checked against a service's stored `pay_to_hash` values.
 */
export type Payees = { addresses: readonly string[] } | { hashes: readonly string[]; secret: string };

/** The stored pay_to hash of an address (the normalisation of terms.ts: EVM lower-cased, Solana as is). */
export const payeeHash = (secret: string, address: string, kind: AddressKind): string =>
  payToHash(secret, kind === 'evm' ? address.toLowerCase() : address);

function isPayee(address: string, kind: AddressKind, payees: Payees): boolean {
  if ('hashes' in payees) return payees.hashes.includes(payeeHash(payees.secret, address, kind));
  return payees.addresses.some((p) => (kind === 'evm' ? p.toLowerCase() === address.toLowerCase() : p === address));
}

export function signerAuthorised(verified: VerifiedArtifact, payees: Payees): SignerVerdict {
  const method = 'payee_key' as const;
  if (verified.signature !== 'valid' || !verified.signer) return { state: 'not_checked', method, reason: 'signature_not_valid' };
  const { address, addressKind } = verified.signer;
  if (!address || !addressKind) return { state: 'not_checked', method, reason: 'key_has_no_address' };
  const known = 'hashes' in payees ? payees.hashes.length : payees.addresses.length;
  if (known === 0) return { state: 'not_checked', method, reason: 'no_payee_known' };
  return isPayee(address, addressKind, payees)
    ? { state: 'authorised', method }
    : { state: 'not_authorised', method, reason: 'key_not_payee' };
}
