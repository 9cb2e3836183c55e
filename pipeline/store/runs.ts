import { randomBytes } from 'node:crypto';
import type { RunStatus } from '../../site/contract/common.ts';
import { recordRunTextfile } from './run-textfile.ts';
import type { Store } from './store.ts';

/** The service's own runs (the `runs` table): one row per job run, started then finished (statuses: the contract's RUN_STATUSES). */
export type { RunStatus };

/**
 * The one run-id format, for every kind: `<kind>_<YYYYMMDD>T<HHMMSS>Z_<8 hex>`, the start time in
 * UTC to the second and 32 random bits, e.g. `probe_20261126T053911Z_9f2c41d0`. Ids of one kind sort
 * by start time; the random part keeps runs started in the same second apart.
 */
export const RUN_ID_RE = /^[a-z][a-z0-9_]*_\d{8}T\d{6}Z_[0-9a-f]{8}$/;

export function newRunId(kind: string, startedAt: Date): string {
  if (!/^[a-z][a-z0-9_]*$/.test(kind)) throw new Error(`run kind must be lower-case letters, digits and _: ${JSON.stringify(kind)}`);
  const stamp = startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${kind}_${stamp}_${randomBytes(4).toString('hex')}`;
}

/** Error text kept in `runs.error`. */
const ERROR_MAX = 2000;

export interface RunOptions {
  /** The injected clock: read for started_at (unless `startedAt` is given) and finished_at. */
  clock: () => Date;
  /** started_at when the caller already took its instant (e.g. the slots a probe run fills). */
  startedAt?: Date;
  /** The slot the run was due for (scheduled_at), when it is scheduled. */
  scheduledAt?: Date | null;
  /** Stored as JSON in `args`. */
  args?: unknown;
}

/** What `fn` sees of its run, and sets for the finished row. */
export interface Run {
  readonly id: string;
  readonly kind: string;
  readonly startedAt: Date;
  /** Stored as JSON in `counts` when the run finishes, also when `fn` throws (set it as work goes). */
  counts: unknown;
  /** Named step durations in ms (stepTimer's `steps`), for the run's metrics textfile; set as work goes. */
  steps: Record<string, number>;
  /** How a run whose `fn` returns is recorded: `ok`, or `partial` when a part of it failed. */
  status: 'ok' | 'partial';
  /** `error` of a run that returns (e.g. which parts failed); a throw records the thrown message. */
  error: string | null;
}

/** Ids of the runs this process has started and not finished yet: never closed as abandoned. */
const inFlight = new Set<string>();
/** Stores whose abandoned runs were already closed (once per open, see closeAbandonedRuns). */
const swept = new WeakSet<Store>();

/** Start of the `error` text of a run closed as abandoned (its status is `failed`). */
export const ABANDONED_PREFIX = 'abandoned:';

export function abandonedReason(foundBy: string): string {
  return `${ABANDONED_PREFIX} the process ended before the run finished (found by run ${foundBy})`;
}

/**
 * Close the runs a dead process left `running` (kill -9, OOM, power loss): status `failed`,
 * finished_at = `at` (when it was found; the moment the process died is unknown), error
 * `abandoned: … (found by run <foundBy>)`. The contract's run statuses have no `abandoned`, and a
 * run that never finished did fail; the error text says why (docs/notes/crash-safety.md).
 *
 * Why no live run is closed: `store` holds the database read-write, and DuckDB lets one process at
 * a time open a file read-write (a second writer cannot open it while the first lives; openStore
 * waits, then gives up with `locked`). So while this store is open, a `running` row belongs either
 * to this process — its runs in flight are skipped — or to a process that has ended.
 * Returns the ids closed.
 */
export async function closeAbandonedRuns(store: Store, foundBy: string, at: Date): Promise<string[]> {
  const rows = await store.all<{ id: string }>(
    `UPDATE runs SET status = 'failed', finished_at = $1::TIMESTAMP, error = $2
     WHERE status = 'running' AND id NOT IN (SELECT unnest(from_json($3::JSON, '["VARCHAR"]')))
     RETURNING id`,
    [at.toISOString(), abandonedReason(foundBy), JSON.stringify([...inFlight])],
  );
  return rows.map((r) => r.id).sort();
}

/**
 * Every `runs` row is written here: inserted as `running` (so a killed run stays visible as
 * running, with no finished_at), then `fn` runs, then the row is finished — `run.status` with
 * `run.counts` when `fn` returns, `failed` with the same counts and the thrown message when it
 * throws (the error is re-thrown; a failure to record it never hides it). The row is written
 * outside any transaction of `fn`, so a rolled-back run still leaves its record. Every finished
 * run, of any kind, then writes its Prometheus textfile (run-textfile.ts).
 * The first run of each opened store first closes the runs a dead process left `running`
 * (closeAbandonedRuns): a killed run is never `running` past the next run of any kind.
 */
export async function withRun<T>(store: Store, kind: string, opts: RunOptions, fn: (run: Run) => Promise<T>): Promise<T> {
  const startedAt = opts.startedAt ?? opts.clock();
  const run: Run = { id: newRunId(kind, startedAt), kind, startedAt, counts: {}, steps: {}, status: 'ok', error: null };
  if (!swept.has(store)) {
    await closeAbandonedRuns(store, run.id, opts.clock());
    swept.add(store);
  }
  await store.run(
    `INSERT INTO runs (id, kind, scheduled_at, started_at, status, args) VALUES ($1, $2, $3::TIMESTAMP, $4::TIMESTAMP, 'running', $5::JSON)`,
    [run.id, kind, opts.scheduledAt ? opts.scheduledAt.toISOString() : null, startedAt.toISOString(), JSON.stringify(opts.args ?? {})],
  );
  inFlight.add(run.id);
  try {
    return await runAndFinish(store, run, opts, fn);
  } finally {
    inFlight.delete(run.id);
  }
}

async function runAndFinish<T>(store: Store, run: Run, opts: RunOptions, fn: (run: Run) => Promise<T>): Promise<T> {
  const finish = (status: Exclude<RunStatus, 'running'>, error: string | null) =>
    store.run(`UPDATE runs SET finished_at = $2::TIMESTAMP, status = $3, counts = $4::JSON, error = $5 WHERE id = $1`, [
      run.id,
      opts.clock().toISOString(),
      status,
      countsJson(run.counts),
      error === null ? null : error.slice(0, ERROR_MAX),
    ]);
  let out: T;
  try {
    out = await fn(run);
  } catch (e) {
    await finish('failed', errorMessage(e)).catch(() => undefined);
    await recordRunTextfile(store, run, 'failed');
    throw e;
  }
  try {
    await finish(run.status, run.error);
  } catch (e) {
    await finish('failed', `recording the finished run failed: ${errorMessage(e)}`).catch(() => undefined);
    await recordRunTextfile(store, run, 'failed');
    throw e;
  }
  await recordRunTextfile(store, run, run.status);
  return out;
}

function countsJson(counts: unknown): string {
  try {
    return JSON.stringify(counts ?? {}) ?? '{}';
  } catch {
    return '{}'; // e.g. a BigInt in the counts: the run's status and error still get recorded
  }
}

function errorMessage(e: unknown): string {
  const m = (e as Error)?.message;
  return typeof m === 'string' && m ? m : String(e);
}

/** Start time of the latest successful run of a kind (ok or partial), or null. */
export async function lastRunAt(store: Store, kind: string, registry?: string): Promise<Date | null> {
  // With a registry name: that source's last run only (several catalogs of one kind are each due on their own).
  const rows = await store.all<{ t: string | null }>(
    registry === undefined
      ? `SELECT max(started_at) AS t FROM runs WHERE kind = $1 AND status IN ('ok', 'partial')`
      : `SELECT max(started_at) AS t FROM runs WHERE kind = $1 AND status IN ('ok', 'partial') AND json_extract_string(args, '$.registry') = $2`,
    registry === undefined ? [kind] : [kind, registry],
  );
  const t = rows[0]?.t;
  return t ? new Date(`${t.replace(' ', 'T')}Z`) : null;
}
