import { type Offer, offersAt } from './payment.ts';
import type { EndpointSpec } from './plan.ts';
import { isSignedOfferBehaviour, signingSellerOffers } from './signed-offers.ts';
import { isSignedReceiptBehaviour } from './signed-receipts.ts';
import type { FleetState } from './state.ts';

/**
 * The offers an x402 seller of the fleet asks at `now`, as its 402 states them: what a catalog that
 * lists it lists too (registry-x402.ts, registry-x402-second.ts). A seller that signs is paid to its
 * payee key's address (signed-offers.ts); every other seller's offers are its plan's (payment.ts).
 * Real captured 402s (real-402.ts) are listed with their plan's offers: their terms are whatever the
 * captured response asked, which the fleet does not rewrite into a catalog row.
 */
export function sellerOffers(state: FleetState, spec: EndpointSpec, now: Date): Offer[] {
  return isSignedOfferBehaviour(spec.behaviour) || isSignedReceiptBehaviour(spec.behaviour)
    ? signingSellerOffers(state, spec, now)
    : offersAt(spec, now, state.timeline);
}
