import { type OfferPayload, OFFER_TERM_FIELDS, type OfferTermField } from '../../../site/contract/offer-receipt.ts';
import { toCaip2 } from '../../../site/contract/networks.ts';
import type { RawOffer } from '../payment-request.ts';

/**
 * Which unsigned `accepts` entry a signed offer stands for, and which of its terms differ (the
 * extension's section 4.1: match by payload fields; `acceptIndex` is an unsigned hint, never
 * authoritative). Pure. Compared: scheme, network (both as CAIP-2: v1 names are converted, as the
 * extension requires of signers), asset and payTo (EVM: case-insensitive), amount (atomic units,
 * leading zeros ignored; a v1 entry's maxAmountRequired). The entry is the first one equal on every
 * field; else the hinted one when in range; else the one differing in the fewest fields (first on ties).
 */
/** One unsigned `accepts` entry's terms, indexed like `accepts[]` (network as CAIP-2, amount in atomic units). */
export type AcceptTerms = Pick<RawOffer, 'scheme' | 'caip2' | 'asset' | 'payTo' | 'amount'>;

export interface OfferMatch {
  acceptIndex: number;
  differing: OfferTermField[];
}

const evm = (network: string) => network.startsWith('eip155:');
const amount = (a: string) => a.replace(/^0+(?=\d)/, '');

function differing(p: OfferPayload, a: AcceptTerms): OfferTermField[] {
  const network = toCaip2(p.network);
  const same = (x: string, y: string) => (evm(network) ? x.toLowerCase() === y.toLowerCase() : x === y);
  const out: OfferTermField[] = [];
  for (const f of OFFER_TERM_FIELDS) {
    const equal =
      f === 'scheme'
        ? p.scheme === a.scheme
        : f === 'network'
          ? network === a.caip2
          : f === 'asset'
            ? same(p.asset, a.asset)
            : f === 'pay_to'
              ? same(p.payTo, a.payTo)
              : amount(p.amount) === amount(a.amount);
    if (!equal) out.push(f);
  }
  return out;
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
