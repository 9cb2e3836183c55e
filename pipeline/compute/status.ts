import type { JobKind } from '../../site/contract/common.ts';
import type { RunRecord } from '../../site/contract/runs.ts';
import { StatusFigures, type WindowFigures } from '../../site/contract/status.ts';
import { HOUR_MS } from '../core/clock.ts';
import { dbTimeToIso, type Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

/**
 * The service's own scheduled jobs and how often each is due (our choice; the API leaves it open):
 * probe, compute and publish hourly (the five-minute cycle runs them when their hourly slot has come),
 * docs daily, report weekly. Slots are epoch-aligned like check slots (pipeline/core/slots.ts).
 */
export const RUN_SCHEDULE = { probe: 1, compute: 1, publish: 1, docs: 24, report: 168 } as const satisfies Record<JobKind, number>;
export type { JobKind };
export const STATUS_WINDOWS = { '24h': 24, '7d': 168, '30d': 720 } as const;
export type StatusWindow = keyof typeof STATUS_WINDOWS;

export type { WindowFigures };

/**
 * Scheduled / ran / missed for one job over one window (pure). Slot k covers
 * [k·I, (k+1)·I). Counted slots start at or after the window start (now − W) and not before the
 * slot in which operation began. A slot is scheduled once it has ended, or earlier if it already ran;
 * it ran when a run with status ok or partial falls in it (by scheduled_at, else started_at); missed =
 * scheduled − ran. Several runs in one slot count once.
 */
export function windowFigures(opts: {
  now: Date;
  everyHours: number;
  windowHours: number;
  operatingSince: Date | null;
  ranSlots: ReadonlySet<number>;
}): WindowFigures {
  const { now, everyHours, windowHours, operatingSince, ranSlots } = opts;
  if (!operatingSince) return { scheduled: 0, ran: 0, missed: 0 };
  const size = everyHours * HOUR_MS;
  const cur = Math.floor(now.getTime() / size);
  const first = Math.max(Math.ceil((now.getTime() - windowHours * HOUR_MS) / size), Math.floor(operatingSince.getTime() / size));
  const complete = Math.max(0, cur - first);
  let ran = 0;
  for (const k of ranSlots) if (k >= first && k < cur) ran += 1;
  const currentRan = cur >= first && ranSlots.has(cur) ? 1 : 0;
  return { scheduled: complete + currentRan, ran: ran + currentRan, missed: complete - ran };
}

interface RunRow {
  id: string;
  kind: string;
  status: string;
  scheduled_at: string | null;
  started_at: string;
  finished_at: string | null;
}

const toInfo = (r: RunRow): RunRecord => ({
  id: r.id,
  kind: r.kind,
  status: r.status as RunRecord['status'],
  scheduled_at: dbTimeToIso(r.scheduled_at),
  started_at: dbTimeToIso(r.started_at) ?? String(r.started_at),
  finished_at: dbTimeToIso(r.finished_at),
});

/**
 * The figures of GET /api/v1/status at `now` (the contract's StatusFigures: Status without
 * api_status). `operating_since` is the first recorded run of any kind (no slot before it is counted
 * as scheduled); `latest_runs` holds the latest run of every kind recorded (ingest_*, cycle, …).
 */
export async function computeStatus(store: Store, now: Date): Promise<StatusFigures> {
  const t = [timeParam(now)];
  const [since] = await store.all<{ at: string | null }>('SELECT min(started_at) AS at FROM runs WHERE started_at <= $1::TIMESTAMP', t);
  const operatingSinceIso = dbTimeToIso(since?.at ?? null);
  const operatingSince = operatingSinceIso ? new Date(operatingSinceIso) : null;

  // Distinct slot indexes that ran, per job kind, over the longest window (at most ~720 per kind).
  const slotRows = await store.all<{ kind: string; k: string | number }>(
    `
    WITH sched(kind, hours) AS (VALUES ${Object.entries(RUN_SCHEDULE)
      .map(([k, h]) => `('${k}', ${h})`)
      .join(', ')})
    SELECT DISTINCT r.kind, floor(epoch(coalesce(r.scheduled_at, r.started_at)) / (s.hours * 3600))::BIGINT AS k
    FROM runs r JOIN sched s ON s.kind = r.kind
    WHERE r.status IN ('ok', 'partial') AND coalesce(r.scheduled_at, r.started_at) <= $1::TIMESTAMP
      AND coalesce(r.scheduled_at, r.started_at) > $1::TIMESTAMP - INTERVAL ${Math.max(...Object.values(STATUS_WINDOWS)) + 168} HOUR`,
    t,
  );
  const slots = new Map<string, Set<number>>();
  for (const r of slotRows) {
    const set = slots.get(r.kind) ?? new Set<number>();
    set.add(Number(r.k));
    slots.set(r.kind, set);
  }

  const latest = await store.all<RunRow>(
    `SELECT id, kind, status, scheduled_at, started_at, finished_at FROM runs WHERE started_at <= $1::TIMESTAMP
    QUALIFY row_number() OVER (PARTITION BY kind ORDER BY started_at DESC, id DESC) = 1 ORDER BY kind`,
    t,
  );
  const latestByKind = new Map(latest.map((r) => [r.kind, toInfo(r)]));

  // Freshness at `now` (macro atlas_freshness, pipeline/store/rules.sql) from the materialized evidence.
  const [f] = await store.all<Record<string, number | string>>(
    `WITH x AS (SELECT atlas_freshness(last_check_at, check_interval_hours, $1::TIMESTAMP) AS f FROM evidence)
    SELECT count(*) FILTER (WHERE f = 'fresh') AS fresh, count(*) FILTER (WHERE f = 'stale') AS stale,
      count(*) FILTER (WHERE f = 'no_data') AS no_data, count(*) AS total FROM x`,
    t,
  );

  const jobs = (Object.entries(RUN_SCHEDULE) as [JobKind, number][]).map(([kind, everyHours]) => {
    const ranSlots = slots.get(kind) ?? new Set<number>();
    const w = (h: number) => windowFigures({ now, everyHours, windowHours: h, operatingSince, ranSlots });
    return {
      kind,
      every_hours: everyHours,
      windows: { '24h': w(STATUS_WINDOWS['24h']), '7d': w(STATUS_WINDOWS['7d']), '30d': w(STATUS_WINDOWS['30d']) },
      latest: latestByKind.get(kind) ?? null,
    };
  });
  return StatusFigures.parse({
    generated_at: now.toISOString(),
    operating_since: operatingSinceIso,
    jobs,
    latest_runs: latest.map(toInfo),
    evidence_freshness: {
      fresh: Number(f?.fresh ?? 0),
      stale: Number(f?.stale ?? 0),
      no_data: Number(f?.no_data ?? 0),
      total: Number(f?.total ?? 0),
    },
  });
}
