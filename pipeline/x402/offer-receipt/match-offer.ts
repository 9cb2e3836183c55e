import { type OfferPayload, OFFER_TERM_FIELDS, type OfferTermField } from '../../../site/contract/offer-receipt.ts';
import { toCaip2 } from '../../../site/contract/networks.ts';

/**
 * Which unsigned `accepts` entry a signed offer stands for, and which of its terms differ (the
 * extension's matching rule, docs/notes/signed-offers.md: match by payload fields; `acceptIndex` is an unsigned hint, never
 * authoritative). Pure. Compared: scheme, network (both as CAIP-2: v1 names are converted, as the
 * extension requires of signers), asset and payTo (EVM: case-insensitive), amount (atomic units,
 * leading zeros ignored; a v1 entry's maxAmountRequired). The entry is the first one equal on every
 * field; else the hinted one when in range; else the one differing in the fewest fields (first on ties).
 */

/** One unsigned `accepts` entry's terms, indexed like `accepts[]` (network as CAIP-2, amount in atomic units). */
export interface AcceptTerms {
  scheme: string;
  caip2: string;
  asset: string;
  payTo: string;
  amount: string;
}

export interface OfferMatch {
  acceptIndex: number;
  differing: OfferTermField[];
}

const evm = (network: string) => network.startsWith('eip155:');
const amount = (a: string) => a.replace(/^0+(?=\d)/, '');

type Same = (x: string, y: string) => boolean;
/** Per field: are the signed and the unsigned value equal? (`same`: EVM case-insensitive, else exact.) */
const EQUAL: Record<OfferTermField, (p: OfferPayload, a: AcceptTerms, network: string, same: Same) => boolean> = {
  scheme: (p, a) => p.scheme === a.scheme,
  network: (_p, a, network) => network === a.caip2,
  asset: (p, a, _n, same) => same(p.asset, a.asset),
  pay_to: (p, a, _n, same) => same(p.payTo, a.payTo),
  amount: (p, a) => amount(p.amount) === amount(a.amount),
};

function differing(p: OfferPayload, a: AcceptTerms): OfferTermField[] {
  const network = toCaip2(p.network);
  const same: Same = (x, y) => (evm(network) ? x.toLowerCase() === y.toLowerCase() : x === y);
  return OFFER_TERM_FIELDS.filter((f) => !EQUAL[f](p, a, network, same));
}

export function matchOffer(payload: OfferPayload, accepts: readonly AcceptTerms[], hint: number | undefined): OfferMatch | null {
  if (!accepts.length) return null;
  const diffs = accepts.map((a) => differing(payload, a));
  const exact = diffs.findIndex((d) => d.length === 0);
  if (exact >= 0) return { acceptIndex: exact, differing: [] };
  if (hint !== undefined && Number.isInteger(hint) && hint >= 0 && hint < accepts.length)
    return { acceptIndex: hint, differing: diffs[hint]! };
  let best = 0;
  for (let i = 1; i < diffs.length; i++) if (diffs[i]!.length < diffs[best]!.length) best = i;
  return { acceptIndex: best, differing: diffs[best]! };
}
