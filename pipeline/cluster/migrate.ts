import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cluster } from './postgres.ts';

/**
 * The cluster schema's numbered migrations (`NNN_name.sql` in ./migrations), like DuckDB's
 * (pipeline/store/migrate.ts): applied in order, each in its own transaction, recorded in
 * `atlas.schema_migrations`; re-running applies nothing. A transaction-scoped advisory lock makes
 * two `atlas init` (or a replica and a worker starting together) take turns instead of racing.
 * Number ranges: 001–009 core, 010–019 replica writes, 020–029 probe queue.
 */
export const CLUSTER_MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any 64-bit constant unique to this lock; pg_advisory locks are per database. */
const MIGRATE_LOCK = 4_702_610_026;

export interface ClusterMigration {
  version: number;
  name: string;
  sql: string;
}

export function listClusterMigrations(dir = CLUSTER_MIGRATIONS_DIR): ClusterMigration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.replace(/\.sql$/, ''), sql: readFileSync(join(dir, f), 'utf8') }));
}

/** Apply what is new; returns the names applied (empty: the schema was up to date). */
export async function migrateCluster(cluster: Cluster, dir = CLUSTER_MIGRATIONS_DIR): Promise<string[]> {
  const applied: string[] = [];
  for (const m of listClusterMigrations(dir)) {
    const done = await cluster.transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK]);
      await c.query('CREATE SCHEMA IF NOT EXISTS atlas');
      await c.query(
        'CREATE TABLE IF NOT EXISTS atlas.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const seen = await c.query('SELECT 1 FROM atlas.schema_migrations WHERE version = $1', [m.version]);
      if (seen.rowCount) return false;
      await c.query(m.sql);
      await c.query('INSERT INTO atlas.schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}
