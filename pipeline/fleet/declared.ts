import type { Offer } from './payment.ts';
import { payToFor } from './payment.ts';
import type { EndpointSpec } from './plan.ts';
import { after, type Timeline } from './timeline.ts';

/**
 * Sellers whose catalog listing declares other payment terms than their live 402 (rule
 * declared-terms/1, docs/notes/declared-terms.md), with the registry quirk `declaredTerms`: the first
 * x402 catalog (registry-x402.ts) lists these endpoints' offers changed in one dimension each, while
 * the endpoints themselves answer as always. Pure functions of the endpoint, its live offers and the
 * clock; off by default, so the catalog otherwise lists exactly what the 402 asks.
 *   ocr        half-price: the catalog lists half the live amount (a price difference)
 *   news       other-network: the catalog lists Polygon (same receiving address) instead of Base
 *   geo        other-token: the catalog lists another token on Base (not a known stablecoin)
 *   stocks     upto-scheme: the catalog lists `upto` (a maximum) instead of `exact`
 *   fx         other-payee: the catalog lists another receiving address
 *   summarize  half the price until timeline.priceChangeAt, then the live amount: back in agreement
 */
export const DECLARED_CASES = {
  ocr: 'half-price',
  news: 'other-network',
  geo: 'other-token',
  stocks: 'upto-scheme',
  fx: 'other-payee',
  summarize: 'half-price-then-agrees',
} as const;
export type DeclaredCase = (typeof DECLARED_CASES)[keyof typeof DECLARED_CASES];

const POLYGON = 'eip155:137';
const POLYGON_USDC = '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359';
/** A Base token that is not a known stablecoin (the catalog names it; the 402 asks for USDC). */
const OTHER_TOKEN = '0x4200000000000000000000000000000000000006';

export const declaredCaseOf = (spec: EndpointSpec): DeclaredCase | null =>
  (DECLARED_CASES as Record<string, DeclaredCase>)[spec.name] ?? null;

const half = (amount: string): string => String(Math.max(1, Math.floor(Number(amount) / 2)));

/** The offers the catalog lists for `spec` at `now`, given its live offers. */
export function declaredOffers(spec: EndpointSpec, live: readonly Offer[], now: Date, tl: Timeline): Offer[] {
  const c = declaredCaseOf(spec);
  const map = (f: (o: Offer) => Offer) => live.map((o) => f({ ...o }));
  switch (c) {
    case 'half-price':
      return map((o) => ({ ...o, amount: half(o.amount) }));
    case 'half-price-then-agrees':
      return after(tl.priceChangeAt, now) ? map((o) => o) : map((o) => ({ ...o, amount: half(o.amount) }));
    case 'other-network':
      return map((o) => ({ ...o, network: POLYGON, asset: POLYGON_USDC, extra: { name: 'USDC', version: '2' } }));
    case 'other-token':
      return map((o) => ({ ...o, asset: OTHER_TOKEN }));
    case 'upto-scheme':
      return map((o) => ({ ...o, scheme: 'upto' }));
    case 'other-payee':
      return map((o) => ({ ...o, payTo: payToFor(o.network, `${spec.name}:listed-payto`) }));
    default:
      return [...live];
  }
}
