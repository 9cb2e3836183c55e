import pg from 'pg';
import { AtlasError } from './errors.ts';

/**
 * The cluster's PostgreSQL (config `cluster.postgres` or ATLAS_POSTGRES_URL; docs/notes/cluster.md).
 * Absent, nothing in Atlas opens a connection. Present, the replicas' writes and the probe job queue
 * live in it; DuckDB stays the pipeline's own store and takes their rows at its next run.
 *
 * Every failure to reach the server (refused, reset, shut down, timed out) becomes one AtlasError
 * `storage_unavailable` (HTTP 503, CLI exit 2) naming the server without its password, and so does
 * a database without the schema (`atlas init` not run); other SQL errors pass through unchanged,
 * since they are bugs, not outages.
 */
export interface Cluster {
  readonly pool: pg.Pool;
  /** The connection string with its password replaced by `***`, for logs and messages. */
  readonly where: string;
  /** Run `fn` in one transaction on one connection; commit when it resolves, roll back when it throws. */
  transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** One statement on any connection. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** Connections this process may hold (default 10). */
  max?: number;
  /** Give up connecting after this long (default 5000 ms): a write answers 503 rather than hang. */
  connectTimeoutMs?: number;
  /** Name shown in pg_stat_activity. */
  applicationName?: string;
  /**
   * Give up on a statement's answer after this long (default: wait): a server that went silent (a
   * network partition) then fails the request as storage_unavailable instead of holding it.
   */
  queryTimeoutMs?: number;
}

export function openCluster(url: string, opts: ClusterOptions = {}): Cluster {
  const where = redactUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
    application_name: opts.applicationName ?? 'atlas',
    ...(opts.queryTimeoutMs ? { query_timeout: opts.queryTimeoutMs } : {}),
  });
  // An idle connection the server drops (a restart) emits here; the pool replaces it on next use.
  pool.on('error', () => undefined);
  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      throw asUnavailable(e, where);
    }
  };
  return {
    pool,
    where,
    query: (sql, params) => guard(() => pool.query(sql, params)),
    transaction: (fn) =>
      guard(async () => {
        const client = await pool.connect();
        let broken = false;
        try {
          await client.query('BEGIN');
          const out = await fn(client);
          await client.query('COMMIT');
          return out;
        } catch (e) {
          broken = isUnavailableError(e);
          if (!broken) await client.query('ROLLBACK').catch(() => undefined);
          throw e;
        } finally {
          client.release(broken);
        }
      }),
    close: () => pool.end(),
  };
}

/** SQLSTATE classes and socket errors that mean "the server is not there right now". */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

export function isUnavailableError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNAVAILABLE_CODES.has(code)) return true;
    // 08: connection exception; 57P01-57P03: admin/crash shutdown, cannot connect now; 53300: too many connections.
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|connect ECONNREFUSED/i.test(
    e.message,
  );
}

/** Undefined table or schema: the database is there but `atlas init` has not created (or migrated) the schema. */
const UNMIGRATED_CODES = new Set(['42P01', '3F000']);

export function asUnavailable(e: unknown, where: string): unknown {
  if (e instanceof AtlasError) return e;
  if (e instanceof Error && UNMIGRATED_CODES.has(String((e as { code?: unknown }).code)))
    return new AtlasError(
      'storage_unavailable',
      `PostgreSQL at ${where} does not have Atlas's tables: run \`atlas init\` with cluster.postgres set (${e.message})`,
      undefined,
      { cause: e },
    );
  if (!isUnavailableError(e)) return e;
  return new AtlasError('storage_unavailable', `PostgreSQL at ${where} is unreachable (${(e as Error).message})`, undefined, { cause: e });
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured PostgreSQL (cluster.postgres is not a URL)';
  }
}
