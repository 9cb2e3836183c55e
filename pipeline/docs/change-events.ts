import type { ChangeEvent } from '../../site/contract/changes.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';

/**
 * The dated payment-term events of the change feed in (from, to], newest first: terms-differ events
 * of signed offers (compute's signed_offer_events, rule atlas_signed_offer_events). One reader for
 * the published feed (pipeline/publish/changes.ts) and `atlas changes` (list-changes.ts).
 */
export async function changeEvents(store: Store, from: Date, to: Date, serviceId?: string): Promise<ChangeEvent[]> {
  const rows = await store.all<Record<string, unknown>>(
    `SELECT e.service_id, s.name AS service_name, e.event_at, e.fields, e.offers
    FROM signed_offer_events e LEFT JOIN services s ON s.id = e.service_id
    WHERE e.event_at > $1::TIMESTAMP AND e.event_at <= $2::TIMESTAMP AND ($3::VARCHAR IS NULL OR e.service_id = $3::VARCHAR)
    ORDER BY e.event_at DESC, e.service_id`,
    [from.toISOString(), to.toISOString(), serviceId ?? null],
  );
  return rows.map((r) => ({
    kind: 'signed_offer_terms_differ' as const,
    service_id: String(r.service_id),
    service_name: r.service_name === null ? null : String(r.service_name),
    detected_at: dbTimeToIso(r.event_at)!,
    fields: Array.isArray(r.fields) ? r.fields.map(String) : [],
    offers: Number(r.offers),
  }));
}
