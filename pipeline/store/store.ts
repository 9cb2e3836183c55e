import { type DuckDBConnection, DuckDBInstance, type DuckDBTypeId, type DuckDBValue } from '@duckdb/node-api';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AtlasError, storageError } from '../core/errors.ts';
import { applyRulesOnOpen } from './rules.ts';

export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

/** A result with its column names and DuckDB type ids, rows as JSON-compatible objects (see `all`). */
export interface TableResult {
  columns: string[];
  types: DuckDBTypeId[];
  rows: Record<string, unknown>[];
}

/**
 * One DuckDB instance per file per process, opened for one run and closed in `finally`. The pipeline
 * is the only read-write opener; `readOnly` opens share the file with each other but not with a writer.
 *
 * The connection and instance stay private to this module: every statement goes through the Store's
 * queue, one caller at a time (see `wrap`). Values — times included — are bound as parameters
 * (`$1`, `$2::TIMESTAMP` with an ISO string), never pasted into SQL text.
 */
export interface Store {
  readonly path: string;
  /** Run a statement (or several separated by `;` when no params). */
  run(sql: string, params?: Params): Promise<void>;
  /** Rows as JSON-compatible objects (timestamps as 'YYYY-MM-DD HH:MM:SS' strings, BIGINT as string). */
  all<T = Record<string, unknown>>(sql: string, params?: Params): Promise<T[]>;
  /** Like `all`, with the column names and types (for `atlas sql`, which formats by type). */
  table(sql: string, params?: Params): Promise<TableResult>;
  /**
   * Rows in DuckDB chunks (arrays of JSON-compatible values in column order), for results too large
   * to hold as row objects. Holds the connection until the last chunk is handled, so nothing runs
   * between chunks; `onChunk` must not use the store (it throws if it does). A throw from `onChunk`
   * stops the stream and rejects.
   */
  stream(sql: string, params: Params | undefined, onChunk: (rows: unknown[][]) => void | Promise<void>): Promise<void>;
  /** BEGIN … COMMIT, ROLLBACK on throw (a failed statement otherwise blocks the connection). */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  close(): void;
}

export interface OpenOptions {
  readOnly?: boolean;
  /** How long a writer waits for another process's lock before giving up (ms). */
  lockWaitMs?: number;
  /** Injected for tests of the lock message. */
  sleep?: (ms: number) => Promise<void>;
}

const LOCK_RE = /Could not set lock on file[\s\S]*?\(PID (\d+)\)|Conflicting lock is held in [\s\S]*?\(PID (\d+)\)/;

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function openStore(path: string, opts: OpenOptions = {}): Promise<Store> {
  const { readOnly = false, lockWaitMs = 5000, sleep = defaultSleep } = opts;
  // A full disk or read-only storage is `storage_unavailable` (one line; CLI exit 2), on open and on every statement.
  const onStorage = (e: unknown) => storageError(e, `database ${path}`) ?? e;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  } catch (e) {
    throw onStorage(e);
  }
  const deadline = Date.now() + lockWaitMs;
  let instance: DuckDBInstance | undefined;
  for (;;) {
    try {
      instance = await DuckDBInstance.create(path, readOnly ? { access_mode: 'READ_ONLY' } : {});
      break;
    } catch (e) {
      const msg = (e as Error).message ?? '';
      const m = LOCK_RE.exec(msg);
      if (m || /lock/i.test(msg)) {
        if (Date.now() < deadline) {
          await sleep(250);
          continue;
        }
        const pid = m?.[1] ?? m?.[2] ?? 'unknown';
        throw new AtlasError('locked', `database ${path} is locked by another process (PID ${pid}); try again when it finishes`);
      }
      if (/does not exist|No such file|Cannot open database/i.test(msg) && readOnly) {
        throw new AtlasError('not_found', `database ${path} does not exist yet; run \`atlas init\``);
      }
      throw onStorage(e);
    }
  }
  const conn = await instance.connect();
  await conn.run("SET TimeZone = 'UTC'");
  const store = wrap(path, instance, conn);
  try {
    // The rules (rules.sql) are re-created on every open: persisted when writing, TEMP when read-only.
    await applyRulesOnOpen(store, readOnly);
  } catch (e) {
    store.close();
    throw e;
  }
  return store;
}

function wrap(path: string, instance: DuckDBInstance, conn: DuckDBConnection): Store {
  // One connection is one DuckDB session: statements from concurrent callers (the probe's check
  // writer, the docs sink, ...) must not interleave with another caller's open transaction or
  // stream. Every call takes the connection in turn; calls made inside a transaction's callback
  // already hold it (AsyncLocalStorage marks that async context). A stream's chunk callback holds it
  // too, but may not issue statements: DuckDB would drop the pending result.
  const holding = new AsyncLocalStorage<'turn' | 'stream'>();
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(body: () => Promise<T>): Promise<T> => {
    const fn = () =>
      body().catch((e: unknown) => {
        throw storageError(e, `database ${path}`) ?? e;
      });
    const held = holding.getStore();
    if (held === 'stream') return Promise.reject(new Error('store: no statements inside a stream callback'));
    if (held) return fn();
    const turn = tail.then(() => holding.run('turn', fn));
    tail = turn.catch(() => undefined);
    return turn;
  };
  const values = (params: Params | undefined) => params as DuckDBValue[] | undefined;
  const store: Store = {
    path,
    run(sql, params) {
      return exclusive(async () => {
        if (params === undefined) await conn.run(sql);
        else await conn.run(sql, values(params));
      });
    },
    all<T>(sql: string, params?: Params) {
      return exclusive(async () => {
        const reader = params === undefined ? await conn.runAndReadAll(sql) : await conn.runAndReadAll(sql, values(params));
        return reader.getRowObjectsJson() as T[];
      });
    },
    table(sql, params) {
      return exclusive(async () => {
        const reader = params === undefined ? await conn.runAndReadAll(sql) : await conn.runAndReadAll(sql, values(params));
        return {
          columns: reader.columnNames(),
          types: reader.columnTypes().map((t) => t.typeId),
          rows: reader.getRowObjectsJson() as Record<string, unknown>[],
        };
      });
    },
    stream(sql, params, onChunk) {
      return exclusive(async () => {
        const result = params === undefined ? await conn.stream(sql) : await conn.stream(sql, values(params));
        for await (const rows of result.yieldRowsJson()) {
          await holding.run('stream', () => onChunk(rows as unknown[][]));
        }
      });
    },
    transaction(fn) {
      if (holding.getStore() === 'turn') return fn(); // nested: part of the enclosing transaction
      return exclusive(async () => {
        await conn.run('BEGIN TRANSACTION');
        try {
          const out = await fn();
          await conn.run('COMMIT');
          return out;
        } catch (e) {
          await conn.run('ROLLBACK').catch(() => undefined);
          throw e;
        }
      });
    },
    close() {
      try {
        conn.closeSync();
      } finally {
        instance.closeSync();
      }
    },
  };
  return store;
}

/** Open, run `fn`, always close. */
export async function withStore<T>(path: string, fn: (s: Store) => Promise<T>, opts?: OpenOptions): Promise<T> {
  const store = await openStore(path, opts);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/** DuckDB TIMESTAMP text ('2026-11-25 22:00:00.123') → ISO-8601 UTC string. */
export function dbTimeToIso(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = String(v);
  const d = new Date(s.includes('T') ? s : `${s.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? s : d.toISOString();
}
