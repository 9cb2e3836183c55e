import { toCaip2 } from '../../../site/contract/networks.ts';
import { MAX_SIGNED_OFFERS, type OfferPayload, type SignedOfferCheck } from '../../../site/contract/offer-receipt.ts';
import { signerAuthorised } from './authorise.ts';
import { type AcceptTerms, matchOffer } from './match-offer.ts';
import { verifyArtifact } from './verify.ts';

/**
 * The signed offers of one x402 payment request (`extensions["offer-receipt"].info.offers`), each
 * verified (verify.ts), its signer compared with the payee key (authorise.ts: the offer's own signed
 * payTo, the extension's "payTo address signing"), and its terms with the matching unsigned `accepts`
 * entry (match-offer.ts; valid signatures only: an unverified payload is nobody's commitment).
 * The first MAX_SIGNED_OFFERS are read. `info.offers` present but not a list counts as one malformed
 * offer. CPU only, no I/O: the probe calls it only when the extension is there (hasSignedOffers).
 */
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** `info.offers` of the extension, or undefined when the 402 carries no offer-receipt offers. */
function offersField(raw: Record<string, unknown>): unknown {
  const ext = isObj(raw.extensions) ? raw.extensions['offer-receipt'] : undefined;
  return isObj(ext) && isObj(ext.info) ? ext.info.offers : undefined;
}

export const hasSignedOffers = (raw: Record<string, unknown>): boolean => offersField(raw) !== undefined;

/** The unsigned entries, indexed exactly like `accepts[]` (so `acceptIndex` points at the right one). */
function acceptsOf(raw: Record<string, unknown>): AcceptTerms[] {
  const accepts = Array.isArray(raw.accepts) ? raw.accepts : [];
  return accepts.map((a) => {
    const o = isObj(a) ? a : {};
    return {
      scheme: String(o.scheme ?? ''),
      caip2: toCaip2(String(o.network ?? '')),
      asset: String(o.asset ?? ''),
      payTo: String(o.payTo ?? ''),
      amount: String((raw.x402Version === 1 ? o.maxAmountRequired : o.amount) ?? ''),
    };
  });
}

function kidMethod(kid: string | undefined): SignedOfferCheck['kid_method'] {
  if (kid === undefined) return null;
  for (const m of ['did:key', 'did:jwk', 'did:web'] as const) if (kid.startsWith(`${m}:`)) return m;
  return 'other';
}

async function checkOne(index: number, offer: unknown, accepts: AcceptTerms[]): Promise<SignedOfferCheck> {
  const v = await verifyArtifact('offer', offer);
  const payload = v.payload as OfferPayload | undefined;
  const signer = signerAuthorised(v, { addresses: payload ? [payload.payTo] : [] });
  const match = v.signature === 'valid' && payload ? matchOffer(payload, accepts, v.acceptIndex) : null;
  return {
    offer_index: index,
    format: v.format,
    signature: v.signature,
    signature_reason: v.reason ?? null,
    signer: signer.state,
    signer_reason: signer.reason ?? null,
    kid_method: v.format === 'jws' ? kidMethod(v.signer?.kid) : null,
    accept_index: match?.acceptIndex ?? null,
    terms_differ: match ? match.differing.length > 0 : null,
    differing: match?.differing ?? [],
  };
}

/** Null when the request carries no signed offers; otherwise one record per offer read (possibly none). */
export async function checkSignedOffers(raw: Record<string, unknown>): Promise<SignedOfferCheck[] | null> {
  const field = offersField(raw);
  if (field === undefined) return null;
  const offers = Array.isArray(field) ? field.slice(0, MAX_SIGNED_OFFERS) : [field];
  const accepts = acceptsOf(raw);
  return Promise.all(offers.map((o, i) => checkOne(i, o, accepts)));
}
