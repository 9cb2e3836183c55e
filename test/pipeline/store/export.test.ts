import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AtlasError } from '../../../pipeline/core/errors.ts';
import { PROJECT_ROOT } from '../../../pipeline/core/paths.ts';
import { EXPORT_TABLES, exportTables, NOT_EXPORTED, sqlPath } from '../../../pipeline/store/export.ts';
import { openStore, type Store, withStore } from '../../../pipeline/store/index.ts';
import { RESEARCH_QUERIES } from '../../../pipeline/verify/index.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { openTestStore, tempDir } from '../../helpers/context.ts';
import { computeAt } from '../compute/helpers.ts';
import { seedChangesAndReports, seedRaw } from '../publish/seed.ts';

const NOW = '2026-11-25T12:00:00.000Z';

// One small real database for the whole file (40 days of checks: two months), exported by the tests
// below into folders of their own. The source is only ever opened read-only after seeding.
let t: { dir: string; cleanup: () => void };
let db: string;

beforeAll(async () => {
  t = tempDir('atlas-export-');
  const store = await openTestStore(t.dir, new Date(NOW));
  try {
    await seedRaw(store, new Date(NOW), 9, 40);
    await seedChangesAndReports(store, new Date(NOW));
    // The seed predates checks.protocols (migration 021): its x402 402s carry the protocol a probe now
    // records, so the research guide's protocol query has rows to read.
    await store.run(`UPDATE checks SET protocols = ['x402-v2'] WHERE status = 402 AND rule LIKE 'x402-mainnet/%'`);
    // Catalog intervals (migration 061): every discovered service listed by one catalog, dropped and relisted.
    await store.run(
      `INSERT INTO catalog_listing_history
       SELECT id, 'x402', 'fleet', TIMESTAMP '2026-11-01', TIMESTAMP '2026-11-10', 'missing_from_sweep' FROM services WHERE tier = 'discovered'
       UNION ALL SELECT id, 'x402', 'fleet', TIMESTAMP '2026-11-12', NULL, NULL FROM services WHERE tier = 'discovered'`,
    );
    // One signed offer whose terms differ (docs/notes/signed-offers.md), so query signed_offers has a row.
    await store.run(
      `INSERT INTO offer_signatures SELECT service_id, operation, slot, observed_at, 0, 'eip712', 'valid', NULL, 'authorised', NULL, NULL, 0, true, ['amount']
       FROM payment_terms WHERE operation = 'primary' ORDER BY service_id, slot LIMIT 1`,
    );
    await computeAt(store, t.dir, NOW);
    await store.run(
      `INSERT INTO keys VALUES ('key_1', 'sha256:secret-hash', 'lab', 'me@example.org', $1::TIMESTAMP, 'addr-hash');
       INSERT INTO feedback VALUES ('fb_1', 'missing_service', 'please add X', 'x402', 'me@example.org', $1::TIMESTAMP, 'addr-hash');
       INSERT INTO outcomes VALUES ('out_1', 'key_1', 'idem-1', 'svc_r0000000', NULL, 'success', NULL, 'primary', NULL, $1::TIMESTAMP, $1::TIMESTAMP, 'pending', '{"format":"jws","signature":"a.b.c"}')`.replace(
        /\$1::TIMESTAMP/g,
        "TIMESTAMP '2026-11-24 10:00:00'",
      ),
    );
  } finally {
    store.close();
  }
  db = join(t.dir, 'atlas.duckdb');
}, 60_000);

afterAll(() => t?.cleanup());

/** A fresh in-memory DuckDB (no Atlas tables, no rules) to read an export with. */
async function withReader<T>(fn: (r: Store) => Promise<T>): Promise<T> {
  return withStore(':memory:', fn);
}

/** The ```sql blocks of docs/research-guide.md, its example folder replaced by `out`. */
function guideBlocks(out: string): string[] {
  const md = readFileSync(join(PROJECT_ROOT, 'docs', 'research-guide.md'), 'utf8');
  return [...md.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.replaceAll("'/tmp/atlas-export/", sqlPath(`${out}/`).slice(0, -1)));
}

/** Every statement of a block; the rows of the last. */
async function runBlock(s: Store, block: string): Promise<Record<string, unknown>[]> {
  const statements = block
    .split(/;\s*\n/)
    .map((x) => x.trim())
    .filter(Boolean);
  for (const st of statements.slice(0, -1)) await s.run(st);
  return s.all(statements.at(-1)!);
}

const count = async (s: Store, sql: string): Promise<number> => Number((await s.all<{ n: number }>(sql))[0]?.n);

describe('atlas export (research export)', () => {
  it('names every table of the database, exported or deliberately left out', async () => {
    const tables = await withStore(
      db,
      (s) => s.all<{ t: string }>("SELECT table_name AS t FROM duckdb_tables() WHERE schema_name = 'main'"),
      {
        readOnly: true,
      },
    );
    const named = [...EXPORT_TABLES.map((e) => e.table), ...Object.keys(NOT_EXPORTED)].sort();
    expect(tables.map((r) => r.t).sort()).toEqual(named);
  });

  it('writes checks by month and every other table as one file; row counts and a figure read back equal', async () => {
    const out = join(t.dir, 'exp-1');
    const result = await withStore(db, (s) => exportTables(s, out, { tmpTag: 'a' }), { readOnly: true });
    expect(result.dir).toBe(out);

    // Month partitions (40 days back from 25 November: October and November).
    expect(readdirSync(join(out, 'checks')).sort()).toEqual(['month=2026-10', 'month=2026-11']);
    // No key hashes, no keys table, nothing left beside the export.
    expect(existsSync(join(out, 'keys.parquet'))).toBe(false);
    expect(result.files.some((f) => f.table === 'keys')).toBe(false);
    expect(readdirSync(t.dir).filter((n) => n.startsWith('exp-1.'))).toEqual([]);
    expect(existsSync(join(out, 'rules.sql'))).toBe(true);

    const source = await withStore(
      db,
      async (s) => {
        const counts: Record<string, number> = {};
        for (const e of EXPORT_TABLES) counts[e.table] = await count(s, `SELECT count(*)::INTEGER AS n FROM ${e.table}`);
        const evidence = await s.all<{ service_id: string; checks_30d: number; passed_30d: number }>(
          'SELECT service_id, checks_30d, passed_30d FROM evidence ORDER BY service_id',
        );
        return { counts, evidence };
      },
      { readOnly: true },
    );
    expect(source.counts.checks).toBeGreaterThan(1000);
    expect(source.evidence.length).toBe(9);

    await withReader(async (r) => {
      const checksGlob = sqlPath(join(out, 'checks', '**', '*.parquet'));
      expect(await count(r, `SELECT count(*)::INTEGER AS n FROM read_parquet(${checksGlob}, hive_partitioning = true)`)).toBe(
        source.counts.checks,
      );
      // Each row sits in the partition of its own checked_at month.
      expect(
        await count(
          r,
          `SELECT count(*)::INTEGER AS n FROM read_parquet(${checksGlob}, hive_partitioning = true) WHERE month <> strftime(checked_at, '%Y-%m')`,
        ),
      ).toBe(0);
      for (const e of EXPORT_TABLES.filter((x) => !x.monthOf)) {
        const n = await count(r, `SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlPath(join(out, `${e.table}.parquet`))})`);
        expect(n, e.table).toBe(source.counts[e.table]);
        expect(result.files.find((f) => f.path === `${e.table}.parquet`)?.rows, e.table).toBe(n);
      }
      expect(result.files.filter((f) => f.table === 'checks').reduce((a, f) => a + f.rows, 0)).toBe(source.counts.checks);

      // Contact and key columns are gone; the rest of the row is there.
      const fb = await r.all(`SELECT * FROM read_parquet(${sqlPath(join(out, 'feedback.parquet'))})`);
      expect(fb).toEqual([
        { id: 'fb_1', kind: 'missing_service', note: 'please add X', about: 'x402', received_at: '2026-11-24 10:00:00' },
      ]);
      const oc = await r.all<Record<string, unknown>>(`SELECT * FROM read_parquet(${sqlPath(join(out, 'outcomes.parquet'))})`);
      expect(Object.keys(oc[0] ?? {})).not.toContain('key_id');
      expect(Object.keys(oc[0] ?? {})).not.toContain('idempotency_key');
      expect(Object.keys(oc[0] ?? {})).not.toContain('receipt');
      expect(oc[0]?.outcome).toBe('success');

      // A published figure reproduced from the files alone, the way docs/research-guide.md says:
      // its views over the files, the rules file, then its queries (every ```sql block, in order).
      const [views, ...queries] = guideBlocks(out);
      await r.run(views!);
      await r.run(readFileSync(join(out, 'rules.sql'), 'utf8'));
      expect(queries).toHaveLength(5);
      const [compare, ...examples] = queries;
      expect(await runBlock(r, compare!)).toEqual([]);
      for (const q of examples) expect((await runBlock(r, q)).length, q).toBeGreaterThan(0);
      await r.run(`SET VARIABLE atlas_now = TIMESTAMP '2026-11-25 12:00:00'`);
      const live = await r.all('SELECT service_id, checks_30d, passed_30d FROM evidence_30d ORDER BY service_id');
      expect(live).toEqual(source.evidence);
      // And every query of docs/research.md runs over the files unchanged.
      await r.run(`SET VARIABLE atlas_report_from = TIMESTAMP '2026-11-16 00:00:00'`);
      await r.run(`SET VARIABLE atlas_report_until = TIMESTAMP '2026-11-23 00:00:00'`);
      for (const q of RESEARCH_QUERIES) expect((await r.all(q.sql)).length, q.id).toBeGreaterThan(0);
    });
  }, 60_000);

  it('refuses a non-empty folder without --force; --force replaces it whole', async () => {
    const out = join(t.dir, 'exp-2');
    mkdirSync(out);
    writeFileSync(join(out, 'stale.txt'), 'old');
    const refused = await withStore(db, (s) => exportTables(s, out).catch((e: unknown) => e), { readOnly: true });
    expect(refused).toBeInstanceOf(AtlasError);
    expect((refused as AtlasError).code).toBe('bad_usage');
    expect(readdirSync(out)).toEqual(['stale.txt']);

    await withStore(db, (s) => exportTables(s, out, { force: true, tmpTag: 'b' }), { readOnly: true });
    expect(existsSync(join(out, 'stale.txt'))).toBe(false);
    expect(existsSync(join(out, 'services.parquet'))).toBe(true);
    expect(readdirSync(t.dir).filter((n) => n.startsWith('exp-2.'))).toEqual([]);
  });

  it('the CLI exits 2 on a non-empty --out, exports beside a read-only reader, and prints files, rows and bytes', async () => {
    const out = join(t.dir, "exp '3");
    mkdirSync(out);
    writeFileSync(join(out, 'stale.txt'), 'old');
    const refused = await runCli(['--data', t.dir, 'export', '--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not empty.*--force/);

    // Another read-only opener holds the file meanwhile (as `atlas sql` or a researcher would).
    const reader = await openStore(db, { readOnly: true });
    try {
      const r = await runCliInProcess(['--data', t.dir, 'export', '--out', out, '--force']);
      expect(r.stderr).not.toMatch(/^atlas:/m);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^checks\/month=2026-11\/\S+\.parquet\t\d+ rows\t\d+ bytes$/m);
      expect(r.stdout).toMatch(/^services\.parquet\t9 rows\t\d+ bytes$/m);
      expect(r.stdout).toMatch(/^\d+ files, \d+ rows, \d+ bytes in /m);
      expect(r.stdout).not.toMatch(/keys/);
    } finally {
      reader.close();
    }
    expect(existsSync(join(out, 'stale.txt'))).toBe(false);
  }, 60_000);
});
