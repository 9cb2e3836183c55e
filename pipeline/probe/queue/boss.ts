import PgBoss from 'pg-boss';
import type pg from 'pg';
import { AtlasError } from '../../core/errors.ts';
import { asUnavailable, type Cluster } from '../../cluster/postgres.ts';

/**
 * The probe queue's job library: pg-boss 10 (the newest that runs on Node 20) in its default schema
 * `pgboss`, over the cluster's own connection pool. One queue, PROBE_QUEUE; its jobs are chunks of
 * one slot's due calls (payload.ts). Why pg-boss rather than graphile-worker: a job's lease is its
 * `expireInSeconds` (any value from 1 s), after which the maintenance pass puts the job back for a
 * retry, whereas graphile-worker keeps a crashed worker's job locked for a fixed 4 hours; and pg-boss
 * inserts jobs with our ids inside our own transaction (the `db` option), which the enqueue uses.
 */
export const PROBE_QUEUE = 'atlas-probe';
export const BOSS_SCHEMA = 'pgboss';

/** A job's lease unless the writer says otherwise: far above what a job of JOB_SIZE checks takes. */
export const DEFAULT_LEASE_SECONDS = 600;
/** Attempts after the first (a lease that expires counts as one); then the job fails and its slots may be enqueued again. */
export const RETRY_LIMIT = 10;
/** How often some worker looks for expired leases (pg-boss maintenance; one process per interval does it). */
export const DEFAULT_MAINTENANCE_SECONDS = 30;

/** pg-boss's SQL executor over `client` (a transaction's connection) or the pool. */
export function executor(on: pg.Pool | pg.PoolClient): { executeSql(text: string, values?: unknown[]): Promise<pg.QueryResult> } {
  return { executeSql: (text, values) => on.query(text, values as unknown[]) };
}

export interface BossHandle {
  boss: PgBoss;
  /**
   * The last error any of pg-boss's statements met (pg-boss's `fetch` swallows errors and answers
   * "no job"; the worker reads this to tell an outage from an empty queue). Cleared by `takeError`.
   */
  takeError(): unknown;
}

/**
 * Start pg-boss on the cluster's pool. `migrate` creates or upgrades its schema (`atlas init`);
 * otherwise a missing schema is `not_found` naming `atlas init`. `maintenanceSeconds` (a worker) turns
 * on the maintenance pass that expires leases; the writer runs none.
 */
export async function startBoss(cluster: Cluster, opts: { migrate?: boolean; maintenanceSeconds?: number } = {}): Promise<BossHandle> {
  let lastError: unknown = null;
  const db = {
    executeSql: async (text: string, values?: unknown[]) => {
      try {
        return await cluster.pool.query(text, values);
      } catch (e) {
        lastError = asUnavailable(e, cluster.where);
        throw lastError;
      }
    },
  };
  const boss = new PgBoss({
    db,
    schema: BOSS_SCHEMA,
    migrate: !!opts.migrate,
    supervise: opts.maintenanceSeconds !== undefined,
    ...(opts.maintenanceSeconds !== undefined ? { maintenanceIntervalSeconds: opts.maintenanceSeconds } : {}),
    schedule: false,
  });
  // Maintenance errors (an outage) are emitted here; without a listener they would end the process.
  boss.on('error', (e) => {
    lastError = e;
  });
  try {
    await boss.start();
  } catch (e) {
    await boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
    const err = asUnavailable(e, cluster.where);
    if (err instanceof AtlasError) throw err;
    throw new AtlasError(
      'not_found',
      `the probe queue in PostgreSQL at ${cluster.where} is not ready (${(e as Error)?.message}); run \`atlas init\``,
      undefined,
      { cause: e },
    );
  }
  return {
    boss,
    takeError: () => {
      const e = lastError;
      lastError = null;
      return e;
    },
  };
}

/** The queue's schema version before and after `atlas init` (null: no pg-boss schema yet). */
export async function bossSchemaVersion(cluster: Cluster): Promise<number | null> {
  const t = await cluster.query<{ ok: boolean }>(`SELECT to_regclass('${BOSS_SCHEMA}.version') IS NOT NULL AS ok`);
  if (!t.rows[0]?.ok) return null;
  const v = await cluster.query<{ version: number }>(`SELECT version FROM ${BOSS_SCHEMA}.version`);
  return v.rows[0]?.version ?? null;
}

/**
 * `atlas init`: create or upgrade pg-boss's schema (its own migrations under its own advisory lock)
 * and create the probe queue. Returns what it did, for the init line.
 */
export async function migrateQueue(cluster: Cluster): Promise<{ from: number | null; to: number | null; queueCreated: boolean }> {
  const from = await bossSchemaVersion(cluster);
  const h = await startBoss(cluster, { migrate: true });
  try {
    const exists = await h.boss.getQueue(PROBE_QUEUE);
    if (!exists) {
      await h.boss.createQueue(PROBE_QUEUE, {
        name: PROBE_QUEUE,
        retryLimit: RETRY_LIMIT,
        retryDelay: 0,
        expireInSeconds: DEFAULT_LEASE_SECONDS,
      });
    }
    return { from, to: await bossSchemaVersion(cluster), queueCreated: !exists };
  } finally {
    await h.boss.stop({ graceful: false, close: false, wait: true });
  }
}
