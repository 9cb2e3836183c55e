-- 062_offer_signatures: the offer-receipt signed offers a check's 402 carried (x402's offer-receipt
-- extension, `extensions["offer-receipt"].info.offers`; pipeline/x402/offer-receipt/).
--
-- One row per signed offer read (at most 16 per check), keyed like its check: (service_id,
-- operation, slot, offer_index); written in the check's transaction, only with a check row that insert
-- wrote. A check whose valid payment request carries no signed offers has no row here (its
-- payment_terms row says a valid request was read). Receiving addresses are never stored.
--   format            'eip712' | 'jws' | NULL (not an artifact of the extension)
--   signature         'valid' | 'invalid' | 'not_checked' (site/contract/offer-receipt.ts)
--   signature_reason  why not valid (malformed, signature_mismatch, did_web_not_resolved, …); NULL when valid
--   signer            'authorised' | 'not_authorised' | 'not_checked': is the signer the payee key itself
--                     (the only method checked: it needs no network)
--   signer_reason     key_not_payee, key_has_no_address, signature_not_valid, …; NULL when authorised
--   kid_method        JWS: 'did:key' | 'did:jwk' | 'did:web' | 'other'; NULL for EIP-712
--   accept_index      the unsigned `accepts` entry compared (valid signatures only), else NULL
--   terms_differ      the signed terms differ from that entry (valid signatures only), else NULL
--   differing         the fields that differ: scheme, network, asset, pay_to, amount
CREATE TABLE offer_signatures (
  service_id VARCHAR NOT NULL,
  operation VARCHAR NOT NULL,
  slot TIMESTAMP NOT NULL,
  checked_at TIMESTAMP NOT NULL,
  offer_index INTEGER NOT NULL,
  format VARCHAR,
  signature VARCHAR NOT NULL,
  signature_reason VARCHAR,
  signer VARCHAR NOT NULL,
  signer_reason VARCHAR,
  kid_method VARCHAR,
  accept_index INTEGER,
  terms_differ BOOLEAN,
  differing VARCHAR[] NOT NULL
);

-- Compute's outputs of the rules atlas_signed_offers_as_of / atlas_signed_offer_events
-- (pipeline/store/rules.sql) at the compute instant, replaced by every compute; created here empty so
-- that publishing before the first compute reads no state.
CREATE TABLE signed_offers_summary (
  service_id VARCHAR NOT NULL,
  checked_at TIMESTAMP,
  signed INTEGER,
  valid INTEGER,
  invalid INTEGER,
  not_checked INTEGER,
  authorised INTEGER,
  not_authorised INTEGER,
  signer_not_checked INTEGER,
  reasons STRUCT(reason VARCHAR, offers INTEGER)[],
  terms_differ INTEGER,
  differing_fields VARCHAR[],
  last_terms_differ_at TIMESTAMP,
  computed_at TIMESTAMP
);

CREATE TABLE signed_offer_events (
  service_id VARCHAR NOT NULL,
  event_at TIMESTAMP NOT NULL,
  fields VARCHAR[] NOT NULL,
  offers INTEGER NOT NULL
);
