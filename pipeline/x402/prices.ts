import { PRICE_KINDS } from '../../site/contract/common.ts';
import { usdPrice } from '../../site/contract/networks.ts';

/**
 * What an offer's amount means in dollars (docs/reference.md, Networks and prices). Pure.
 *
 * The scheme decides what the amount is: under `exact` it is the charge of one call; under `upto`
 * and `batch-settlement` it is only the most one call can cost (the charge is settled later, at or
 * below it). Any other scheme, including ones not yet seen, is stored with the terms and never
 * priced: we do not know what its amount means. The dollar value itself is usdPrice's rule (known USD
 * stablecoins of known mainnets only).
 *
 * This is the one home of "lowest exact price" and "lowest stated maximum": the registry price
 * (ingest) and the observed terms (probe) both come from lowestPrices.
 */
export type PriceKind = (typeof PRICE_KINDS)[number];

const [EXACT, MAXIMUM] = PRICE_KINDS;
const KIND_OF_SCHEME: ReadonlyMap<string, PriceKind> = new Map<string, PriceKind>([
  ['exact', EXACT],
  ['upto', MAXIMUM],
  ['batch-settlement', MAXIMUM],
]);

/** The kind of price a scheme's amount states, or null for a scheme whose meaning we do not know. */
export const priceKindOf = (scheme: string): PriceKind | null => KIND_OF_SCHEME.get(scheme) ?? null;

export interface PricedOffer {
  scheme: string;
  /** As given or CAIP-2: usdPrice normalizes it. */
  network: string;
  asset: string;
  /** Atomic units, digits only. */
  amount: string;
}

export interface LowestPrices {
  /** The lowest dollar price among `exact` offers; null when no exact offer is priced. */
  exactUsd: number | null;
  /** The lowest dollar maximum among `upto` / `batch-settlement` offers; null when none is priced. */
  maxUsd: number | null;
}

/**
 * The lowest exact price and the lowest stated maximum of a set of offers. A buyer picks one offer,
 * so the cheapest cap is the most a call must cost under a maximum scheme; the two are never mixed
 * (a maximum is not a price, and an exact price says nothing of another offer's cap).
 */
export function lowestPrices(offers: readonly PricedOffer[]): LowestPrices {
  let exactUsd: number | null = null;
  let maxUsd: number | null = null;
  for (const o of offers) {
    const kind = priceKindOf(o.scheme);
    if (kind === null) continue;
    const usd = usdPrice(o.network, o.asset, o.amount);
    if (usd === null) continue;
    if (kind === EXACT) exactUsd = exactUsd === null ? usd : Math.min(exactUsd, usd);
    else maxUsd = maxUsd === null ? usd : Math.min(maxUsd, usd);
  }
  return { exactUsd, maxUsd };
}
