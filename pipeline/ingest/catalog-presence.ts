import type { CatalogPresence } from '../../site/contract/summary.ts';
import type { Store } from '../store/store.ts';

/**
 * Per-catalog provenance of discovered services (table `catalog_listing`, migration 024, the current
 * state; table `catalog_listing_history`, migration 061, every listed/unlisted interval). A catalog
 * is one configured registry source, named by its kind and its configured name; each sweep of a
 * catalog touches its own rows only, so one catalog's sweep never ends another catalog's listing.
 * These statements run inside mergeDiscovered's transaction, over its staged records (`ingest_stage`).
 * A service is listed overall while at least one catalog lists it (`dropped_at IS NULL`).
 */
export interface CatalogRef {
  /** `x402` (a discovery/resources catalog) or `mcp` (an MCP registry). */
  kind: CatalogPresence['kind'];
  /** The configured registry name (`cdp`, `binance`, `official`, …). */
  name: string;
}

/** A row of another catalog that still lists the service. */
export const LISTED_ELSEWHERE = (serviceId: string) =>
  `EXISTS (SELECT 1 FROM catalog_listing c WHERE c.service_id = ${serviceId} AND c.dropped_at IS NULL
           AND NOT (c.catalog_kind = $kind AND c.catalog = $catalog))`;

const bind = (cat: CatalogRef, now: string) => ({ kind: cat.kind, catalog: cat.name, now });

/**
 * Services this catalog tracked before presence was recorded (their `registry` column names it):
 * each gets its row once, dated from the service's own first and last sighting, so the first sweep
 * after the upgrade can still end their listing.
 */
export async function adoptLegacyListings(store: Store, cat: CatalogRef, now: string): Promise<void> {
  await store.run(
    `INSERT INTO catalog_listing (service_id, catalog_kind, catalog, first_seen, last_seen, dropped_at)
     SELECT id, $kind, $catalog, first_seen_at, coalesce(last_seen_at, first_seen_at),
            CASE WHEN listed THEN NULL ELSE coalesce(unlisted_at, $now::TIMESTAMP) END
     FROM services
     WHERE tier = 'discovered' AND registry = $catalog AND protocol = $kind AND first_seen_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM catalog_listing c WHERE c.service_id = services.id)`,
    bind(cat, now),
  );
  // Their one interval in the history (migration 061), like the rows migration 061 carried over.
  await store.run(
    `INSERT INTO catalog_listing_history (service_id, catalog_kind, catalog, listed_at, unlisted_at, unlisted_reason)
     SELECT c.service_id, c.catalog_kind, c.catalog, c.first_seen, c.dropped_at, CASE WHEN c.dropped_at IS NOT NULL THEN 'not_recorded' END
     FROM catalog_listing c
     WHERE c.catalog_kind = $kind AND c.catalog = $catalog
       AND NOT EXISTS (SELECT 1 FROM catalog_listing_history h
                       WHERE h.service_id = c.service_id AND h.catalog_kind = c.catalog_kind AND h.catalog = c.catalog)`,
    { kind: cat.kind, catalog: cat.name },
  );
}

/**
 * End this catalog's open history interval (migration 061) of the services `which` selects (an SQL
 * condition over alias `h`), at `now`, with `reason`. The one statement every drop goes through.
 */
async function closeIntervals(store: Store, cat: CatalogRef, now: string, which: string, reason: string): Promise<void> {
  await store.run(
    `UPDATE catalog_listing_history h SET unlisted_at = $now::TIMESTAMP, unlisted_reason = ${reason}
     WHERE h.catalog_kind = $kind AND h.catalog = $catalog AND h.unlisted_at IS NULL AND ${which}`,
    bind(cat, now),
  );
}

/**
 * Staged records the catalog marks as not listed (MCP `deleted`) end this catalog's listing; then a
 * staged record that another catalog still lists stays listed overall (the staged flag is raised, so
 * the merge neither unlists it nor records a takedown; `listed_here` keeps what this catalog said).
 * Returns how many staged records were kept listed that way.
 */
export async function applyStagedDrops(store: Store, cat: CatalogRef, now: string): Promise<number> {
  await store.run('ALTER TABLE ingest_stage ADD COLUMN listed_here BOOLEAN');
  await store.run('UPDATE ingest_stage SET listed_here = listed');
  await store.run(
    `UPDATE catalog_listing SET dropped_at = $now::TIMESTAMP
     FROM ingest_stage s
     WHERE catalog_listing.service_id = s.id AND NOT s.listed AND catalog_listing.catalog_kind = $kind
       AND catalog_listing.catalog = $catalog AND catalog_listing.dropped_at IS NULL`,
    bind(cat, now),
  );
  await closeIntervals(
    store,
    cat,
    now,
    'h.service_id IN (SELECT s.id FROM ingest_stage s WHERE NOT s.listed)',
    `coalesce((SELECT s.mcp_status FROM ingest_stage s WHERE s.id = h.service_id) || '_status', 'deleted_status')`,
  );
  const raised = await store.all<{ n: number | string }>(
    `SELECT count(*) AS n FROM ingest_stage s WHERE NOT s.listed AND ${LISTED_ELSEWHERE('s.id')}`,
    { kind: cat.kind, catalog: cat.name },
  );
  await store.run(`UPDATE ingest_stage SET listed = true WHERE NOT listed AND ${LISTED_ELSEWHERE('ingest_stage.id')}`, {
    kind: cat.kind,
    catalog: cat.name,
  });
  return Number(raised[0]?.n ?? 0);
}

/**
 * Staged records the catalog lists (and that are services now): a new row from this sweep, or the
 * row's last sighting moved and any earlier drop by this catalog cleared (`first_seen` never moves).
 */
export async function recordListed(store: Store, cat: CatalogRef, now: string): Promise<void> {
  await store.run(
    `INSERT INTO catalog_listing (service_id, catalog_kind, catalog, first_seen, last_seen, dropped_at)
     SELECT s.id, $kind, $catalog, $now::TIMESTAMP, $now::TIMESTAMP, NULL
     FROM ingest_stage s JOIN services ON services.id = s.id AND services.tier = 'discovered'
     WHERE s.listed_here
     ON CONFLICT (service_id, catalog_kind, catalog) DO UPDATE SET last_seen = excluded.last_seen, dropped_at = NULL`,
    bind(cat, now),
  );
  // A new interval in the history where this catalog has none open: a first listing or a relisting.
  await store.run(
    `INSERT INTO catalog_listing_history (service_id, catalog_kind, catalog, listed_at, unlisted_at, unlisted_reason)
     SELECT s.id, $kind, $catalog, $now::TIMESTAMP, NULL, NULL
     FROM ingest_stage s JOIN services ON services.id = s.id AND services.tier = 'discovered'
     WHERE s.listed_here
       AND NOT EXISTS (SELECT 1 FROM catalog_listing_history h WHERE h.service_id = s.id AND h.catalog_kind = $kind
                       AND h.catalog = $catalog AND (h.unlisted_at IS NULL OR h.listed_at = $now::TIMESTAMP))`,
    bind(cat, now),
  );
}

/**
 * A complete sweep: this catalog's rows for services it did not list this time are dropped now.
 * Returns how many; the services no catalog lists any more are DROPPED_EVERYWHERE_NOW.
 */
export async function dropMissing(store: Store, cat: CatalogRef, now: string): Promise<number> {
  const where = `catalog_kind = $kind AND catalog = $catalog AND dropped_at IS NULL
                 AND NOT EXISTS (SELECT 1 FROM ingest_stage s WHERE s.id = catalog_listing.service_id)`;
  const rows = await store.all<{ n: number | string }>(`SELECT count(*) AS n FROM catalog_listing WHERE ${where}`, {
    kind: cat.kind,
    catalog: cat.name,
  });
  await closeIntervals(store, cat, now, 'NOT EXISTS (SELECT 1 FROM ingest_stage s WHERE s.id = h.service_id)', "'missing_from_sweep'");
  await store.run(`UPDATE catalog_listing SET dropped_at = $now::TIMESTAMP WHERE ${where}`, bind(cat, now));
  return Number(rows[0]?.n ?? 0);
}

/** Services whose listing by this catalog ended in this run and that no catalog lists any more. */
export const DROPPED_EVERYWHERE_NOW = `SELECT c.service_id FROM catalog_listing c
  WHERE c.catalog_kind = $kind AND c.catalog = $catalog AND c.dropped_at = $now::TIMESTAMP
    AND NOT EXISTS (SELECT 1 FROM catalog_listing o WHERE o.service_id = c.service_id AND o.dropped_at IS NULL)`;

/** Discovered services grouped by the catalogs that list them now and those that stopped (`<kind>:<name>`, sorted). */
export interface PresenceGroup {
  listing: string[];
  dropped: string[];
  services: number;
}

/**
 * The provenance counts of the whole database, one group per (catalogs listing, catalogs that
 * dropped): services in A only, B only, both, dropped by one and still listed by another, listed by
 * none. The one query behind the figures in docs/notes/ingest.md ("Several catalogs").
 */
export const PRESENCE_GROUPS_SQL = `WITH per AS (
  SELECT service_id,
    coalesce(list_sort(list(catalog_kind || ':' || catalog) FILTER (WHERE dropped_at IS NULL)), []) AS listing,
    coalesce(list_sort(list(catalog_kind || ':' || catalog) FILTER (WHERE dropped_at IS NOT NULL)), []) AS dropped
  FROM catalog_listing GROUP BY service_id)
SELECT * FROM (SELECT listing, dropped, count(*)::INTEGER AS services FROM per GROUP BY listing, dropped) g
ORDER BY len(g.listing) = 0, len(g.listing), g.listing::VARCHAR, g.dropped::VARCHAR`;

export async function catalogPresence(store: Store): Promise<PresenceGroup[]> {
  const rows = await store.all<{ listing: string[]; dropped: string[]; services: number }>(PRESENCE_GROUPS_SQL);
  return rows.map((r) => ({ listing: [...r.listing], dropped: [...r.dropped], services: Number(r.services) }));
}

/** One line per group: `catalogs: 12 listed by x402:binance + x402:cdp`, `…; dropped by x402:binance`, `… listed by none`. Pure. */
export function presenceLines(groups: readonly PresenceGroup[]): string[] {
  if (groups.length === 0) return ['catalogs: no discovered service'];
  return groups.map((g) => {
    const by = g.listing.length === 0 ? 'listed by none' : `listed by ${g.listing.join(' + ')}${g.listing.length === 1 ? ' only' : ''}`;
    return `catalogs: ${g.services} ${by}${g.dropped.length ? `; dropped by ${g.dropped.join(' + ')}` : ''}`;
  });
}
