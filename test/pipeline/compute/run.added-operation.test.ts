import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestListings } from '../../../pipeline/ingest/index.ts';
import { computeWeekFigures } from '../../../pipeline/reports/index.ts';
import { MIGRATIONS_DIR, migrate, openStore } from '../../../pipeline/store/index.ts';
import { makeContext, tempDir, testClock } from '../../helpers/context.ts';
import {
  addReviewed,
  at,
  insertCheckSeries,
  insertIntervalChanges,
  insertOperations,
  makeIntervalChange,
  type ListingOp,
  makeOperation,
  writeListingFile,
} from './fixtures.ts';
import { computeAt, evidenceAt, withDb } from './helpers.ts';

/**
 * An operation added to an existing reviewed listing expects checks only from when it started being
 * monitored (operations.monitoring_since), not from the listing's approval: expected and missed checks
 * follow the schedule in force at the time, and before it existed there was no schedule for it.
 */
const DAY0 = '2026-11-02T00:00:00.000Z'; // a Monday: the listing is approved
const DAY10 = at(DAY0, 10); // Thursday of the next week: two operations are added
const DAY20 = at(DAY0, 20);

const PRIMARY: ListingOp = { id: 'primary', kind: 'call', primary: true, interval: 'hourly' };
const ADDED: ListingOp[] = [
  { id: 'docs', kind: 'documentation', interval: 'daily' },
  { id: 'search', kind: 'call', interval: 'hourly' },
];

describe('an operation added to an existing listing', () => {
  it('expects checks from when it was added, in the 30-day evidence and in a weekly report', async () => {
    await withDb(async (store, dir) => {
      const listings = join(dir, 'listings');
      mkdirSync(listings);
      const clock = testClock(DAY0);
      const ctx = makeContext(dir, { clock });
      writeListingFile(listings, { slug: 'grow', approvedAt: DAY0, operations: [PRIMARY] });
      await ingestListings(ctx, store, listings);
      await computeAt(store, dir, at(DAY0, 5));
      clock.set(DAY10);
      writeListingFile(listings, { slug: 'grow', approvedAt: DAY0, operations: [PRIMARY, ...ADDED] });
      await ingestListings(ctx, store, listings);

      // each operation's own start of monitoring
      const since = await store.all<{ id: string; since: string }>(
        `SELECT id, strftime(monitoring_since, '%Y-%m-%dT%H:%M:%S.%gZ') AS since FROM operations WHERE service_id = 'svc_grow' ORDER BY id`,
      );
      expect(since).toEqual([
        { id: 'docs', since: DAY10 },
        { id: 'primary', since: DAY0 },
        { id: 'search', since: DAY10 },
      ]);

      // every check ran as scheduled: the primary hourly since day 0, the added ones since day 10
      await insertCheckSeries(store, { serviceId: 'svc_grow', from: DAY0, to: DAY20, everyHours: 1, rule: 'reviewed/1' });
      await insertCheckSeries(store, {
        serviceId: 'svc_grow',
        operation: 'docs',
        from: DAY10,
        to: DAY20,
        everyHours: 24,
        rule: 'reviewed/1',
      });
      await insertCheckSeries(store, {
        serviceId: 'svc_grow',
        operation: 'search',
        from: DAY10,
        to: DAY20,
        everyHours: 1,
        rule: 'reviewed/1',
      });

      const expected = await store.all<{ operation: string; expected: number }>(
        `SELECT operation, expected::INTEGER AS expected FROM atlas_expected_checks($1::TIMESTAMP - INTERVAL 30 DAY, $1::TIMESTAMP)
         WHERE service_id = 'svc_grow' ORDER BY operation`,
        [DAY20],
      );
      // ~10 daily checks for the docs page and 240 hourly for the added call, not 20 and 480
      expect(expected).toEqual([
        { operation: 'docs', expected: 10 },
        { operation: 'primary', expected: 480 },
        { operation: 'search', expected: 240 },
      ]);
      await computeAt(store, dir, DAY20);
      const e = await evidenceAt(store, DAY20, 'svc_grow');
      expect({ checks: e.checks_30d, missed: e.missed_30d }).toEqual({ checks: 480 + 10 + 240, missed: 0 });

      // the week the operations were added (Mon day 7 .. Mon day 14): docs from Thursday 00:00 (4 days),
      // the added call 96 hours
      const week = await computeWeekFigures(store, new Date(at(DAY0, 7)), new Date(at(DAY0, 14)));
      expect(week.checks.by_kind.reviewed).toEqual({ ran: 168 + 4 + 96, passed: 168 + 4 + 96, missed: 0, pass_rate: 1 });
    });
  }, 60_000);

  it('a database from before operations had their own start is backfilled by its migration', async () => {
    const t = tempDir('atlas-op-since-');
    const store = await openStore(join(t.dir, 'atlas.duckdb'));
    try {
      // the tables as the older code created them (no rules yet: they need the new column)
      await store.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)');
      for (const [v, name] of [
        [1, '001_core'],
        [30, '030_compute'],
      ] as const) {
        await store.run(readFileSync(join(MIGRATIONS_DIR, `${name}.sql`), 'utf8'));
        await store.run('INSERT INTO schema_migrations VALUES ($1, $2, now())', [v, name]);
      }
      // approved day 0 with its primary call and docs; a call added on day 10 (the older ingest dated
      // its first interval row then); an operation with no interval row at all
      await addReviewed(store, { id: 'svc_old', monitoring_since: DAY0 }, { docs: true });
      const added = makeOperation({ service_id: 'svc_old', id: 'search', is_primary: false, pass_rule: 'reviewed/1', interval_hours: 1 });
      const bare = makeOperation({ service_id: 'svc_old', id: 'bare', is_primary: false, pass_rule: 'reviewed/1', interval_hours: 1 });
      await insertOperations(store, [added, bare]);
      await insertIntervalChanges(store, [
        makeIntervalChange({ service_id: 'svc_old', operation: 'search', changed_at: DAY10, to_hours: 1, reason: 'reviewed_fixed' }),
      ]);

      await migrate(store, new Date(DAY20));
      const since = await store.all<{ id: string; since: string }>(
        `SELECT id, strftime(monitoring_since, '%Y-%m-%dT%H:%M:%S.%gZ') AS since FROM operations ORDER BY id`,
      );
      expect(since).toEqual([
        { id: 'bare', since: DAY0 },
        { id: 'docs', since: DAY0 },
        { id: 'primary', since: DAY0 },
        { id: 'search', since: DAY10 },
      ]);
      const [e] = await store.all<{ expected: number }>(
        `SELECT expected::INTEGER AS expected FROM atlas_expected_checks($1::TIMESTAMP, $2::TIMESTAMP) WHERE operation = 'search'`,
        [DAY0, DAY20],
      );
      expect(e?.expected).toBe(240);
    } finally {
      store.close();
      t.cleanup();
    }
  });
});
