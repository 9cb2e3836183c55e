import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeWeekFigures } from '../../../pipeline/reports/figures.ts';
import { ARCHIVE_AFTER_DAYS, archiveChecks, refreshCheckDaily, runArchive } from '../../../pipeline/store/history.ts';
import { sqlPath } from '../../../pipeline/store/rules.ts';
import { openStore, type Store } from '../../../pipeline/store/store.ts';
import { openTestStore, tempDir } from '../../helpers/context.ts';
import { addDiscovered, addReviewed, at, insertCheckSeries, insertTerms, makeTerms, T0 } from '../compute/fixtures.ts';
import { computeAt, withDb } from '../compute/helpers.ts';

/** 160 days of history: the archive cut (100 days) falls well inside it. */
const NOW = at(T0, 160);
const count = async (store: Store, sql: string): Promise<number> => Number((await store.all<{ n: number }>(sql))[0]?.n);

/** A reviewed hourly service failing one check in ten, a discovered daily x402 service with changing terms, one MCP server. */
async function seed(store: Store): Promise<void> {
  await addReviewed(store, { id: 'svc_r', monitoring_since: T0 }, { docs: true });
  await insertCheckSeries(store, { serviceId: 'svc_r', from: T0, to: NOW, everyHours: 1, rule: 'reviewed/1', passed: 'hour(t) % 10 <> 3' });
  await insertCheckSeries(store, {
    serviceId: 'svc_r',
    operation: 'docs',
    from: T0,
    to: NOW,
    everyHours: 24,
    rule: 'reviewed/1',
    offsetMinutes: 7,
  });
  await addDiscovered(store, { id: 'cand_x', registry_payers_30d: 50, monitoring_since: T0 });
  await insertCheckSeries(store, { serviceId: 'cand_x', from: T0, to: NOW, everyHours: 24, offsetMinutes: 20, passed: 'day(t) <> 5' });
  await insertTerms(store, [
    makeTerms({ service_id: 'cand_x', observed_at: at(T0, 1) }),
    makeTerms({ service_id: 'cand_x', observed_at: at(T0, 90), pay_to_hashes: ['b'] }),
    makeTerms({ service_id: 'cand_x', observed_at: at(T0, 150), pay_to_hashes: ['c'] }),
  ]);
  await addDiscovered(store, { id: 'cand_m', type: 'mcp_server', protocol: 'mcp', mcp_status: 'active', monitoring_since: T0 });
  await insertCheckSeries(store, { serviceId: 'cand_m', from: T0, to: NOW, everyHours: 24, rule: 'mcp-reach/3', offsetMinutes: 40 });
}

/** Every figure compute publishes, and a weekly report inside the 90 days. */
async function figures(store: Store) {
  return {
    evidence: await store.all('SELECT * EXCLUDE (computed_at) FROM evidence ORDER BY service_id'),
    terms: await store.all('SELECT * EXCLUDE (computed_at) FROM terms_summary ORDER BY service_id'),
    intervals: await store.all('SELECT service_id, id, interval_hours FROM operations ORDER BY ALL'),
    directory: await store.all('SELECT service_id, in_directory, criteria::VARCHAR AS c FROM directory_current ORDER BY service_id'),
    report: await computeWeekFigures(store, new Date('2026-10-19T00:00:00Z'), new Date('2026-10-26T00:00:00Z')),
    // a week older than the cut: its checks are all archived, and the report still counts them
    oldReport: await computeWeekFigures(store, new Date('2026-07-06T00:00:00Z'), new Date('2026-07-13T00:00:00Z')),
  };
}

/** A digest of a check relation: equal digests, equal multisets of rows. */
const digest = (rel: string) =>
  `SELECT count(*)::BIGINT AS n, sum(hash(service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms))::VARCHAR AS h FROM ${rel}`;

describe('bounded history: the check archive', () => {
  it('moves checks older than 100 days to monthly Parquet files; every 30- and 90-day figure is unchanged and checks_all reads them all', async () => {
    await withDb(async (store, dir) => {
      await seed(store);
      await computeAt(store, dir, NOW, { scope: 'full' });
      const before = await figures(store);
      const [all] = await store.all(digest('checks'));
      const cut = at(NOW, -ARCHIVE_AFTER_DAYS);
      const old = await count(store, `SELECT count(*) AS n FROM checks WHERE checked_at < TIMESTAMP '${cut.slice(0, 19)}'`);
      expect(old).toBeGreaterThan(1000);

      const r = await archiveChecks(store, new Date(NOW), 'archive_test_1');
      expect(r.archived_rows).toBe(old);
      // one file per month touched (the cut is 2026-08-30), listed in archive_files, under <data>/archive/checks
      expect(r.files.map((f) => f.month)).toEqual(['2026-07', '2026-08']);
      for (const f of r.files) {
        expect(f.path).toMatch(/^archive\/checks\/month=\d{4}-\d{2}\/archive_test_1_0\.parquet$/);
        expect(existsSync(join(dir, f.path))).toBe(true);
      }
      expect(await count(store, 'SELECT count(*) AS n FROM archive_files')).toBe(2);
      expect(await count(store, `SELECT count(*) AS n FROM checks WHERE checked_at < TIMESTAMP '${cut.slice(0, 19)}'`)).toBe(0);
      // nothing lost, nothing twice
      expect((await store.all(digest('checks_all')))[0]).toEqual(all);
      expect((await store.all(digest('checks')))[0]).not.toEqual(all);

      // recomputed at the same instant over the live table alone: the same figures
      await computeAt(store, dir, NOW, { scope: 'full' });
      expect(await figures(store)).toEqual(before);

      // the same instant again archives nothing; a day later, the next day's checks go to a new file
      expect((await archiveChecks(store, new Date(NOW), 'archive_test_2')).archived_rows).toBe(0);
      const next = await archiveChecks(store, new Date(at(NOW, 1)), 'archive_test_3');
      expect(next.archived_rows).toBe(24 + 1 + 1 + 1);
      expect(next.files.map((f) => f.path)).toEqual(['archive/checks/month=2026-08/archive_test_3_0.parquet']);
      expect((await store.all(digest('checks_all')))[0]).toEqual(all);
    });
  }, 60_000);

  it('a file no committed run listed is never read, and the next run removes it', async () => {
    const t = tempDir('atlas-archive-');
    const db = join(t.dir, 'atlas.duckdb');
    try {
      const store = await openTestStore(t.dir);
      await seed(store);
      const [all] = await store.all(digest('checks'));
      // what a run that crashed before its COMMIT leaves: a file in place, not listed, its rows still live
      const orphan = join(t.dir, 'archive', 'checks', 'month=2026-07');
      mkdirSync(orphan, { recursive: true });
      await store.run(
        `COPY (SELECT * FROM checks WHERE checked_at < TIMESTAMP '2026-08-01') TO ${sqlPath(join(orphan, 'archive_crashed_0.parquet'))} (FORMAT parquet)`,
      );
      store.close();
      const reopened = await openStore(db);
      try {
        expect((await reopened.all(digest('checks_all')))[0]).toEqual(all);
        const r = await archiveChecks(reopened, new Date(NOW), 'archive_test_4');
        expect(r.removed_orphans).toBe(1);
        expect(readdirSync(orphan)).toEqual(['archive_test_4_0.parquet']);
        expect((await reopened.all(digest('checks_all')))[0]).toEqual(all);
      } finally {
        reopened.close();
      }
      // a read-only reader (`atlas sql`, researchers) sees the archived checks too
      const ro = await openStore(db, { readOnly: true });
      try {
        expect((await ro.all(digest('checks_all')))[0]).toEqual(all);
        expect(await count(ro, `SELECT count(*) AS n FROM checks_all WHERE checked_at < TIMESTAMP '2026-08-01'`)).toBe(31 * 27);
        expect(await count(ro, `SELECT count(*) AS n FROM checks WHERE checked_at < TIMESTAMP '2026-08-01'`)).toBe(0);
      } finally {
        ro.close();
      }
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('runs as an `archive` run; with no archive yet checks_all is the live table', async () => {
    await withDb(async (store) => {
      await addDiscovered(store, { id: 'cand_x', monitoring_since: T0 });
      await insertCheckSeries(store, { serviceId: 'cand_x', from: T0, to: at(T0, 10), everyHours: 24 });
      expect(await count(store, 'SELECT count(*) AS n FROM checks_all')).toBe(10);
      const r = await runArchive(store, () => new Date(at(T0, 105)));
      expect(r.archived_rows).toBe(5);
      const [run] = await store.all<{ kind: string; status: string; counts: string }>(`SELECT kind, status, counts FROM runs`);
      expect(run).toMatchObject({ kind: 'archive', status: 'ok' });
      expect(JSON.parse(run!.counts)).toMatchObject({ archived_rows: 5, files: 1 });
      expect(await count(store, 'SELECT count(*) AS n FROM checks_all')).toBe(10);
      expect(await count(store, 'SELECT count(*) AS n FROM checks')).toBe(5);
    });
  }, 60_000);

  it('files archived before checks.protocols existed read it as NULL, beside files that carry it', async () => {
    const t = tempDir();
    try {
      await withDb(async (store) => {
        await addDiscovered(store, { id: 'cand_x', monitoring_since: T0 });
        await insertCheckSeries(store, { serviceId: 'cand_x', from: T0, to: at(T0, 4), everyHours: 24 });
        await store.run("UPDATE checks SET protocols = ['x402-v2', 'mpp']");
        const old = join(t.dir, 'old.parquet');
        const now = join(t.dir, 'new.parquet');
        await store.run(`COPY (SELECT * EXCLUDE (protocols) FROM checks WHERE checked_at < '${at(T0, 2)}') TO ${sqlPath(old)}`);
        await store.run(`COPY (SELECT * FROM checks WHERE checked_at >= '${at(T0, 2)}') TO ${sqlPath(now)}`);
        const read = (files: string[]) =>
          store.all<{ p: string | null }>(
            `SELECT protocols::VARCHAR AS p FROM atlas_archived_checks([${files.map(sqlPath).join(', ')}]) ORDER BY checked_at`,
          );
        expect((await read([old])).map((r) => r.p)).toEqual([null, null]);
        expect((await read([old, now])).map((r) => r.p)).toEqual([null, null, '[x402-v2, mpp]', '[x402-v2, mpp]']);
        // the view's union with the live table lines up column by column
        const cols = await store.all<{ n: number }>(
          `SELECT count(*)::INTEGER AS n FROM (SELECT * FROM checks UNION ALL SELECT * FROM atlas_archived_checks([${sqlPath(old)}]))`,
        );
        expect(cols[0]!.n).toBe(6);
      });
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('files archived before checks.auth_schemes existed (migration 023) read it as NULL, beside files that carry it', async () => {
    const t = tempDir();
    try {
      await withDb(async (store) => {
        await addDiscovered(store, { id: 'cand_m', monitoring_since: T0 });
        await insertCheckSeries(store, { serviceId: 'cand_m', from: T0, to: at(T0, 4), everyHours: 24 });
        await store.run("UPDATE checks SET status = 401, auth_schemes = ['bearer']");
        const old = join(t.dir, 'old.parquet');
        const now = join(t.dir, 'new.parquet');
        await store.run(
          `COPY (SELECT * EXCLUDE (protocols, auth_schemes) FROM checks WHERE checked_at < '${at(T0, 2)}') TO ${sqlPath(old)}`,
        );
        await store.run(`COPY (SELECT * FROM checks WHERE checked_at >= '${at(T0, 2)}') TO ${sqlPath(now)}`);
        const rows = await store.all<{ a: string | null }>(
          `SELECT auth_schemes::VARCHAR AS a FROM atlas_archived_checks([${sqlPath(old)}, ${sqlPath(now)}]) ORDER BY checked_at`,
        );
        expect(rows.map((r) => r.a)).toEqual([null, null, '[bearer]', '[bearer]']);
        const cols = await store.all<{ n: number }>(
          `SELECT count(*)::INTEGER AS n FROM (SELECT * FROM checks UNION ALL SELECT * FROM atlas_archived_checks([${sqlPath(now)}]))`,
        );
        expect(cols[0]!.n).toBe(6); // the live rows and the archived ones line up column by column
      });
    } finally {
      t.cleanup();
    }
  }, 60_000);
});

describe('bounded history: daily check aggregates', () => {
  it('kept up incrementally, equal to a recount over all checks, and kept when raw rows are archived', async () => {
    await withDb(async (store) => {
      await seed(store);
      const recount = `
        SELECT service_id, operation, checked_at::DATE AS day, count(*)::INTEGER AS checks, count(*) FILTER (WHERE passed)::INTEGER AS passed,
          count(latency_ms)::INTEGER AS latency_n, sum(latency_ms)::DOUBLE AS latency_sum_ms,
          quantile_cont(latency_ms, 0.5)::DOUBLE AS latency_p50_ms, quantile_cont(latency_ms, 0.95)::DOUBLE AS latency_p95_ms
        FROM checks_all WHERE checked_at <= $1::TIMESTAMP GROUP BY ALL ORDER BY ALL`;
      const daily = () => store.all('SELECT * FROM check_daily ORDER BY ALL');
      // first run at day 40 (mid-day): every day so far; then every 12 hours up to NOW
      await refreshCheckDaily(store, new Date(at(T0, 40, 13)));
      expect(await daily()).toEqual(await store.all(recount, [at(T0, 40, 13)]));
      let last = at(T0, 40, 13);
      for (let h = 40 * 24 + 13 + 12; h < 160 * 24; h += 12) {
        last = at(T0, 0, h);
        await refreshCheckDaily(store, new Date(last));
      }
      expect(await daily()).toEqual(await store.all(recount, [last]));
      // a refresh rewrites only the last two days (4 operations each)
      expect(await refreshCheckDaily(store, new Date(NOW))).toBe(2 * 4);
      const full = await store.all(recount, [NOW]);
      expect(await daily()).toEqual(full);

      await archiveChecks(store, new Date(NOW), 'archive_daily');
      expect(await daily()).toEqual(full);
      await refreshCheckDaily(store, new Date(at(NOW, 0, 1)));
      expect(await daily()).toEqual(full);
    });
  }, 60_000);
});
