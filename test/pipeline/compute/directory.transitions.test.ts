import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TARGETS } from '../../../pipeline/compute/directory.ts';
import { migrate, MIGRATIONS_DIR } from '../../../pipeline/store/migrate.ts';
import { openStore, type Store } from '../../../pipeline/store/store.ts';
import { tempDir } from '../../helpers/context.ts';
import { addDiscovered, addReviewed, at, insertCheckSeries, insertChecks, insertTerms, makeCheck, makeTerms, T0 } from './fixtures.ts';
import { computeAt, withDb } from './helpers.ts';

/**
 * `directory` stores transitions (migration 004) instead of one row per service per evaluation. The
 * published directory figures must not change: the service pages publish directory_current
 * (evaluated_at, in_directory, rule, criteria), the weekly report counts membership as of its end
 * (atlas_directory_as_of). The oracle below is the per-evaluation table as it was before the change,
 * kept beside the real one at every evaluation and read with the old queries.
 */
const ORACLE_TABLE = `CREATE TABLE oracle_directory (evaluated_at TIMESTAMP, service_id VARCHAR, in_directory BOOLEAN, rule VARCHAR, scope VARCHAR, criteria JSON)`;
const ORACLE_CURRENT = `
  SELECT service_id, evaluated_at, in_directory, rule, scope, criteria FROM oracle_directory
  WHERE evaluated_at >= (SELECT coalesce(max(evaluated_at), TIMESTAMP '1970-01-01') FROM oracle_directory WHERE scope = 'full')
  QUALIFY row_number() OVER (PARTITION BY service_id ORDER BY evaluated_at DESC) = 1`;
/** The old append: every targeted service gets a row (the targets rule of compute, over the old history as last_eval). */
const ORACLE_APPEND = (scope: 'full' | 'changed') => `
  INSERT INTO oracle_directory
  WITH last_eval AS (SELECT service_id, evaluated_at FROM (${ORACLE_CURRENT})),
  targets AS (${TARGETS(scope)})
  SELECT $1::TIMESTAMP, l.service_id, l.in_directory, l.rule, '${scope}', l.criteria
  FROM listing_criteria l SEMI JOIN targets g ON g.service_id = l.service_id`;

async function oracleEvaluate(store: Store, iso: string, scope: 'full' | 'changed') {
  await store.run('CREATE OR REPLACE TEMP VIEW evidence_30d AS SELECT * FROM main.evidence');
  await store.run('CREATE OR REPLACE TEMP VIEW terms_90d AS SELECT * FROM main.terms_summary');
  await store.run(ORACLE_APPEND(scope), [iso]);
  await store.run('DROP VIEW temp.evidence_30d');
  await store.run('DROP VIEW temp.terms_90d');
}

const CURRENT_COLS = `service_id, strftime(evaluated_at, '%Y-%m-%dT%H:%M:%S') AS evaluated_at, in_directory, rule, scope, criteria::VARCHAR AS criteria`;
const published = (store: Store) => store.all(`SELECT ${CURRENT_COLS} FROM directory_current ORDER BY service_id`);
const oraclePublished = (store: Store) => store.all(`SELECT ${CURRENT_COLS} FROM (${ORACLE_CURRENT}) ORDER BY service_id`);
const asOf = (store: Store, iso: string) =>
  store.all(`SELECT service_id, in_directory FROM atlas_directory_as_of($1::TIMESTAMP) ORDER BY service_id`, [iso]);
const oracleAsOf = (store: Store, iso: string) =>
  store.all(
    `SELECT service_id, arg_max(in_directory, evaluated_at) AS in_directory FROM oracle_directory WHERE evaluated_at < $1::TIMESTAMP
     GROUP BY service_id ORDER BY service_id`,
    [iso],
  );

describe('directory membership as transitions', () => {
  it('publishes the same directory figures as one row per evaluation, with far fewer rows', async () => {
    await withDb(async (store, dir) => {
      await store.run(ORACLE_TABLE);
      // steady members, one that goes stale, one that starts failing, one unlisted later, one added later
      for (const id of ['cand_a', 'cand_b', 'cand_stale', 'cand_fail', 'cand_unlisted']) {
        await addDiscovered(store, { id, registry_payers_30d: 50, monitoring_since: T0 });
        await insertTerms(store, [makeTerms({ service_id: id, observed_at: at(T0, 1) })]);
      }
      await addReviewed(store, { id: 'svc_r', monitoring_since: T0 });
      const until = at(T0, 40);
      for (const id of ['cand_a', 'cand_b', 'cand_unlisted'])
        await insertCheckSeries(store, { serviceId: id, from: T0, to: until, everyHours: 24, offsetMinutes: 30 });
      await insertCheckSeries(store, { serviceId: 'cand_stale', from: T0, to: at(T0, 33), everyHours: 24, offsetMinutes: 30 });
      await insertCheckSeries(store, {
        serviceId: 'cand_fail',
        from: T0,
        to: until,
        everyHours: 24,
        passed: `t < TIMESTAMP '2026-07-29'`,
        offsetMinutes: 30,
      });
      await insertCheckSeries(store, { serviceId: 'svc_r', from: T0, to: until, everyHours: 1, rule: 'reviewed/1' });

      const instants: string[] = [];
      let n = 0;
      for (let day = 31; day < 37; day++) {
        for (const [hours, scope] of [
          [0, 'full'],
          [0.25, 'changed'],
          [12, 'full'],
          [12.5, 'changed'],
        ] as const) {
          const iso = at(T0, day, hours);
          if (day === 33 && hours === 12)
            await store.run(`UPDATE services SET listed = false, updated_at = $1::TIMESTAMP WHERE id = 'cand_unlisted'`, [at(T0, 33, 11)]);
          if (day === 35 && hours === 0.25) {
            await addDiscovered(store, { id: 'cand_late', registry_payers_30d: 50, monitoring_since: at(T0, 35, 0.1) });
            await insertChecks(store, [makeCheck({ service_id: 'cand_late', checked_at: at(T0, 35, 0.2) })]);
          }
          await computeAt(store, dir, iso, { scope });
          await oracleEvaluate(store, iso, scope);
          instants.push(iso);
          expect(await published(store), `${iso} ${scope}`).toEqual(await oraclePublished(store));
          n++;
        }
      }
      // membership as of any instant (the weekly report's directory.size), between and at evaluations
      for (const iso of [...instants, ...instants.map((t) => at(t, 0, 0.1)), at(T0, 30)]) {
        expect(await asOf(store, iso), iso).toEqual(await oracleAsOf(store, iso));
      }
      const [rows] = await store.all<{ t: number; o: number; e: number }>(
        `SELECT (SELECT count(*) FROM directory)::INTEGER AS t, (SELECT count(*) FROM oracle_directory)::INTEGER AS o,
                (SELECT count(*) FROM directory_evaluations)::INTEGER AS e`,
      );
      expect(rows!.e).toBe(n);
      expect(rows!.t).toBeLessThan(rows!.o / 2);
      // the states actually changed along the way (the comparison above is not vacuous)
      const flips = await store.all<{ service_id: string; n: number }>(
        `SELECT service_id, count(DISTINCT in_directory)::INTEGER AS n FROM directory GROUP BY 1 HAVING n > 1 ORDER BY 1`,
      );
      expect(flips.map((r) => r.service_id)).toEqual(['cand_fail', 'cand_stale', 'cand_unlisted']);
    });
  }, 180_000);

  it('migration 004 turns per-evaluation rows into transitions without losing a state', async () => {
    const t = tempDir('atlas-dir-migrate-');
    const store = await openStore(join(t.dir, 'atlas.duckdb'));
    try {
      // a database as it was before 004: the earlier migrations only
      await store.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)');
      for (const f of ['001_core', '002_operation_monitoring_since', '003_operation_declared_interval', '030_compute']) {
        await store.run(readFileSync(join(MIGRATIONS_DIR, `${f}.sql`), 'utf8'));
        await store.run(`INSERT INTO schema_migrations VALUES (${Number(f.slice(0, 3))}, '${f}', TIMESTAMP '2026-07-01')`);
      }
      const crit = (v: number, ok = true) => `'[{"id":"checks_30d","passed":${ok},"value":${v}}]'`;
      // svc_a: A A B B A (back to an earlier state: a new run), svc_b: equal throughout, svc_c: changed-scope rows
      const rows = [
        ['2026-08-01 00:00:00', 'svc_a', true, 'full', crit(5)],
        ['2026-08-01 01:00:00', 'svc_a', true, 'full', crit(5)],
        ['2026-08-01 02:00:00', 'svc_a', false, 'full', crit(2, false)],
        ['2026-08-01 03:00:00', 'svc_a', false, 'full', crit(2, false)],
        ['2026-08-01 04:00:00', 'svc_a', true, 'full', crit(5)],
        ['2026-08-01 00:00:00', 'svc_b', true, 'full', crit(9)],
        ['2026-08-01 01:00:00', 'svc_b', true, 'full', crit(9)],
        ['2026-08-01 02:00:00', 'svc_b', true, 'full', crit(9)],
        ['2026-08-01 03:00:00', 'svc_b', true, 'full', crit(9)],
        ['2026-08-01 04:00:00', 'svc_b', true, 'full', crit(9)],
        ['2026-08-01 01:05:00', 'svc_c', false, 'changed', crit(1, false)],
        ['2026-08-01 02:00:00', 'svc_c', false, 'full', crit(1, false)],
        ['2026-08-01 02:05:00', 'svc_c', true, 'changed', crit(3)],
        ['2026-08-01 03:00:00', 'svc_c', true, 'full', crit(3)],
        ['2026-08-01 04:00:00', 'svc_c', true, 'full', crit(3)],
        ['2026-08-01 04:05:00', 'svc_c', true, 'changed', crit(3)],
      ];
      for (const [ts, id, inDir, scope, c] of rows)
        await store.run(`INSERT INTO directory VALUES (TIMESTAMP '${ts}', '${id}', ${inDir}, 'listing-criteria/1', '${scope}', ${c})`);
      await store.run('CREATE TABLE oracle_directory AS SELECT * FROM directory');
      const before = await oraclePublished(store);

      // migrations numbered after 004 that the list above leaves out (005 and later) apply too; 004 is the one under test
      expect((await migrate(store, new Date('2026-08-02T00:00:00Z'))).filter((m) => m < '005')).toEqual(['004_bounded_history']);
      expect(await published(store)).toEqual(before);
      for (const [ts] of rows) {
        const iso = `${String(ts).replace(' ', 'T')}Z`;
        for (const t of [iso, at(iso, 0, 0.01)]) expect(await asOf(store, t), t).toEqual(await oracleAsOf(store, t));
      }
      const transitions = await store.all(
        `SELECT service_id, strftime(since, '%H:%M') AS since, strftime(evaluated_at, '%H:%M') AS last, in_directory, scope
         FROM directory ORDER BY service_id, since`,
      );
      expect(transitions).toEqual([
        { service_id: 'svc_a', since: '00:00', last: '01:00', in_directory: true, scope: 'full' },
        { service_id: 'svc_a', since: '02:00', last: '03:00', in_directory: false, scope: 'full' },
        { service_id: 'svc_a', since: '04:00', last: '04:00', in_directory: true, scope: 'full' },
        { service_id: 'svc_b', since: '00:00', last: '04:00', in_directory: true, scope: 'full' },
        { service_id: 'svc_c', since: '01:05', last: '02:00', in_directory: false, scope: 'full' },
        { service_id: 'svc_c', since: '02:05', last: '04:05', in_directory: true, scope: 'changed' },
      ]);
      const evals = await store.all(
        `SELECT strftime(evaluated_at, '%H:%M') AS at, scope, evaluated, in_directory, transitions FROM directory_evaluations ORDER BY evaluated_at`,
      );
      expect(evals).toEqual([
        { at: '00:00', scope: 'full', evaluated: 2, in_directory: 2, transitions: 2 },
        { at: '01:00', scope: 'full', evaluated: 2, in_directory: 2, transitions: 0 },
        { at: '01:05', scope: 'changed', evaluated: 1, in_directory: 0, transitions: 1 },
        { at: '02:00', scope: 'full', evaluated: 3, in_directory: 1, transitions: 1 },
        { at: '02:05', scope: 'changed', evaluated: 1, in_directory: 1, transitions: 1 },
        { at: '03:00', scope: 'full', evaluated: 3, in_directory: 2, transitions: 0 },
        { at: '04:00', scope: 'full', evaluated: 3, in_directory: 3, transitions: 1 },
        { at: '04:05', scope: 'changed', evaluated: 1, in_directory: 1, transitions: 0 },
      ]);
    } finally {
      store.close();
      t.cleanup();
    }
  });
});
