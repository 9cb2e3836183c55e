import { createHash } from 'node:crypto';
import { toCaip2 } from '../../site/contract/networks.ts';
import { lowestPrices } from './prices.ts';
import { payToHashOf } from './terms.ts';

/**
 * What a source DECLARES about a service's payment terms (rule declared-terms/1, pipeline/store/rules.sql;
 * table declared_terms, migration 060), normalized exactly like the observed terms (terms.ts): CAIP-2
 * networks, EVM assets lower-cased, receiving addresses as the same salted hash, prices by
 * lowestPrices (an `upto` / `batch-settlement` amount is a maximum, never a price). Pure.
 *
 * null in a member: the source states nothing about that dimension, so it can never differ there.
 */
export interface DeclaredValues {
  price_usd: number | null;
  max_price_usd: number | null;
  networks: string[] | null;
  assets: string[] | null;
  schemes: string[] | null;
  pay_to_hashes: string[] | null;
}

/** One offer as a source states it; any member but the network may be missing. */
export interface DeclaredOffer {
  network: string;
  scheme?: string | null;
  asset?: string | null;
  amount?: string | null;
  payTo?: string | null;
}

const isEvm = (caip2: string) => caip2.startsWith('eip155:');
const setOrNull = (xs: string[]): string[] | null => (xs.length ? [...new Set(xs)].sort() : null);
const text = (v: string | null | undefined): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The declared values of a list of offers (a catalog's accepts, a seller document's entry). */
export function declaredOfOffers(offers: readonly DeclaredOffer[], secret: string): DeclaredValues {
  const norm = offers
    .map((o) => ({ ...o, caip2: toCaip2(o.network) }))
    .filter((o) => o.caip2.length > 0)
    .map((o) => {
      const asset = text(o.asset);
      return {
        caip2: o.caip2,
        scheme: text(o.scheme),
        asset: asset === null ? null : isEvm(o.caip2) ? asset.toLowerCase() : asset,
        amount: text(o.amount),
        payTo: text(o.payTo),
      };
    });
  const prices = lowestPrices(
    norm.flatMap((o) =>
      o.scheme && o.asset && o.amount ? [{ scheme: o.scheme, network: o.caip2, asset: o.asset, amount: o.amount }] : [],
    ),
  );
  return {
    price_usd: prices.exactUsd,
    max_price_usd: prices.maxUsd,
    networks: setOrNull(norm.map((o) => o.caip2)),
    assets: setOrNull(norm.flatMap((o) => (o.asset ? [`${o.caip2}|${o.asset}`] : []))),
    schemes: setOrNull(norm.flatMap((o) => (o.scheme ? [o.scheme] : []))),
    pay_to_hashes: setOrNull(norm.flatMap((o) => (o.payTo ? [payToHashOf(secret, o.caip2, o.payTo)] : []))),
  };
}

/** A declaration that states nothing (a source that stopped declaring). */
export const NOTHING_DECLARED: DeclaredValues = {
  price_usd: null,
  max_price_usd: null,
  networks: null,
  assets: null,
  schemes: null,
  pay_to_hashes: null,
};

/** The hash of the declared values (declared_terms.values_hash): equal hash = unchanged declaration. */
export function declaredValuesHash(v: DeclaredValues, detail: unknown = null): string {
  const canonical = JSON.stringify([v.price_usd, v.max_price_usd, v.networks, v.assets, v.schemes, v.pay_to_hashes, detail]);
  return createHash('md5').update(canonical).digest('hex');
}
