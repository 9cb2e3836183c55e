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
 *   ocr        price: the catalog lists half the live amount
 *   news       network: the catalog lists Polygon (same receiving address) instead of Base
 *   geo        asset: the catalog lists another token on Base (not a known stablecoin)
 *   stocks     scheme: the catalog lists `upto` (a maximum) instead of `exact`
 *   fx         pay_to: the catalog lists another receiving address
 *   summarize  price until timeline.priceChangeAt, then the live amount: back in agreement
 */
export const DECLARED_CASES = {
  ocr: 'price',
  news: 'network',
  geo: 'asset',
  stocks: 'scheme',
  fx: 'pay_to',
  summarize: 'price_then_agrees',
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
    case 'price':
      return map((o) => ({ ...o, amount: half(o.amount) }));
    case 'price_then_agrees':
      return after(tl.priceChangeAt, now) ? map((o) => o) : map((o) => ({ ...o, amount: half(o.amount) }));
    case 'network':
      return map((o) => ({ ...o, network: POLYGON, asset: POLYGON_USDC, extra: { name: 'USDC', version: '2' } }));
    case 'asset':
      return map((o) => ({ ...o, asset: OTHER_TOKEN }));
    case 'scheme':
      return map((o) => ({ ...o, scheme: 'upto' }));
    case 'pay_to':
      return map((o) => ({ ...o, payTo: payToFor(o.network, `${spec.name}:listed-payto`) }));
    default:
      return [...live];
  }
}
