import type { Store } from '../store/store.ts';
import { int } from './sql.ts';

/**
 * Terms-differ events of signed offers in the report window [ws, until): table macro
 * atlas_signed_offer_events in pipeline/store/rules.sql (over the raw offer_signatures and
 * payment_terms rows up to until), selected by atlas_in_window(event_at, ws, until).
 * $1 = week start, $2 = figures_until.
 */
export const SIGNED_OFFERS_SQL = `
SELECT count(*)::INTEGER AS events, count(DISTINCT service_id)::INTEGER AS services
FROM atlas_signed_offer_events($2::TIMESTAMP)
WHERE atlas_in_window(event_at, $1::TIMESTAMP, $2::TIMESTAMP)
`;

export async function signedOffersFigures(
  store: Store,
  ws: string,
  until: string,
): Promise<{ terms_differ_events: number; services: number }> {
  const [row] = await store.all<Record<string, unknown>>(SIGNED_OFFERS_SQL, [ws, until]);
  return { terms_differ_events: int(row?.events), services: int(row?.services) };
}
