import { PASS_RULE_OF_KIND, SCHEDULE_RULE } from '../../../site/contract/common.ts';
import type { Context } from '../../core/context.ts';
import type { Store } from '../../store/store.ts';

// Lists are bound as JSON text and cast (`$n::JSON::VARCHAR[]`): DuckDB cannot type an empty bound list.
import { recordActivity } from '../activity.ts';
import { recordDeclared } from '../declared-terms.ts';
import { withIngestRun } from '../runs.ts';
import { formatRejected, readListingDir, type RejectedListing } from './read.ts';
import { listingDeclared, listingRows, type ReviewedOperationRow, type ReviewedServiceRow } from './rows.ts';

/**
 * `atlas ingest listings`: load every valid listing file of `dir`, in one transaction.
 * - services and operations are upserted by id; a new operation starts being monitored
 *   (operations.monitoring_since) and gets its first `interval_changes` row (rule schedule/1, reason
 *   reviewed_fixed) at approved_at, or now when it is added to a service that already exists (it
 *   expects no checks for the time before it existed); the listing's stated interval (the schema only
 *   accepts the one schedule/1 fixes: calls hourly, documentation daily, so compute keeps it) is
 *   stored in declared_interval_hours and put in force at once, an edit recorded as a change;
 * - operations no longer in a listing are disabled; a listing set `active: false`, or a reviewed
 *   service whose file is gone from `dir`, becomes active=false with its operations disabled —
 *   never deleted (its history stays);
 * - a REJECTED file changes nothing for its service (a typo must not deactivate a listing).
 * Rejected files are returned (path + zod path of each issue); the CLI turns them into exit 2.
 */
export interface ListingsIngestCounts {
  files: number;
  loaded: number;
  rejected: number;
  inserted: number;
  updated: number;
  deactivated: number;
  operations_inserted: number;
  operations_disabled: number;
  interval_changes: number;
}

export interface ListingsIngestResult {
  dir: string;
  runId: string;
  counts: ListingsIngestCounts;
  rejected: RejectedListing[];
}

async function upsertService(store: Store, s: ReviewedServiceRow, now: string): Promise<'inserted' | 'updated'> {
  const exists = (await store.all('SELECT 1 FROM services WHERE id = $1', [s.id])).length > 0;
  const params = [
    s.id,
    s.type,
    s.name,
    s.host,
    s.url,
    s.method,
    s.templated_url,
    s.operator,
    s.category,
    JSON.stringify(s.tags),
    s.description,
    s.active,
    s.protocol,
    s.approved_at,
    s.operator_price_usd,
    JSON.stringify(s.operator_networks),
    JSON.stringify(s.claims),
    JSON.stringify(s.documentation_urls),
    s.listing_file,
    now,
  ];
  if (exists) {
    // The operations the listing started with start with it: when the approval date is corrected,
    // they move along (an operation added later keeps the time it was added).
    await store.run(
      `UPDATE operations SET monitoring_since = $2::TIMESTAMP FROM services s
       WHERE s.id = $1 AND operations.service_id = $1 AND operations.monitoring_since <= s.monitoring_since`,
      [s.id, s.approved_at],
    );
    await store.run(
      `UPDATE services SET tier = 'reviewed', type = $2, name = $3, name_source = 'atlas', host = $4, url = $5, method = $6,
         templated_url = $7, operator = $8, category = $9, tags = $10::JSON::VARCHAR[], description = $11, listed = true, active = $12,
         protocol = $13, approved_at = $14::TIMESTAMP, monitoring_since = $14::TIMESTAMP, operator_price_usd = $15,
         operator_networks = $16::JSON::VARCHAR[], claims = $17::JSON, documentation_urls = $18::JSON::VARCHAR[], listing_file = $19,
         updated_at = $20::TIMESTAMP
       WHERE id = $1`,
      params,
    );
    return 'updated';
  }
  await store.run(
    `INSERT INTO services (id, tier, type, name, name_source, host, url, method, templated_url, operator, category, tags,
       description, listed, active, protocol, approved_at, monitoring_since, operator_price_usd, operator_networks, claims,
       documentation_urls, listing_file, created_at, updated_at)
     VALUES ($1, 'reviewed', $2, $3, 'atlas', $4, $5, $6, $7, $8, $9, $10::JSON::VARCHAR[], $11, true, $12, $13, $14::TIMESTAMP,
       $14::TIMESTAMP, $15, $16::JSON::VARCHAR[], $17::JSON, $18::JSON::VARCHAR[], $19, $20::TIMESTAMP, $20::TIMESTAMP)`,
    params,
  );
  return 'inserted';
}

async function upsertOperations(
  store: Store,
  serviceId: string,
  ops: ReviewedOperationRow[],
  firstIntervalAt: string,
  now: string,
): Promise<{ inserted: number; disabled: number; intervalChanges: number }> {
  const existing = new Map(
    (
      await store.all<{ id: string; interval_hours: number; enabled: boolean }>(
        'SELECT id, interval_hours, enabled FROM operations WHERE service_id = $1',
        [serviceId],
      )
    ).map((r) => [r.id, r]),
  );
  let inserted = 0;
  let intervalChanges = 0;
  for (const o of ops) {
    const prev = existing.get(o.id);
    const values = [
      serviceId,
      o.id,
      o.kind,
      o.is_primary,
      o.url,
      o.method,
      JSON.stringify(o.expected_statuses),
      o.interval_hours,
      o.enabled,
    ];
    if (prev) {
      await store.run(
        `UPDATE operations SET kind = $3, is_primary = $4, url = $5, method = $6, expected_statuses = $7::JSON::INTEGER[],
           pass_rule = $10, interval_hours = $8, declared_interval_hours = $8, enabled = $9 WHERE service_id = $1 AND id = $2`,
        [...values, PASS_RULE_OF_KIND.reviewed],
      );
      if (Number(prev.interval_hours) !== o.interval_hours) {
        await store.run(`INSERT INTO interval_changes VALUES ($1, $2, $3::TIMESTAMP, $4, $5, $6, 'reviewed_fixed')`, [
          serviceId,
          o.id,
          now,
          Number(prev.interval_hours),
          o.interval_hours,
          SCHEDULE_RULE,
        ]);
        intervalChanges++;
      }
      existing.delete(o.id);
      continue;
    }
    await store.run(
      `INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours,
         declared_interval_hours, enabled, monitoring_since)
       VALUES ($1, $2, $3, $4, $5, $6, $7::JSON::INTEGER[], $11, $8, $8, $9, $10::TIMESTAMP)`,
      [...values, firstIntervalAt, PASS_RULE_OF_KIND.reviewed],
    );
    await store.run(`INSERT INTO interval_changes VALUES ($1, $2, $3::TIMESTAMP, NULL, $4, $5, 'reviewed_fixed')`, [
      serviceId,
      o.id,
      firstIntervalAt,
      o.interval_hours,
      SCHEDULE_RULE,
    ]);
    inserted++;
    intervalChanges++;
  }
  // Operations dropped from the listing: disabled, history kept.
  let disabled = 0;
  for (const [id, r] of existing) {
    if (!r.enabled) continue;
    await store.run('UPDATE operations SET enabled = false WHERE service_id = $1 AND id = $2', [serviceId, id]);
    disabled++;
  }
  return { inserted, disabled, intervalChanges };
}

export async function ingestListings(ctx: Context, store: Store, dir: string = ctx.paths.listings): Promise<ListingsIngestResult> {
  const set = readListingDir(dir);
  return withIngestRun(store, 'ingest_listings', ctx.clock, { dir }, async () => {
    const now = ctx.clock().toISOString();
    const counts: ListingsIngestCounts = {
      files: set.files,
      loaded: set.valid.length,
      rejected: set.rejected.length,
      inserted: 0,
      updated: 0,
      deactivated: 0,
      operations_inserted: 0,
      operations_disabled: 0,
      interval_changes: 0,
    };
    await store.transaction(async () => {
      for (const { file, listing } of set.valid) {
        const { service, operations } = listingRows(listing, file);
        const how = await upsertService(store, service, now);
        counts[how]++;
        const ops = await upsertOperations(store, service.id, operations, how === 'inserted' ? service.approved_at : now, now);
        counts.operations_inserted += ops.inserted;
        counts.operations_disabled += ops.disabled;
        counts.interval_changes += ops.intervalChanges;
        // The listing's price and networks claims, kept over time (declared_terms, rule declared-terms/1).
        await recordDeclared(store, { kind: 'listing', name: service.listing_file }, [listingDeclared(service)], now, false);
      }
      // Reviewed services with no valid file here (and not merely rejected) are no longer listed by us.
      const keep = [...set.valid.map((v) => v.listing.id), ...set.rejected.map((r) => r.claimedId).filter((x): x is string => !!x)];
      const gone = await store.all<{ id: string }>(
        `SELECT id FROM services WHERE tier = 'reviewed' AND active AND NOT list_contains($1::JSON::VARCHAR[], id)`,
        [JSON.stringify(keep)],
      );
      for (const { id } of gone) {
        await store.run('UPDATE services SET active = false, updated_at = $2::TIMESTAMP WHERE id = $1', [id, now]);
        await store.run('UPDATE operations SET enabled = false WHERE service_id = $1', [id]);
        counts.deactivated++;
      }
      // Every listing, active flag and operation changed above starts a period (migration 005).
      await recordActivity(store, now, 'listings');
    });
    for (const r of set.rejected) ctx.log.error(`rejected listing ${formatRejected(r)}`);
    return { dir, counts, rejected: set.rejected, status: set.rejected.length ? ('partial' as const) : ('ok' as const) };
  });
}
