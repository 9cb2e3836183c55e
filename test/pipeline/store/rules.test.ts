import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import { fixedClock } from '../../../pipeline/core/clock.ts';
import { migrate, MIGRATIONS_DIR, openStore, RULES_FILE, type Store } from '../../../pipeline/store/index.ts';
import { makeContext, tempDir } from '../../helpers/context.ts';
import { addDiscovered, insertCheckSeries } from '../compute/fixtures.ts';

/** The rules file (pipeline/store/rules.sql): re-created on every open, never a migration. */
async function withFile<T>(fn: (path: string) => Promise<T>): Promise<T> {
  const t = tempDir('atlas-rules-');
  try {
    return await fn(join(t.dir, 'atlas.duckdb'));
  } finally {
    t.cleanup();
  }
}

async function using<T>(store: Store, fn: (s: Store) => Promise<T>): Promise<T> {
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

const kindOf = async (s: Store, rule: string) => (await s.all<{ k: string }>('SELECT atlas_check_kind($1) AS k', [rule]))[0]?.k;
const evidenceColumns = async (s: Store) =>
  (await s.all<{ column_name: string }>("SELECT column_name FROM information_schema.columns WHERE table_name = 'evidence_30d'")).length;

describe('rules file', () => {
  it('is applied by migrate on a new database, and migrations hold tables only', async () => {
    await withFile(async (path) => {
      await using(await openStore(path), async (s) => {
        await migrate(s, new Date('2026-11-25T00:00:00Z'));
        expect(await kindOf(s, 'x402-mainnet/1')).toBe('x402');
        expect(await evidenceColumns(s)).toBeGreaterThan(10);
      });
    });
    for (const f of readdirSync(MIGRATIONS_DIR).filter((x) => x.endsWith('.sql'))) {
      expect(readFileSync(join(MIGRATIONS_DIR, f), 'utf8'), f).not.toMatch(/CREATE\s+(OR\s+REPLACE\s+)?(TEMP\s+)?(MACRO|VIEW|FUNCTION)/i);
    }
    expect(readFileSync(RULES_FILE, 'utf8')).not.toMatch(/CREATE\s+(OR\s+REPLACE\s+)?TABLE/i);
  });

  it('replaces old definitions whenever the database is opened read-write', async () => {
    await withFile(async (path) => {
      await using(await openStore(path), async (s) => {
        await migrate(s, new Date('2026-11-25T00:00:00Z'));
        // what an older version of the code left behind
        await s.run("CREATE OR REPLACE MACRO atlas_check_kind(r) AS 'stale'; CREATE OR REPLACE VIEW evidence_30d AS SELECT 1 AS x");
        expect(await kindOf(s, 'mcp-reach/3')).toBe('stale');
      });
      await using(await openStore(path), async (s) => {
        expect(await kindOf(s, 'mcp-reach/3')).toBe('mcp');
        expect(await evidenceColumns(s)).toBeGreaterThan(10);
      });
    });
  });

  it('a read-only open sees the rules of its own code (TEMP definitions over stale persisted ones)', async () => {
    await withFile(async (path) => {
      await using(await openStore(path), async (s) => {
        await migrate(s, new Date('2026-11-25T00:00:00Z'));
        await s.run("CREATE OR REPLACE MACRO atlas_check_kind(r) AS 'stale'");
      });
      await using(await openStore(path, { readOnly: true }), async (s) => {
        expect(await kindOf(s, 'reviewed/1')).toBe('reviewed');
        await s.run("SET VARIABLE atlas_now = TIMESTAMP '2026-11-25 00:00:00'");
        expect(await evidenceColumns(s)).toBeGreaterThan(10);
        const rows = await s.all('SELECT * FROM evidence_30d');
        expect(rows).toEqual([]);
      });
    });
  });

  it('opening a database that is not migrated yet does not fail (migrate applies the rules after)', async () => {
    await withFile(async (path) => {
      await using(await openStore(path), async (s) => {
        expect(await s.all("SELECT * FROM duckdb_functions() WHERE function_name = 'atlas_check_kind'")).toEqual([]);
        await migrate(s, new Date('2026-11-25T00:00:00Z'));
        expect(await kindOf(s, 'reviewed/2')).toBe('reviewed');
      });
    });
  });

  it('a database created before the rules file (views and macros in migration 030) computes the same figures', async () => {
    const t = tempDir('atlas-rules-old-');
    try {
      const seed = async (s: Store) => {
        await addDiscovered(s, { id: 'cand_a', monitoring_since: '2026-10-20T00:00:00.000Z' });
        await insertCheckSeries(s, {
          serviceId: 'cand_a',
          from: '2026-10-20T00:00:00Z',
          to: '2026-11-24T00:00:00Z',
          everyHours: 24,
          passed: 'day(t) <> 3',
        });
      };
      const figures = async (s: Store) => {
        await computeAll(makeContext(t.dir, { clock: fixedClock(new Date('2026-11-25T12:00:00Z')) }), s);
        return s.all('SELECT * EXCLUDE (computed_at) FROM evidence ORDER BY service_id');
      };
      const viewSql = async (s: Store) =>
        (await s.all<{ sql: string }>("SELECT sql FROM duckdb_views() WHERE view_name = 'evidence_30d' AND NOT temporary"))[0]?.sql ?? '';

      // Created by the old code: migrations 001 and the 030 that still held the views and macros,
      // applied as they were (no rules file).
      const oldPath = join(t.dir, 'old.duckdb');
      await using(await openStore(oldPath), async (s) => {
        await s.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)');
        await s.run(readFileSync(join(MIGRATIONS_DIR, '001_core.sql'), 'utf8'));
        await s.run(readFileSync(join(import.meta.dirname, 'fixtures', '030_compute_before_rules.sql'), 'utf8'));
        await s.run("INSERT INTO schema_migrations VALUES (1, '001_core', now()), (30, '030_compute', now())");
        expect(await viewSql(s)).not.toContain('atlas_freshness');
        await seed(s);
      });

      const expected = await using(await openStore(join(t.dir, 'new.duckdb')), async (s) => {
        await migrate(s, new Date('2026-10-01T00:00:00Z'));
        await seed(s);
        return figures(s);
      });
      expect(expected).toHaveLength(1);
      // the next migrate by this code (every command migrates first) applies the migrations newer than
      // the database and replaces the old definitions, and compute gives the same figures
      await using(await openStore(oldPath), async (s) => {
        await migrate(s, new Date('2026-11-25T12:00:00Z'));
        expect(await viewSql(s)).toContain('atlas_freshness');
        expect(await figures(s)).toEqual(expected);
      });
    } finally {
      t.cleanup();
    }
  });
});

describe('the views carry comments for researchers (COMMENT ON, end of rules.sql)', () => {
  const views = (s: Store, temporary: boolean) =>
    s.all<{ name: string; comment: string | null }>(
      'SELECT view_name AS name, comment FROM duckdb_views() WHERE NOT internal AND temporary = $1 ORDER BY view_name',
      [temporary],
    );

  it('every view of the rules has a comment, on a read-write open and (as the TEMP views that shadow them) on a read-only one', async () => {
    await withFile(async (path) => {
      const written = await using(await openStore(path), async (s) => {
        await migrate(s, new Date('2026-11-25T00:00:00Z'));
        return views(s, false);
      });
      const declared = [...readFileSync(RULES_FILE, 'utf8').matchAll(/CREATE OR REPLACE VIEW (\w+)/g)].map((m) => m[1]!).sort();
      expect(written.map((v) => v.name)).toEqual(declared);
      expect(declared).toContain('checks_all');
      for (const v of written) expect(v.comment, v.name).toMatch(/^\S.{30,}/);
      const readOnly = await using(await openStore(path, { readOnly: true }), (s) => views(s, true));
      expect(readOnly.map((v) => v.name)).toEqual(declared);
      for (const v of readOnly) expect(v.comment, v.name).toMatch(/^\S.{30,}/);
    });
  }, 30_000);
});
