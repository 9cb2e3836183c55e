import { describe, expect, it } from 'vitest';
import { AtlasError } from '../../../pipeline/core/errors.ts';
import { listClusterMigrations, migrateCluster, openCluster } from '../../../pipeline/cluster/index.ts';
import { INBOX_KINDS, recordColumns } from '../../../site/contract/inbox-records.ts';
import { postgresGate, useTestPostgres } from '../../helpers/postgres.ts';

const gate = postgresGate('cluster schema migrations');

describe.skipIf(!gate.present)('cluster schema on a real PostgreSQL', () => {
  const server = useTestPostgres();

  it('applies every numbered migration once, and nothing the second time', async () => {
    const cluster = openCluster(await server.database());
    try {
      const first = await migrateCluster(cluster);
      expect(first).toEqual(listClusterMigrations().map((m) => m.name));
      expect(await migrateCluster(cluster)).toEqual([]);
      const rows = await cluster.query<{ version: number }>('SELECT version FROM atlas.schema_migrations ORDER BY version');
      expect(rows.rows.map((r) => r.version)).toEqual(listClusterMigrations().map((m) => m.version));
    } finally {
      await cluster.close();
    }
  });

  it("the replicas' tables hold exactly the members of the inbox record schemas, times as timestamptz, objects as jsonb", async () => {
    const cluster = openCluster(await server.database());
    try {
      await migrateCluster(cluster);
      for (const kind of INBOX_KINDS) {
        const r = await cluster.query<{ column_name: string; data_type: string }>(
          `SELECT column_name, data_type FROM information_schema.columns
           WHERE table_schema = 'atlas' AND table_name = $1 AND column_name NOT IN ('seq', 'xid') ORDER BY ordinal_position`,
          [kind],
        );
        const expected = recordColumns(kind).map((c) => ({
          column_name: c.name,
          data_type: { time: 'timestamp with time zone', json: 'jsonb', text: 'text' }[c.type],
        }));
        expect(r.rows, kind).toEqual(expected);
      }
    } finally {
      await cluster.close();
    }
  });

  it('two migrations at once take turns: each migration is applied by exactly one', async () => {
    const url = await server.database();
    const a = openCluster(url);
    const b = openCluster(url);
    try {
      const [x, y] = await Promise.all([migrateCluster(a), migrateCluster(b)]);
      expect([...x, ...y].sort()).toEqual(
        listClusterMigrations()
          .map((m) => m.name)
          .sort(),
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a stopped server is storage_unavailable with the password hidden, and works again after a start', async () => {
    const url = await server.database();
    const cluster = openCluster(url, { connectTimeoutMs: 1000 });
    try {
      await migrateCluster(cluster);
      await server.stop();
      const err = await cluster.query('SELECT 1').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AtlasError);
      expect((err as AtlasError).code).toBe('storage_unavailable');
      expect((err as AtlasError).message).not.toContain('atlas_test_password');
      expect((err as AtlasError).message).toContain('***');
      await server.start();
      expect((await cluster.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
    } finally {
      await server.start();
      await cluster.close();
    }
  });
});
