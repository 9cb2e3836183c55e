import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import { freezeDueReports } from '../../../pipeline/reports/index.ts';
import { withStore } from '../../../pipeline/store/index.ts';
import { RESEARCH_QUERIES } from '../../../pipeline/verify/index.ts';
import { RESEARCH_DOC_PATH, researchDoc } from '../../../pipeline/verify/research-doc.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { seedRaw } from '../publish/seed.ts';

const NOW = '2026-11-25T12:00:00Z';

/** The ```sql blocks of a markdown text, trailing semicolon removed. */
const sqlBlocks = (md: string): string[] => [...md.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim().replace(/;$/, ''));

describe('docs/research.md', () => {
  it('is generated from the queries verify runs (npx tsx pipeline/verify/research-doc.ts rewrites it)', () => {
    expect(readFileSync(RESEARCH_DOC_PATH, 'utf8')).toBe(researchDoc());
  });

  it('every query in it runs read-only and reproduces what compute and the frozen report hold', async () => {
    const { dir, cleanup } = tempDir('atlas-research-');
    try {
      const ctx = makeContext(dir, { now: NOW });
      const store = await openTestStore(dir, new Date(NOW));
      try {
        await seedRaw(store, new Date(NOW), 24, 16);
        // Catalog intervals (migration 061): the discovered services listed by one catalog, the first dropped.
        await store.run(
          `INSERT INTO catalog_listing_history
           SELECT id, 'x402', 'fleet', TIMESTAMP '2026-11-01', CASE WHEN row_number() OVER (ORDER BY id) = 1 THEN TIMESTAMP '2026-11-20' END,
             CASE WHEN row_number() OVER (ORDER BY id) = 1 THEN 'missing_from_sweep' END
           FROM services WHERE tier = 'discovered'`,
        );
        await computeAll(ctx, store, { scope: 'full' });
        await freezeDueReports(ctx, store);
      } finally {
        store.close();
      }

      const blocks = sqlBlocks(readFileSync(RESEARCH_DOC_PATH, 'utf8'));
      const [instant, reportWindow, activity, asOf, ...queries] = blocks;
      expect(queries).toEqual(RESEARCH_QUERIES.map((q) => q.sql));

      await withStore(
        ctx.paths.db,
        async (s) => {
          // The generation's compute instant (the example's generated_at is this world's publish time).
          expect(await s.all(instant!)).toEqual([{ computed_at: '2026-11-25T12:00:00.000Z' }]);
          await s.run(`SET VARIABLE atlas_now = TIMESTAMP '2026-11-25 12:00:00'`);
          // the state at an instant: one row per operation monitored by then
          const states = await s.all<{ in_force: boolean }>(activity!);
          const [ops] = await s.all<{ n: number }>(
            `SELECT count(*)::INTEGER AS n FROM operations o JOIN services v ON v.id = o.service_id
             WHERE greatest(v.monitoring_since, coalesce(o.monitoring_since, v.monitoring_since)) <= TIMESTAMP '2026-11-20 12:00:00'`,
          );
          expect(states.length).toBe(Number(ops?.n));
          expect(states.length).toBeGreaterThan(0);
          await s.run(asOf!.replaceAll('"atlas-snapshot"', '"atlas"'));

          const [evidenceSql, termsSql, directorySql, reportSql, declaredSql, catalogSql, , signedSql] = queries;
          const evidence = await s.all<Record<string, unknown>>(evidenceSql!);
          const stored = await s.all<Record<string, unknown>>(
            `SELECT service_id, checks_30d, passed_30d, missed_30d, pass_rate, freshness, check_interval_hours FROM evidence ORDER BY service_id`,
          );
          expect(evidence).toHaveLength(24);
          expect(
            evidence.map(({ service_id, checks_30d, passed_30d, missed_30d, pass_rate, freshness, check_interval_hours }) => ({
              service_id,
              checks_30d,
              passed_30d,
              missed_30d,
              pass_rate,
              freshness,
              check_interval_hours,
            })),
          ).toEqual(stored);

          const terms = await s.all<Record<string, unknown>>(termsSql!);
          const storedTerms = await s.all(`SELECT service_id, changes_30d, changes_90d, limited FROM terms_summary ORDER BY service_id`);
          expect(terms.length).toBeGreaterThan(0);
          expect(
            terms.map(({ service_id, changes_30d, changes_90d, limited }) => ({ service_id, changes_30d, changes_90d, limited })),
          ).toEqual(storedTerms);

          const directory = await s.all<{ service_id: string; in_directory: boolean }>(directorySql!);
          const storedDir = await s.all(`SELECT service_id, in_directory FROM directory_current ORDER BY service_id`);
          expect(directory.map(({ service_id, in_directory }) => ({ service_id, in_directory }))).toEqual(storedDir);

          // declared against observed terms (declared-terms/1): the query reproduces compute's declared_state
          const declared = await s.all<Record<string, unknown>>(declaredSql!);
          const storedDeclared = await s.all(
            `SELECT service_id, differs, dimensions, atlas_iso(since) AS since, sources_compared FROM declared_state ORDER BY service_id`,
          );
          expect(declared.length).toBeGreaterThan(0);
          expect(declared).toEqual(storedDeclared);
          expect(declared.some((r) => r.differs === true)).toBe(true);
          // Signed offers (none in this world: the query runs and agrees with compute's table).
          const signed = await s.all<{ service_id: string; signed: number }>(signedSql!);
          const storedSigned = await s.all(`SELECT service_id, signed FROM signed_offers_summary ORDER BY service_id`);
          expect(signed.map(({ service_id, signed }) => ({ service_id, signed }))).toEqual(storedSigned);

          await s.run(reportWindow!);
          const figures = new Map((await s.all<{ figure: string; value: number }>(reportSql!)).map((r) => [r.figure, r.value]));
          const [frozen] = await s.all<{ body: string }>(`SELECT body::VARCHAR AS body FROM reports WHERE week = DATE '2026-11-16'`);
          const body = JSON.parse(frozen!.body) as { services: { tracked: number }; checks: { total: { ran: number; missed: number } } };
          expect(body.checks.total.ran).toBeGreaterThan(0);
          expect(figures.get('checks.total.ran')).toBe(body.checks.total.ran);
          expect(figures.get('checks.total.missed')).toBe(body.checks.total.missed);
          expect(figures.get('services.tracked')).toBe(body.services.tracked);

          await s.run(`SET VARIABLE atlas_now = TIMESTAMP '2026-11-25 12:00:00'`);
          const standing = await s.all(catalogSql!);
          const storedStanding = await s.all(
            `SELECT service_id, listed_by, dropped_by, latest_passed, listed_but_failing, passing_but_unlisted
             FROM service_catalog_standing ORDER BY service_id`,
          );
          expect(standing.length).toBeGreaterThan(1);
          expect(standing).toEqual(storedStanding);
        },
        { readOnly: true },
      );
    } finally {
      cleanup();
    }
  }, 120_000);
});
