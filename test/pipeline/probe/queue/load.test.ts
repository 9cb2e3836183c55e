import { describe, expect, it } from 'vitest';
import { type Cluster, migrateCluster, openCluster } from '../../../../pipeline/cluster/index.ts';
import type { CheckRecord } from '../../../../pipeline/probe/index.ts';
import { loadQueuedChecks } from '../../../../pipeline/probe/queue/index.ts';
import type { Store } from '../../../../pipeline/store/index.ts';
import { withTestStore } from '../../../helpers/context.ts';
import { postgresGate, useTestPostgres } from '../../../helpers/postgres.ts';
import { seedServices } from '../seed.ts';

/**
 * The writer's load of written-back checks (pipeline/probe/queue/load.ts) on a real PostgreSQL:
 * a transaction still open when the load reads (a smaller id than rows already committed) is loaded
 * by the next load, not skipped; a load killed after any page loads each row once when run again.
 */
const gate = postgresGate('probe queue load');
const SLOT = '2026-11-25T12:00:00.000Z';

const check = (service: string, passed = true): CheckRecord => ({
  service_id: service,
  operation: 'primary',
  slot: SLOT,
  checked_at: '2026-11-25T12:10:00.000Z',
  status: 402,
  passed,
  reason: passed ? 'ok' : 'bad_status',
  rule: 'x402-mainnet/2',
  latency_ms: 12.5,
  ttfb_ms: 3,
  run_id: 'probe_20261125T121000Z_0a0b0c0d',
  url: `http://${service}.t.test/x`,
  method: 'GET',
  bytes: 2,
  detail: null,
  protocols: ['x402-v2'],
  auth_schemes: null,
});

const INSERT = `INSERT INTO atlas.probe_checks (service_id, operation, slot, run_id, job_id, check_row)
  VALUES ($1, 'primary', $2::timestamptz, 'probe_20261125T121000Z_0a0b0c0d', '00000000-0000-4000-8000-000000000001', $3::json)`;

describe.skipIf(!gate.present)('probe queue: the writer loads written-back checks once each', () => {
  const server = useTestPostgres();

  async function setup(store: Store, n: number): Promise<Cluster> {
    await seedServices(
      store,
      Array.from({ length: n }, (_, i) => ({
        id: `cand_l${i}`,
        ops: [{ url: `http://cand_l${i}.t.test/x`, rule: 'x402-mainnet/2' as const }],
      })),
    );
    const cluster = openCluster(await server.database());
    await migrateCluster(cluster);
    return cluster;
  }
  const count = async (store: Store) => (await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM checks'))[0]!.n;

  it('a row of a transaction open during the load (an older id than committed rows) comes with the next load', async () => {
    await withTestStore(async (store) => {
      const cluster = await setup(store, 2);
      const open = await cluster.pool.connect();
      try {
        await open.query('BEGIN');
        await open.query(INSERT, ['cand_l0', SLOT, JSON.stringify(check('cand_l0'))]); // takes the older transaction id
        await cluster.query(INSERT, ['cand_l1', SLOT, JSON.stringify(check('cand_l1'))]); // commits first
        const first = await loadQueuedChecks(store, cluster);
        expect(first.rows).toBe(0); // cand_l1's id is not below the oldest open transaction's: not yet
        await open.query('COMMIT');
        const second = await loadQueuedChecks(store, cluster);
        expect({ rows: second.rows, inserted: second.inserted }).toEqual({ rows: 2, inserted: 2 });
        expect((await loadQueuedChecks(store, cluster)).rows).toBe(0);
        expect(await count(store)).toBe(2);
      } finally {
        open.release();
        await cluster.close();
      }
    });
  });

  it('killed after any page, the next load stores each row once and moves the watermark', async () => {
    await withTestStore(async (store) => {
      const n = 7;
      const cluster = await setup(store, n);
      try {
        for (let i = 0; i < n; i++) await cluster.query(INSERT, [`cand_l${i}`, SLOT, JSON.stringify(check(`cand_l${i}`, i % 2 === 0))]);
        for (let killAt = 1; killAt <= 3; killAt++) {
          // A store whose k-th check insert "dies" (the process would be gone; here the load throws).
          let inserts = 0;
          const dying = new Proxy(store, {
            get(target, prop, receiver) {
              const v = Reflect.get(target, prop, receiver);
              if (prop !== 'all' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
              return (sql: string, params?: unknown[]) => {
                if (sql.startsWith('INSERT INTO checks') && ++inserts === killAt) throw new Error('killed');
                return v.call(target, sql, params);
              };
            },
          });
          await expect(loadQueuedChecks(dying as Store, cluster, { pageSize: 2 })).rejects.toThrow('killed');
          expect(await count(store)).toBe(Math.min(n, (killAt - 1) * 2));
        }
        const done = await loadQueuedChecks(store, cluster, { pageSize: 2 });
        expect(done.rows).toBe(n);
        expect(done.inserted).toBe(n - 4); // the pages stored before the last kill are not stored again
        expect(await count(store)).toBe(n);
        expect((await loadQueuedChecks(store, cluster)).rows).toBe(0);
      } finally {
        await cluster.close();
      }
    });
  });
});
