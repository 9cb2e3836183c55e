import { createHash } from 'node:crypto';
import { keyedHash } from '../core/secret.ts';
import { stablecoinCurrency } from '../../site/contract/networks.ts';
import { lowestPrices } from './prices.ts';
import type { RawOffer } from './payment-request.ts';

/**
 * Normalized payment terms of one valid request (docs/design.md, "Payment-term change"): offers with CAIP-2
 * networks, EVM assets and payTo lower-cased, payTo replaced by a salted hash (addresses are never
 * stored), sorted, hashed. Equal `termsHash` = unchanged terms. Pure given the secret. The prices and
 * currencies are read from the offers and never enter the hash (adding a coin to the table must not
 * look like a change of terms).
 */
export interface NormalizedOffer {
  scheme: string;
  network: string;
  asset: string;
  amount: string;
  pay_to_hash: string;
  max_timeout_seconds: number;
}

export interface Terms {
  version: number;
  offers: NormalizedOffer[];
  termsHash: string;
  networks: string[];
  schemes: string[];
  assets: string[];
  payToHashes: string[];
  amounts: string[];
  timeouts: number[];
  /** The lowest exact price in dollars (pipeline/x402/prices.ts); null when no exact offer is priced. */
  minPriceUsd: number | null;
  /** The lowest stated maximum in dollars (upto, batch-settlement offers); null when none is priced. */
  maxPriceUsd: number | null;
  /** Sorted distinct 'network|asset=CURRENCY' of the offers on a known stablecoin (USD, EUR, …). */
  currencies: string[];
}

const isEvm = (caip2: string) => caip2.startsWith('eip155:');

/** HMAC is the costliest step per offer and payTo addresses repeat across endpoints: memoize (bounded). */
const payToCache = new Map<string, string>();
export function payToHash(secret: string, address: string): string {
  const key = `${secret}\u0000${address}`;
  let h = payToCache.get(key);
  if (h === undefined) {
    h = keyedHash(secret, 'pay_to', address);
    if (payToCache.size >= 10_000) payToCache.clear();
    payToCache.set(key, h);
  }
  return h;
}
/**
 * The salted hash of a receiving address as payment_terms stores it: EVM addresses lower-cased first.
 * One home, so a declared payee (catalog offers, seller documents) and an observed one compare equal
 * exactly when the addresses are the same.
 */
export function payToHashOf(secret: string, caip2: string, address: string): string {
  return payToHash(secret, isEvm(caip2) ? address.toLowerCase() : address);
}

const uniqSorted = <T>(xs: T[], cmp?: (a: T, b: T) => number) => [...new Set(xs)].sort(cmp);

export function normalizeTerms(version: number, raw: readonly RawOffer[], secret: string): Terms {
  const offers = raw
    .map((o): NormalizedOffer => {
      const evm = isEvm(o.caip2);
      return {
        scheme: o.scheme,
        network: o.caip2,
        asset: evm ? o.asset.toLowerCase() : o.asset,
        amount: o.amount,
        pay_to_hash: payToHashOf(secret, o.caip2, o.payTo),
        max_timeout_seconds: Math.min(2_147_483_647, Math.max(0, Math.floor(o.maxTimeoutSeconds))),
      };
    })
    .map((o) => ({ o, k: JSON.stringify(o) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .map((x) => x.o);
  const canonical = JSON.stringify({ version, offers });
  const prices = lowestPrices(raw.map((o) => ({ scheme: o.scheme, network: o.caip2, asset: o.asset, amount: o.amount })));
  const currencies = offers.flatMap((o) => {
    const c = stablecoinCurrency(o.network, o.asset);
    return c ? [`${o.network}|${o.asset}=${c}`] : [];
  });
  return {
    version,
    offers,
    termsHash: createHash('sha256').update(canonical).digest('hex'),
    networks: uniqSorted(offers.map((o) => o.network)),
    schemes: uniqSorted(offers.map((o) => o.scheme)),
    assets: uniqSorted(offers.map((o) => `${o.network}|${o.asset}`)),
    payToHashes: uniqSorted(offers.map((o) => o.pay_to_hash)),
    amounts: uniqSorted(offers.map((o) => `${o.scheme}|${o.network}|${o.asset}=${o.amount}`)),
    timeouts: uniqSorted(
      offers.map((o) => o.max_timeout_seconds),
      (a, b) => a - b,
    ),
    minPriceUsd: prices.exactUsd,
    maxPriceUsd: prices.maxUsd,
    currencies: uniqSorted(currencies),
  };
}
