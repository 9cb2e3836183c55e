/**
 * x402 offer-receipt: verify signed offers and receipts (verify.ts), and whether the signer is the
 * payee key (authorise.ts; its `Payees` takes plain addresses or Atlas's stored pay_to hashes).
 */
export { signerAuthorised } from './authorise.ts';
export { verifyArtifact } from './verify.ts';
export { checkSignedOffers, hasSignedOffers } from './read-offers.ts';
