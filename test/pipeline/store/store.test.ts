import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { listMigrations, migrate, openStore } from '../../../pipeline/store/index.ts';
import { runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';

describe('store and migrations', () => {
  it('applies every migration once; a second run changes nothing', async () => {
    const t = tempDir();
    try {
      const s = await openStore(join(t.dir, 'atlas.duckdb'));
      try {
        const first = await migrate(s, new Date('2026-11-25T00:00:00Z'));
        expect(first).toEqual(listMigrations().map((m) => m.name));
        const tables = await s.all<{ n: string }>("SELECT count(*)::INT AS n FROM information_schema.tables WHERE table_schema = 'main'");
        expect(await migrate(s, new Date('2026-11-26T00:00:00Z'))).toEqual([]);
        const again = await s.all<{ n: string }>("SELECT count(*)::INT AS n FROM information_schema.tables WHERE table_schema = 'main'");
        expect(again).toEqual(tables);
        const rows = await s.all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
      } finally {
        s.close();
      }
    } finally {
      t.cleanup();
    }
  });

  it('021: x402 operations move to x402-mainnet/2, stored checks keep their rule, protocols start NULL', async () => {
    const t = tempDir();
    try {
      const s = await openStore(join(t.dir, 'atlas.duckdb'));
      try {
        // a database of the code before 021 (every other migration applied; its rules not: they read the new column)
        await s.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)');
        for (const m of listMigrations().filter((m) => m.version !== 21)) {
          await s.run(m.sql);
          await s.run("INSERT INTO schema_migrations VALUES ($1, $2, '2026-11-25 00:00:00')", [m.version, m.name]);
        }
        const seeded: Array<[string, string]> = [
          ['x', 'x402-mainnet/1'],
          ['r', 'reviewed/1'],
          ['m', 'mcp-reach/3'],
        ];
        for (const [id, rule] of seeded) {
          await s.run(
            `INSERT INTO operations (service_id, id, kind, is_primary, url, method, pass_rule, interval_hours) VALUES ($1, 'primary', 'call', true, 'https://a.example/', 'GET', $2, 24)`,
            [id, rule],
          );
          await s.run(
            `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, run_id, url, method)
             VALUES ($1, 'primary', '2026-11-24 00:00:00', '2026-11-24 00:00:01', 402, false, 'invalid_payment_request', $2, 'r', 'https://a.example/', 'GET')`,
            [id, rule],
          );
        }
        expect(await migrate(s, new Date('2026-11-26T00:00:00Z'))).toEqual(['021_check_protocols']);
        const ops = await s.all<{ service_id: string; pass_rule: string }>('SELECT service_id, pass_rule FROM operations ORDER BY ALL');
        expect(ops).toEqual([
          { service_id: 'm', pass_rule: 'mcp-reach/3' },
          { service_id: 'r', pass_rule: 'reviewed/1' },
          { service_id: 'x', pass_rule: 'x402-mainnet/2' },
        ]);
        const checks = await s.all<{ rule: string; protocols: unknown }>('SELECT rule, protocols FROM checks ORDER BY ALL');
        expect(checks).toEqual([
          { rule: 'mcp-reach/3', protocols: null },
          { rule: 'reviewed/1', protocols: null },
          { rule: 'x402-mainnet/1', protocols: null },
        ]);
      } finally {
        s.close();
      }
    } finally {
      t.cleanup();
    }
  });

  it('has the tables and columns scripts rely on', async () => {
    const t = tempDir();
    try {
      const s = await openStore(join(t.dir, 'atlas.duckdb'));
      try {
        await migrate(s, new Date());
        const cols = async (table: string) =>
          (await s.all<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = '${table}'`)).map(
            (r) => r.column_name,
          );
        expect(await cols('services')).toEqual(
          expect.arrayContaining(['id', 'tier', 'type', 'name', 'host', 'url', 'method', 'templated_url', 'listed']),
        );
        expect(await cols('checks')).toEqual(
          expect.arrayContaining(['service_id', 'operation', 'slot', 'checked_at', 'status', 'passed', 'reason', 'rule', 'latency_ms']),
        );
        for (const table of [
          'operations',
          'payment_terms',
          'interval_changes',
          'runs',
          'directory',
          'doc_snapshots',
          'changes',
          'reports',
          'report_corrections',
          'outcomes',
          'feedback',
          'keys',
        ]) {
          expect((await cols(table)).length, table).toBeGreaterThan(0);
        }
      } finally {
        s.close();
      }
    } finally {
      t.cleanup();
    }
  });

  it('a statement from another caller never lands inside an open transaction', async () => {
    const t = tempDir();
    try {
      const s = await openStore(join(t.dir, 'atlas.duckdb'));
      try {
        await s.run('CREATE TABLE x (v INTEGER)');
        const failing = s.transaction(async () => {
          await s.run('INSERT INTO x VALUES (1)');
          await new Promise((r) => setImmediate(r));
          await s.run('INSERT INTO x VALUES (2)');
          throw new Error('roll back');
        });
        // Issued while the transaction is open: must neither join it nor be rolled back with it.
        const independent = s.run('INSERT INTO x VALUES (3)');
        await expect(failing).rejects.toThrow('roll back');
        await independent;
        expect(await s.all('SELECT v FROM x ORDER BY v')).toEqual([{ v: 3 }]);
      } finally {
        s.close();
      }
    } finally {
      t.cleanup();
    }
  });

  it('a second writer waits, then fails with exit 1 naming the lock holder PID', async () => {
    const t = tempDir();
    const s = await openStore(join(t.dir, 'atlas.duckdb'));
    try {
      await migrate(s, new Date());
      const r = await runCli(['--data', t.dir, 'init']);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`PID ${process.pid}`);
    } finally {
      s.close();
      t.cleanup();
    }
  }, 60_000);
});
