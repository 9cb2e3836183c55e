import { MCP_STATUSES, type PASS_RULE_OF_KIND, SCHEDULE_RULE } from '../../site/contract/common.ts';
import type { Store } from '../store/store.ts';
import {
  adoptLegacyListings,
  applyStagedDrops,
  type CatalogRef,
  DROPPED_EVERYWHERE_NOW,
  dropMissing,
  recordListed,
} from './catalog-presence.ts';
import { recordActivity } from './activity.ts';
import { catalogSource, recordDeclared } from './declared-terms.ts';
import type { DeclaredValues } from '../x402/declared.ts';

/**
 * Merging one registry sweep into the database, set-based (row-by-row inserts are slow in DuckDB;
 * aggregate in SQL). The caller opens the transaction; this module only issues statements.
 *
 * Rules (docs/CONTRACTS.md):
 * - a new record becomes a `discovered` service with exactly one operation `primary` (interval 24 h,
 *   rule `schedule/1`, reason `new_until_third_probe`; monitored from first seen, like the service)
 *   and a `first_seen` listing event;
 * - a known record is updated (registry text, usage, price, networks, last_seen_at); first_seen_at,
 *   monitoring_since and created_at never move;
 * - listed → not listed and back are recorded in `listing_events` with the time;
 * - each catalog (kind + name) keeps its own presence rows (catalog_listing, catalog-presence.ts):
 *   since when it lists each service, and when it stopped;
 * - with `delistMissing` (a complete sweep), this catalog's listing of the services the sweep did
 *   not contain ends; those that no other catalog lists are marked listed=false with unlisted_at
 *   (one catalog's sweep never unlists what another catalog still lists; likewise a record this
 *   catalog marks not listed stays listed while another catalog lists it);
 * - a record that arrives already not listed (MCP `deleted` or `deprecated`) and is unknown is
 *   skipped: a takedown of something never tracked is not news, and it must not get probes;
 * - a known record that arrives not listed goes unlisted with event `deleted_status` or
 *   `deprecated_status`; back to active, `status_active`.
 */
export interface DiscoveredRecord {
  id: string;
  type: 'api_endpoint' | 'mcp_server';
  protocol: 'x402' | 'mcp';
  pass_rule: (typeof PASS_RULE_OF_KIND)['x402' | 'mcp'];
  name: string;
  host: string;
  url: string;
  method: string;
  templated_url: boolean;
  tags: string[];
  description: string | null;
  registry_key: string;
  x402_version: number | null;
  registry_updated_at: string | null;
  registry_calls_30d: number | null;
  registry_payers_30d: number | null;
  registry_last_called_at: string | null;
  registry_price_usd: number | null;
  /** The lowest stated maximum (upto, batch-settlement) among the registry's offers. */
  registry_max_price_usd: number | null;
  registry_networks: string[];
  mcp_status: string | null;
  mcp_server_name: string | null;
  remote_type: string | null;
  /** Whether the registry lists it now (false for MCP `deleted` and `deprecated`). */
  listed: boolean;
  /** Sanitized registry item (see raw.ts). */
  registry_raw: unknown;
  /**
   * What the source declares about the payment terms (x402 records; table declared_terms, migration
   * 060), normalized like the observed terms. Absent: the record declares nothing (MCP servers).
   */
  declared?: DeclaredValues;
}

export interface MergeOptions {
  /** The catalog's configured name (services.registry, catalog_listing.catalog). */
  registry: string;
  /**
   * The catalog's kind (catalog_listing.catalog_kind): `x402` for a discovery/resources catalog, whose
   * records may be MCP servers too (`type: "mcp"` items), `mcp` for an MCP registry.
   */
  protocol: 'x402' | 'mcp';
  now: Date;
  delistMissing: boolean;
}

export interface MergeCounts {
  seen: number;
  inserted: number;
  updated: number;
  relisted: number;
  delisted_status: number;
  delisted_missing: number;
  skipped_unknown_unlisted: number;
  /** Services this catalog stopped listing in this run (catalog_listing.dropped_at), listed or not elsewhere. */
  dropped_by_catalog: number;
  /** Of those, and of the records this catalog marks not listed, the services another catalog still lists. */
  still_listed_elsewhere: number;
}

/** Counts of a merge that has done nothing yet (also the base of a sum over several merges). */
export const noMerges = (): MergeCounts => ({
  seen: 0,
  inserted: 0,
  updated: 0,
  relisted: 0,
  delisted_status: 0,
  delisted_missing: 0,
  skipped_unknown_unlisted: 0,
  dropped_by_catalog: 0,
  still_listed_elsewhere: 0,
});

/** Initial interval of a new discovered operation (daily until the third probe; schedule/1). */
export const NEW_DISCOVERED_INTERVAL_HOURS = 24;

/** MCP statuses by which a registry withdraws a server (every status but active), as an SQL list. */
const WITHDRAWN_SQL = MCP_STATUSES.filter((s) => s !== 'active')
  .map((s) => `'${s}'`)
  .join(', ');

const STAGE_STRUCTURE = JSON.stringify([
  {
    id: 'VARCHAR',
    type: 'VARCHAR',
    protocol: 'VARCHAR',
    pass_rule: 'VARCHAR',
    name: 'VARCHAR',
    host: 'VARCHAR',
    url: 'VARCHAR',
    method: 'VARCHAR',
    templated_url: 'BOOLEAN',
    tags: ['VARCHAR'],
    description: 'VARCHAR',
    registry_key: 'VARCHAR',
    x402_version: 'INTEGER',
    registry_updated_at: 'VARCHAR',
    registry_calls_30d: 'BIGINT',
    registry_payers_30d: 'BIGINT',
    registry_last_called_at: 'VARCHAR',
    registry_price_usd: 'DOUBLE',
    registry_max_price_usd: 'DOUBLE',
    registry_networks: ['VARCHAR'],
    mcp_status: 'VARCHAR',
    mcp_server_name: 'VARCHAR',
    remote_type: 'VARCHAR',
    listed: 'BOOLEAN',
    registry_raw: 'JSON',
  },
]);

const STAGE_DDL = `CREATE OR REPLACE TEMP TABLE ingest_stage (
  id VARCHAR PRIMARY KEY, type VARCHAR, protocol VARCHAR, pass_rule VARCHAR, name VARCHAR, host VARCHAR, url VARCHAR,
  method VARCHAR, templated_url BOOLEAN, tags VARCHAR[], description VARCHAR, registry_key VARCHAR, x402_version INTEGER,
  registry_updated_at VARCHAR, registry_calls_30d BIGINT, registry_payers_30d BIGINT, registry_last_called_at VARCHAR,
  registry_price_usd DOUBLE, registry_max_price_usd DOUBLE, registry_networks VARCHAR[], mcp_status VARCHAR, mcp_server_name VARCHAR, remote_type VARCHAR,
  listed BOOLEAN, registry_raw JSON)`;

/**
 * Records per staging statement (one JSON parameter each). Memory, not speed, sets it: DuckDB's
 * native memory grows with the chunk, and smaller chunks stage a large registry in much less memory
 * at the same CPU time (docs/notes/ingest.md, "Memory of a large registry").
 */
const CHUNK = 250;

async function stage(store: Store, records: readonly DiscoveredRecord[]): Promise<void> {
  await store.run(STAGE_DDL);
  for (let i = 0; i < records.length; i += CHUNK) {
    const chunk = records.slice(i, i + CHUNK);
    await store.run(`INSERT INTO ingest_stage BY NAME SELECT unnest(from_json($1::JSON, '${STAGE_STRUCTURE}'), recursive := true)`, [
      JSON.stringify(chunk),
    ]);
  }
}

async function count(store: Store, sql: string, params: (string | boolean)[]): Promise<number> {
  const rows = await store.all<{ n: number | string }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

export async function mergeDiscovered(store: Store, records: readonly DiscoveredRecord[], opts: MergeOptions): Promise<MergeCounts> {
  const now = opts.now.toISOString();
  const { registry, protocol } = opts;
  await stage(store, records);
  // Restrict matches to this tier/registry/protocol so a registry never touches another's rows.
  const known = `services.id = s.id AND services.tier = 'discovered'`;
  const catalog: CatalogRef = { kind: protocol, name: registry };
  await adoptLegacyListings(store, catalog, now);
  const keptByOthers = await applyStagedDrops(store, catalog, now);

  const counts: MergeCounts = { ...noMerges(), seen: records.length, still_listed_elsewhere: keptByOthers };

  // 1. Transitions of known services, recorded before the update overwrites `listed`.
  counts.relisted = await count(
    store,
    `SELECT count(*) AS n FROM ingest_stage s JOIN services ON ${known} WHERE s.listed AND NOT services.listed`,
    [],
  );
  await store.run(
    `INSERT INTO listing_events (service_id, event_at, listed, registry, reason)
     SELECT s.id, $1::TIMESTAMP, true, $2,
            CASE WHEN services.mcp_status IN (${WITHDRAWN_SQL}) AND coalesce(s.mcp_status, '') NOT IN (${WITHDRAWN_SQL})
              THEN 'status_active' ELSE 'relisted' END
     FROM ingest_stage s JOIN services ON ${known} WHERE s.listed AND NOT services.listed`,
    [now, registry],
  );
  counts.delisted_status = await count(
    store,
    `SELECT count(*) AS n FROM ingest_stage s JOIN services ON ${known} WHERE NOT s.listed AND services.listed`,
    [],
  );
  await store.run(
    `INSERT INTO listing_events (service_id, event_at, listed, registry, reason)
     SELECT s.id, $1::TIMESTAMP, false, $2, coalesce(s.mcp_status || '_status', 'deleted_status')
     FROM ingest_stage s JOIN services ON ${known} WHERE NOT s.listed AND services.listed`,
    [now, registry],
  );

  // 2. Update known services.
  counts.updated = await count(store, `SELECT count(*) AS n FROM ingest_stage s JOIN services ON ${known}`, []);
  await store.run(
    `UPDATE services SET
       name = s.name, host = s.host, url = s.url, templated_url = s.templated_url, tags = s.tags,
       description = s.description, registry = $2, registry_key = s.registry_key, x402_version = s.x402_version,
       registry_updated_at = s.registry_updated_at::TIMESTAMP, registry_calls_30d = s.registry_calls_30d,
       registry_payers_30d = s.registry_payers_30d, registry_last_called_at = s.registry_last_called_at::TIMESTAMP,
       registry_price_usd = s.registry_price_usd, registry_networks = s.registry_networks, mcp_status = s.mcp_status,
       mcp_server_name = s.mcp_server_name, remote_type = s.remote_type, registry_raw = s.registry_raw,
       unlisted_at = CASE WHEN s.listed THEN NULL WHEN services.listed THEN $1::TIMESTAMP ELSE services.unlisted_at END,
       last_seen_at = CASE WHEN s.listed THEN $1::TIMESTAMP ELSE services.last_seen_at END,
       listed = s.listed,
       updated_at = $1::TIMESTAMP
     FROM ingest_stage s WHERE ${known}`,
    [now, registry],
  );
  // The check follows the (possibly re-filled) URL; the method is part of the id and never changes.
  await store.run(
    `UPDATE operations SET url = s.url FROM ingest_stage s
     WHERE operations.service_id = s.id AND operations.id = 'primary' AND operations.url <> s.url`,
  );

  // 3. New services (only those listed now), their operation, first interval and first listing event.
  counts.skipped_unknown_unlisted = await count(
    store,
    `SELECT count(*) AS n FROM ingest_stage s WHERE NOT s.listed AND NOT EXISTS (SELECT 1 FROM services WHERE services.id = s.id)`,
    [],
  );
  await store.run(
    `CREATE OR REPLACE TEMP TABLE ingest_new AS
     SELECT s.* FROM ingest_stage s WHERE s.listed AND NOT EXISTS (SELECT 1 FROM services WHERE services.id = s.id)`,
  );
  counts.inserted = await count(store, 'SELECT count(*) AS n FROM ingest_new', []);
  await store.run(
    `INSERT INTO services (id, tier, type, name, name_source, host, url, method, templated_url, operator, category, tags,
       description, listed, active, registry, registry_key, protocol, x402_version, first_seen_at, last_seen_at, unlisted_at,
       approved_at, monitoring_since, registry_updated_at, registry_calls_30d, registry_payers_30d, registry_last_called_at,
       registry_price_usd, registry_networks, operator_price_usd, operator_networks, mcp_status, mcp_server_name, remote_type,
       claims, documentation_urls, registry_raw, listing_file, created_at, updated_at)
     SELECT id, 'discovered', type, name, 'registry', host, url, method, templated_url, NULL, NULL, tags,
       description, true, true, $2, registry_key, protocol, x402_version, $1::TIMESTAMP, $1::TIMESTAMP, NULL,
       NULL, $1::TIMESTAMP, registry_updated_at::TIMESTAMP, registry_calls_30d, registry_payers_30d, registry_last_called_at::TIMESTAMP,
       registry_price_usd, registry_networks, NULL, [], mcp_status, mcp_server_name, remote_type,
       NULL, [], registry_raw, NULL, $1::TIMESTAMP, $1::TIMESTAMP
     FROM ingest_new`,
    [now, registry],
  );
  await store.run(
    `INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours, enabled,
       monitoring_since)
     SELECT id, 'primary', 'call', true, url, method, NULL, pass_rule, $1::INTEGER, true, $2::TIMESTAMP FROM ingest_new
     WHERE NOT EXISTS (SELECT 1 FROM operations o WHERE o.service_id = ingest_new.id AND o.id = 'primary')`,
    [NEW_DISCOVERED_INTERVAL_HOURS, now],
  );
  await store.run(
    `INSERT INTO interval_changes (service_id, operation, changed_at, from_hours, to_hours, rule, reason)
     SELECT id, 'primary', $1::TIMESTAMP, NULL, $2::INTEGER, $3, 'new_until_third_probe' FROM ingest_new`,
    [now, NEW_DISCOVERED_INTERVAL_HOURS, SCHEDULE_RULE],
  );
  await store.run(
    `INSERT INTO listing_events (service_id, event_at, listed, registry, reason)
     SELECT id, $1::TIMESTAMP, true, $2, 'first_seen' FROM ingest_new`,
    [now, registry],
  );

  // The registry's stated maxima (table registry_max_prices, migration 022): replaced for every staged
  // service that is a discovered one now.
  await store.run('DELETE FROM registry_max_prices WHERE service_id IN (SELECT id FROM ingest_stage)');
  await store.run(
    `INSERT INTO registry_max_prices (service_id, max_price_usd)
     SELECT s.id, s.registry_max_price_usd FROM ingest_stage s
     WHERE s.registry_max_price_usd IS NOT NULL AND EXISTS (SELECT 1 FROM services WHERE ${known})`,
  );

  // What this source declares about payment terms, kept over time (declared_terms, migration 060):
  // for the records it lists now; a complete sweep ends the declarations of what it no longer lists.
  if (protocol === 'x402') {
    const declared = records.flatMap((r) => (r.declared && r.listed ? [{ service_id: r.id, values: r.declared }] : []));
    await recordDeclared(store, catalogSource(registry), declared, now, opts.delistMissing);
  }

  // This catalog's presence rows for what it lists now (catalog_listing, migration 024).
  await recordListed(store, catalog, now);

  // 4. A complete sweep: what this catalog listed before and did not list now is dropped BY THIS
  //    catalog; a service goes unlisted only when no catalog lists it any more.
  if (opts.delistMissing) {
    counts.dropped_by_catalog = await dropMissing(store, catalog, now);
    const params = { kind: protocol, catalog: registry, now };
    const missing = `FROM services WHERE tier = 'discovered' AND listed AND id IN (${DROPPED_EVERYWHERE_NOW})`;
    counts.delisted_missing = Number((await store.all<{ n: number | string }>(`SELECT count(*) AS n ${missing}`, params))[0]?.n ?? 0);
    counts.still_listed_elsewhere += counts.dropped_by_catalog - counts.delisted_missing;
    await store.run(
      `INSERT INTO listing_events (service_id, event_at, listed, registry, reason)
       SELECT id, $now::TIMESTAMP, false, $catalog, 'missing_from_sweep' ${missing}`,
      params,
    );
    await store.run(
      `UPDATE services SET listed = false, unlisted_at = $now::TIMESTAMP, updated_at = $now::TIMESTAMP
       WHERE tier = 'discovered' AND listed AND id IN (${DROPPED_EVERYWHERE_NOW})`,
      params,
    );
  }

  // Listing and delisting start and end activity periods (migration 005); a new service starts its first.
  await recordActivity(store, now, 'registry');

  await store.run('DROP TABLE IF EXISTS ingest_new');
  await store.run('DROP TABLE IF EXISTS ingest_stage');
  return counts;
}
