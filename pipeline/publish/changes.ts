import { API_STATUS } from '../../site/contract/common.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { type ChangeCatalog, ChangeList, type ChangeRecord } from '../../site/contract/index.ts';
import { changeEvents } from '../docs/change-events.ts';
import { apiPath as api } from './paths.ts';
import { declaredDifferenceChanges } from '../compute/declared.ts';
import { writeJson } from './write.ts';

/**
 * Documentation changes and catalog listings / unlistings of the last 90 days, newest first (serve
 * filters by days / service / review).
 */
export const CHANGES_DAYS = 90;

export async function writeChanges(store: Store, genDir: string, now: Date): Promise<number> {
  const rows = await store.all<Record<string, unknown>>(
    `
    SELECT c.id, c.service_id, s.name AS service_name, c.url, c.detected_at, c.summary, c.added_lines, c.removed_lines,
      c.needs_review, c.review_terms, c.diff::VARCHAR AS diff
    FROM changes c LEFT JOIN services s ON s.id = c.service_id
    WHERE c.detected_at <= $1::TIMESTAMP AND c.detected_at > $1::TIMESTAMP - to_days($2::INTEGER)
    ORDER BY c.detected_at DESC, c.id`,
    [now.toISOString(), CHANGES_DAYS],
  );
  const docs: ChangeRecord[] = rows.map((r) => ({
    kind: 'documentation',
    catalog: null,
    id: String(r.id),
    service_id: String(r.service_id),
    service_name: r.service_name === null ? null : String(r.service_name),
    url: String(r.url),
    detected_at: dbTimeToIso(r.detected_at)!,
    summary: String(r.summary),
    added_lines: Number(r.added_lines),
    removed_lines: Number(r.removed_lines),
    needs_review: Boolean(r.needs_review),
    review_terms: Array.isArray(r.review_terms) ? r.review_terms.map(String) : [],
    diff: JSON.parse(String(r.diff ?? '[]')) as ChangeRecord['diff'],
  }));
  const windowStart = new Date(now.getTime() - CHANGES_DAYS * 86_400_000);
  const declared = await declaredDifferenceChanges(store, windowStart, now);
  const items = [...docs, ...(await catalogChanges(store, now))].sort(newestFirst);
  const events = await changeEvents(store, windowStart, now);
  await writeJson(
    api(genDir, 'changes.json'),
    ChangeList,
    {
      api_status: API_STATUS,
      generated_at: now.toISOString(),
      query: { days: CHANGES_DAYS },
      window_start: windowStart.toISOString(),
      total: items.length,
      items,
      declared_differences: declared,
      events,
    },
    'changes',
  );
  return items.length;
}

const newestFirst = (a: ChangeRecord, b: ChangeRecord) =>
  a.detected_at < b.detected_at ? 1 : a.detected_at > b.detected_at ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * Catalog events of the window (macro atlas_catalog_events, pipeline/store/rules.sql: every start
 * and end of a listed interval in catalog_listing_history) as change-feed entries. Their id is
 * derived from the event, so it is the same in every generation.
 */
export async function catalogChanges(store: Store, now: Date, days = CHANGES_DAYS): Promise<ChangeRecord[]> {
  const rows = await store.all<Record<string, unknown>>(
    `SELECT e.service_id, s.name AS service_name, coalesce(s.url, '') AS url, e.catalog_kind, e.catalog, e.event_at,
       epoch_ms(e.event_at) AS ms, e.listed, e.reason
     FROM atlas_catalog_events($1::TIMESTAMP) e LEFT JOIN services s ON s.id = e.service_id
     WHERE e.event_at > $1::TIMESTAMP - to_days($2::INTEGER)
     ORDER BY e.event_at DESC, e.service_id, e.catalog_kind, e.catalog`,
    [now.toISOString(), days],
  );
  return rows.map((r) => {
    const listed = Boolean(r.listed);
    const cat = `${String(r.catalog_kind)}:${String(r.catalog)}`;
    const reason = String(r.reason);
    return {
      kind: listed ? 'catalog_listed' : 'catalog_unlisted',
      catalog: { kind: String(r.catalog_kind) as ChangeCatalog['kind'], name: String(r.catalog), reason },
      id: `catalog-${listed ? 'listed' : 'unlisted'}-${String(r.catalog_kind)}-${String(r.catalog)}-${String(r.service_id)}-${String(r.ms)}`,
      service_id: String(r.service_id),
      service_name: r.service_name === null ? null : String(r.service_name),
      url: String(r.url),
      detected_at: dbTimeToIso(r.event_at)!,
      summary: `${listed ? 'listed' : 'unlisted'} by ${cat} (${reason})`,
      added_lines: 0,
      removed_lines: 0,
      needs_review: false,
      review_terms: [],
      diff: [],
    };
  });
}
