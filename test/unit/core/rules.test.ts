import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS_DIR, openStore, RULES_FILE, type Store } from '../../../pipeline/store/index.ts';
import { tempDir } from '../../helpers/context.ts';

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
});
