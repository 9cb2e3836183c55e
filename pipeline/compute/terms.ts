import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';
/** Change kinds of payment terms (one list, in the contract); classified by table macro atlas_terms_change_events (pipeline/store/rules.sql). */

/**
 * Materialize `terms_changes` (every change up to now) and `terms_summary` (view terms_90d) for
 * discovered x402 services, and `signed_offers_summary` / `signed_offer_events` (the signed-offer
 * rules, every tier). atlas_now must be set to `now`. The observation spans and the change
 * events (LAG over the observations) are computed once into temporary tables that shadow the views
 * terms_spans and terms_change_events (pipeline/store/rules.sql) for this connection, so terms_90d
 * reads the same rows.
 */
export async function materializeTerms(store: Store, now: Date): Promise<{ services: number; changes: number }> {
  try {
    await store.run('CREATE OR REPLACE TEMP TABLE terms_spans AS SELECT * FROM main.terms_spans');
    await store.run('CREATE OR REPLACE TEMP TABLE terms_change_events AS SELECT * FROM main.terms_change_events');
    await store.run('CREATE OR REPLACE TABLE terms_changes AS SELECT service_id, changed_at, kinds FROM terms_change_events');
    await store.run('CREATE OR REPLACE TABLE terms_summary AS SELECT t.*, $1::TIMESTAMP AS computed_at FROM terms_90d t', [timeParam(now)]);
    // Signed offers (offer-receipt) of the latest valid request and their terms-differ events.
    await store.run('CREATE OR REPLACE TABLE signed_offer_events AS SELECT * FROM atlas_signed_offer_events($1::TIMESTAMP)', [
      timeParam(now),
    ]);
    await store.run(
      'CREATE OR REPLACE TABLE signed_offers_summary AS SELECT s.*, $1::TIMESTAMP AS computed_at FROM atlas_signed_offers_as_of($1::TIMESTAMP) s',
      [timeParam(now)],
    );
  } finally {
    await store.run('DROP TABLE IF EXISTS temp.terms_change_events');
    await store.run('DROP TABLE IF EXISTS temp.terms_spans');
  }
  const [r] = await store.all<{ s: number; c: number }>(
    'SELECT (SELECT count(*) FROM terms_summary)::INTEGER AS s, (SELECT count(*) FROM terms_changes)::INTEGER AS c',
  );
  return { services: Number(r?.s ?? 0), changes: Number(r?.c ?? 0) };
}
