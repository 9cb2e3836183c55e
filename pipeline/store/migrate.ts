import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyRules } from './rules.ts';
import type { Store } from './store.ts';

/**
 * Numbered SQL migrations (`NNN_name.sql` in ./migrations), applied in order, each in its own
 * transaction and recorded in `schema_migrations`. Re-running applies nothing new. Migrations hold
 * tables only; the rules (macros and views, rules.sql) are re-created after them on every call.
 * Reserved number ranges keep parallel work apart: 001–009 core, 010–019 ingest, 020–029 probe,
 * 030–039 compute, 040–049 publish/serve, 050–059 reports/docs.
 */
export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.replace(/\.sql$/, ''), sql: readFileSync(join(dir, f), 'utf8') }));
}

export async function migrate(store: Store, now: Date, dir = MIGRATIONS_DIR): Promise<string[]> {
  await store.run(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)',
  );
  const done = new Set((await store.all<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
  const applied: string[] = [];
  for (const m of listMigrations(dir)) {
    if (done.has(m.version)) continue;
    await store.transaction(async () => {
      await store.run(m.sql);
      await store.run('INSERT INTO schema_migrations VALUES ($1, $2, $3::TIMESTAMP)', [m.version, m.name, now.toISOString()]);
    });
    applied.push(m.name);
  }
  await applyRules(store, { force: applied.length > 0 });
  return applied;
}
