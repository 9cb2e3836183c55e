import type { RunLog } from '../../site/contract/run-log.ts';
import {
  BACKFILL_KIND,
  DEFAULT_CYCLE_MINUTES,
  JOB_CADENCE,
  LONGEST_STATUS_WINDOW_HOURS,
  runWindows,
} from '../../site/contract/run-windows.ts';
import type { RunRecord } from '../../site/contract/runs.ts';
import { StatusFigures } from '../../site/contract/status.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/**
 * The schedule, the windows and the window rule live in the contract (site/contract/run-windows.ts),
 * their one home, so the server can evaluate them at answer time; re-exported here for the pipeline.
 */
export { windowFigures } from '../../site/contract/run-windows.ts';

interface RunRow {
  id: string;
  kind: string;
  status: string;
  scheduled_at: string | null;
  started_at: string;
  finished_at: string | null;
}

const toRecord = (r: RunRow): RunRecord => ({
  id: r.id,
  kind: r.kind,
  status: r.status as RunRecord['status'],
  scheduled_at: dbTimeToIso(r.scheduled_at),
  started_at: dbTimeToIso(r.started_at) ?? String(r.started_at),
  finished_at: dbTimeToIso(r.finished_at),
});

export interface RunLogOptions {
  /** The configured cycle cadence (config `cycle.everyMinutes`), published with the log. */
  cycleEveryMinutes: number;
  /**
   * The publish run writing the tree that will carry these figures: read as `ok` (it is still
   * `running` in the table while the tree is written, and finishes after the switch). The tree
   * exists only if that publish succeeds, so wherever the figures are read, that publish ran.
   */
  ownRunId?: string | null;
}

/**
 * When compute last ran (`data_as_of` of every response with computed figures): the start of the
 * latest compute run at or before `now` that finished ok or partial, the instant its figures are
 * computed at (pipeline/compute/run.ts); null when compute never ran.
 */
export async function dataAsOf(store: Store, now: Date): Promise<string | null> {
  const [r] = await store.all<{ t: string | null }>(
    `SELECT max(started_at) AS t FROM runs WHERE kind = 'compute' AND status IN ('ok', 'partial') AND started_at <= $1::TIMESTAMP`,
    [timeParam(now)],
  );
  return dbTimeToIso(r?.t ?? null);
}

/**
 * The run log at `now` (the contract's RunLog, published as `run-log.json`): the runs of the
 * scheduled job kinds whose slot time (scheduled_at, else started_at) lies in the longest status
 * window ending at `now`, plus the back-fills (BACKFILL_KIND) started in it and the latest run of
 * every kind; runs started after `now` are left out.
 * `operating_since` is the first recorded run of any kind.
 */
export async function readRunLog(store: Store, now: Date, opts: RunLogOptions): Promise<RunLog> {
  const at = timeParam(now);
  const [since] = await store.all<{ at: string | null }>('SELECT min(started_at) AS at FROM runs WHERE started_at <= $1::TIMESTAMP', [at]);
  const rows = await store.all<RunRow>(
    `
    WITH r AS (
      SELECT id, kind, CASE WHEN id = $2 THEN 'ok' ELSE status END AS status, scheduled_at, started_at, finished_at
      FROM runs WHERE started_at <= $1::TIMESTAMP)
    SELECT * FROM r
    WHERE (list_contains($3::JSON::VARCHAR[], kind)
        AND coalesce(scheduled_at, started_at) <= $1::TIMESTAMP
        AND coalesce(scheduled_at, started_at) >= $1::TIMESTAMP - to_hours($4::BIGINT))
      OR id IN (SELECT id FROM r QUALIFY row_number() OVER (PARTITION BY kind ORDER BY started_at DESC, id DESC) = 1)
    ORDER BY started_at, id`,
    [at, opts.ownRunId ?? '', JSON.stringify([...Object.keys(JOB_CADENCE), BACKFILL_KIND]), LONGEST_STATUS_WINDOW_HOURS],
  );
  return {
    generated_at: now.toISOString(),
    data_as_of: await dataAsOf(store, now),
    cycle_every_minutes: opts.cycleEveryMinutes,
    operating_since: dbTimeToIso(since?.at ?? null),
    runs: rows.map(toRecord),
  };
}

/**
 * The latest run of each kind at `now` (by started_at, then id; ordered by kind): the run log's
 * latest runs under the run-windows rule, the one mapping /healthz and /api/v1/status share.
 */
export async function readLatestRuns(store: Store, now: Date): Promise<RunRecord[]> {
  // The latest runs do not depend on the cadence the windows expect.
  const log = await readRunLog(store, now, { cycleEveryMinutes: DEFAULT_CYCLE_MINUTES });
  return runWindows({ operatingSince: log.operating_since, runs: log.runs, cycleEveryMinutes: log.cycle_every_minutes }, now).latest_runs;
}

/**
 * The figures of GET /api/v1/status at `now` (the contract's StatusFigures: Status without
 * api_status): the run windows (site/contract/run-windows.ts, the rule the server re-evaluates at
 * answer time) over the run log, and evidence freshness at `now` from the materialized evidence.
 */
export async function computeStatus(store: Store, now: Date, opts: RunLogOptions): Promise<StatusFigures> {
  return statusFromLog(store, await readRunLog(store, now, opts), now);
}

/** computeStatus over a run log already read (publish writes both from one read). */
export async function statusFromLog(store: Store, log: RunLog, now: Date): Promise<StatusFigures> {
  // Freshness at `now` (macro atlas_freshness, pipeline/store/rules.sql) from the materialized evidence.
  const [f] = await store.all<Record<string, number | string>>(
    `WITH x AS (SELECT atlas_freshness(last_check_at, check_interval_hours, $1::TIMESTAMP) AS f FROM evidence)
    SELECT count(*) FILTER (WHERE f = 'fresh') AS fresh, count(*) FILTER (WHERE f = 'stale') AS stale,
      count(*) FILTER (WHERE f = 'no_data') AS no_data, count(*) AS total FROM x`,
    [timeParam(now)],
  );
  return StatusFigures.parse({
    generated_at: now.toISOString(),
    data_as_of: log.data_as_of,
    ...runWindows({ operatingSince: log.operating_since, runs: log.runs, cycleEveryMinutes: log.cycle_every_minutes }, now),
    evidence_freshness: {
      fresh: Number(f?.fresh ?? 0),
      stale: Number(f?.stale ?? 0),
      no_data: Number(f?.no_data ?? 0),
      total: Number(f?.total ?? 0),
    },
  });
}
