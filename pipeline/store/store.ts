import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AtlasError } from '../core/errors.ts';
import { applyRulesOnOpen } from './rules.ts';

/**
 * One DuckDB instance per file per process (REFERENCE.md), opened for one run and closed in
 * `finally`. The pipeline is the only read-write opener; `readOnly` opens share the file with each
 * other but not with a writer.
 */
export interface Store {
  readonly path: string;
  readonly instance: DuckDBInstance;
  readonly conn: DuckDBConnection;
  /** Run a statement (or several separated by `;` when no params). */
  run(sql: string, params?: DuckDBValue[] | Record<string, DuckDBValue>): Promise<void>;
  /** Rows as JSON-compatible objects (timestamps as 'YYYY-MM-DD HH:MM:SS' strings, BIGINT as string). */
  all<T = Record<string, unknown>>(sql: string, params?: DuckDBValue[] | Record<string, DuckDBValue>): Promise<T[]>;
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

const LOCK_RE = /Could not set lock on file[^]*?\(PID (\d+)\)|Conflicting lock is held in [^]*?\(PID (\d+)\)/;

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function openStore(path: string, opts: OpenOptions = {}): Promise<Store> {
  const { readOnly = false, lockWaitMs = 5000, sleep = defaultSleep } = opts;
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
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
      throw e;
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
  // writer, the docs sink, ...) must not interleave with another caller's open transaction. Every
  // call takes the connection in turn; calls made inside a transaction's callback already hold it.
  const holding = new AsyncLocalStorage<true>();
  let tail: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    if (holding.getStore()) return fn();
    const turn = tail.then(() => holding.run(true, fn));
    tail = turn.catch(() => undefined);
    return turn;
  };
  const store: Store = {
    path,
    instance,
    conn,
    run(sql, params) {
      return exclusive(async () => {
        if (params === undefined) await conn.run(sql);
        else await conn.run(sql, params as DuckDBValue[]);
      });
    },
    all<T>(sql: string, params?: DuckDBValue[] | Record<string, DuckDBValue>) {
      return exclusive(async () => {
        const reader = params === undefined ? await conn.runAndReadAll(sql) : await conn.runAndReadAll(sql, params as DuckDBValue[]);
        return reader.getRowObjectsJson() as T[];
      });
    },
    transaction(fn) {
      if (holding.getStore()) return fn(); // nested: part of the enclosing transaction
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
