import type { SignedOfferCheck } from '../../site/contract/offer-receipt.ts';

/** One signed offer as the probe records it: by default a valid EIP-712 offer by the payee, terms as the accepts entry. */
export const signedOfferCheck = (o: Partial<SignedOfferCheck> = {}): SignedOfferCheck => ({
  offer_index: 0,
  format: 'eip712',
  signature: 'valid',
  signature_reason: null,
  signer: 'authorised',
  signer_reason: null,
  kid_method: null,
  accept_index: 0,
  terms_differ: false,
  differing: [],
  ...o,
});
