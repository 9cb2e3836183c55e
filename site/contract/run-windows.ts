/**
 * The run windows of GET /api/v1/status (scheduled / ran / missed per job, latest runs) at an
 * instant: the one home of the rule. The pipeline evaluates it at publish over the runs it reads
 * from the database (pipeline/compute/status.ts); the server evaluates it again against its own clock
 * when it answers, over the run log published in the tree (run-log.ts), so a stopped pipeline shows
 * as missed runs instead of a frozen all-clear.
 *
 * Pure and dependency-free (contract types only), so the pipeline and the server can both import it.
 */
import type { JobKind } from './common.ts';
import type { RunRecord } from './runs.ts';
import type { Backfill, JobStatus, WindowFigures } from './status.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/**
 * The cadences `atlas cycle` may be configured to run at (config `cycle.everyMinutes`), in minutes:
 * the divisors of 60, so cycle slots nest in the hour and hourly work is never split across them.
 */
export const CYCLE_MINUTES = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60] as const;
/** The default cycle cadence: cron runs `atlas cycle` every five minutes. */
export const DEFAULT_CYCLE_MINUTES = 5;

/**
 * How often each of the service's own scheduled jobs is due, the one home of the rule: `cycle` for
 * the jobs every cycle runs (probe of the due call slots, compute of the services checked or placed
 * since their last evaluation, publish), else minutes: documentation daily (every cycle checks the
 * pages that are due, but the pages themselves are daily), the weekly report weekly.
 */
export const JOB_CADENCE = { probe: 'cycle', compute: 'cycle', publish: 'cycle', docs: 1_440, report: 10_080 } as const satisfies Record<
  JobKind,
  'cycle' | number
>;

/** Every job's cadence in minutes for a cycle every `cycleEveryMinutes` (JOB_CADENCE). */
export function jobSchedule(cycleEveryMinutes: number): Record<JobKind, number> {
  const out = {} as Record<JobKind, number>;
  for (const [kind, c] of Object.entries(JOB_CADENCE) as [JobKind, 'cycle' | number][]) out[kind] = c === 'cycle' ? cycleEveryMinutes : c;
  return out;
}
/** How often a job is due, in milliseconds (jobSchedule): the one source of every job cadence. */
export const jobEveryMs = (kind: JobKind, cycleEveryMinutes: number): number => jobSchedule(cycleEveryMinutes)[kind] * MINUTE_MS;
/** The start of the slot of `kind` that contains `at` (epoch-aligned, as the windows count it). */
export const jobSlotStart = (kind: JobKind, at: Date, cycleEveryMinutes: number): Date => {
  const size = jobEveryMs(kind, cycleEveryMinutes);
  return new Date(Math.floor(at.getTime() / size) * size);
};
/** The status windows, in hours; each ends at the instant the figures are computed for. */
export const STATUS_WINDOWS = { '24h': 24, '7d': 168, '30d': 720 } as const;
/** The longest status window in hours: how far back the published run log reaches. */
export const LONGEST_STATUS_WINDOW_HOURS = Math.max(...Object.values(STATUS_WINDOWS));

/**
 * The run kind of a back-fill: simulated history written in one go (only `atlas demo` records one),
 * from its first simulated cycle (started_at) to its last (finished_at).
 */
export const BACKFILL_KIND = 'backfill';
/**
 * The jobs a back-fill does not run at their cadence: it probes every scheduled slot and runs
 * documentation and reports in theirs, but computes once per simulated day and publishes once, at
 * the end (a publish per simulated hour would cost more than the whole start-up). Their slots inside
 * a back-fill are left out of the windows instead of showing hundreds of runs that nobody missed.
 */
export const BACKFILL_UNCOUNTED_JOBS: readonly JobKind[] = ['compute', 'publish'];

/** Statuses that count a run as having run: a failed or still running run leaves its slot missed. */
const RAN: ReadonlySet<string> = new Set(['ok', 'partial']);

/** Slots k of size `size` ms with first <= k <= last (inclusive), e.g. those inside a back-fill. */
export interface SlotRange {
  first: number;
  last: number;
}

/**
 * The slots of a job due every `everyMinutes` that lie wholly inside a back-fill [from, until): from
 * the slot `from` falls in (the back-fill's first cycle runs at its start) to the last slot that ends
 * by `until`. Null when none does.
 */
export function backfillSlots(b: Pick<Backfill, 'from' | 'until'>, everyMinutes: number): SlotRange | null {
  const size = everyMinutes * MINUTE_MS;
  const first = Math.floor(Date.parse(b.from) / size);
  const last = Math.floor(Date.parse(b.until) / size) - 1;
  return last >= first ? { first, last } : null;
}

/**
 * Scheduled / ran / missed for one job over one window (pure). Counted slots start at or after the
 * window start (now − W) and not before the slot in which operation began, and lie in none of the
 * `uncounted` ranges (a back-fill's slots of a job it does not run at its cadence). A slot is
 * scheduled once it has ended, or earlier if it already ran; missed = scheduled − ran. Several runs
 * in one slot count once.
 */
export function windowFigures(opts: {
  now: Date;
  everyMinutes: number;
  windowHours: number;
  operatingSince: Date | null;
  ranSlots: ReadonlySet<number>;
  uncounted?: readonly SlotRange[];
}): WindowFigures {
  const { now, everyMinutes, windowHours, operatingSince, ranSlots } = opts;
  if (!operatingSince) return { scheduled: 0, ran: 0, missed: 0 };
  const uncounted = opts.uncounted ?? [];
  const counts = (k: number) => !uncounted.some((r) => k >= r.first && k <= r.last);
  const size = everyMinutes * MINUTE_MS;
  const cur = Math.floor(now.getTime() / size);
  const first = Math.max(Math.ceil((now.getTime() - windowHours * HOUR_MS) / size), Math.floor(operatingSince.getTime() / size));
  let complete = Math.max(0, cur - first);
  // Slot by slot, so a slot inside two overlapping ranges is removed once.
  for (let k = first; uncounted.length > 0 && k < cur; k++) if (!counts(k)) complete -= 1;
  let ran = 0;
  for (const k of ranSlots) if (k >= first && k < cur && counts(k)) ran += 1;
  const currentRan = cur >= first && ranSlots.has(cur) && counts(cur) ? 1 : 0;
  return { scheduled: complete + currentRan, ran: ran + currentRan, missed: complete - ran };
}

/** The instant a run counts in: the slot it was due for (scheduled_at), else its start. */
const slotTime = (r: RunRecord): number => Date.parse(r.scheduled_at ?? r.started_at);

/** What the run windows give: the members of Status computed from the runs. */
export interface RunWindows {
  cycle_every_minutes: number;
  operating_since: string | null;
  backfills: Backfill[];
  jobs: JobStatus[];
  latest_runs: RunRecord[];
}

/**
 * The run windows at `now` over `runs` (pure). Only runs that had started by `now` count (a later one
 * does not exist yet at that instant). A run counts in a job's slot when its kind is the job's, its
 * status is ok or partial and its slot time (scheduled_at, else started_at) is at or before `now`.
 * `operating_since` (the first recorded run) limits the slots counted; it is null, and nothing is
 * scheduled, before it. `latest` / `latest_runs`: the latest run by started_at (then id) of each kind,
 * `latest_runs` ordered by kind. `backfills`: the back-fill runs (kind BACKFILL_KIND) that finished
 * ok or partial by `now`, oldest first; the slots of BACKFILL_UNCOUNTED_JOBS inside them are not
 * counted. Each job's slots are those of jobSchedule at the cycle cadence `cycleEveryMinutes` (the one
 * the run log was published with); the whole window is counted at that cadence.
 */
export function runWindows(
  input: { operatingSince: string | null; runs: readonly RunRecord[]; cycleEveryMinutes: number },
  now: Date,
): RunWindows {
  const nowMs = now.getTime();
  const since = input.operatingSince !== null && Date.parse(input.operatingSince) <= nowMs ? input.operatingSince : null;
  const operatingSince = since === null ? null : new Date(since);
  const started = input.runs.filter((r) => Date.parse(r.started_at) <= nowMs);

  const latestByKind = new Map<string, RunRecord>();
  for (const r of started) {
    const cur = latestByKind.get(r.kind);
    const later = !cur || Date.parse(r.started_at) > Date.parse(cur.started_at) || (r.started_at === cur.started_at && r.id > cur.id);
    if (later) latestByKind.set(r.kind, r);
  }

  const backfills: Backfill[] = started
    .filter((r) => r.kind === BACKFILL_KIND && RAN.has(r.status) && r.finished_at !== null && Date.parse(r.finished_at) <= nowMs)
    .sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at))
    .map((r) => ({ from: r.started_at, until: r.finished_at as string, uncounted_jobs: [...BACKFILL_UNCOUNTED_JOBS] }));

  // Slot times of the runs that ran, by kind, read once (a five-minute cadence logs tens of thousands).
  const ranTimes = new Map<string, number[]>();
  for (const r of started) {
    if (!RAN.has(r.status)) continue;
    const times = ranTimes.get(r.kind) ?? [];
    times.push(slotTime(r));
    ranTimes.set(r.kind, times);
  }

  const jobs = (Object.entries(jobSchedule(input.cycleEveryMinutes)) as [JobKind, number][]).map(([kind, everyMinutes]): JobStatus => {
    const size = everyMinutes * MINUTE_MS;
    const uncounted = BACKFILL_UNCOUNTED_JOBS.includes(kind)
      ? backfills.map((b) => backfillSlots(b, everyMinutes)).filter((r): r is SlotRange => r !== null)
      : [];
    const ranSlots = new Set<number>();
    for (const t of ranTimes.get(kind) ?? []) if (t <= nowMs) ranSlots.add(Math.floor(t / size));
    const w = (h: number) => windowFigures({ now, everyMinutes, windowHours: h, operatingSince, ranSlots, uncounted });
    return {
      kind,
      every_minutes: everyMinutes,
      windows: { '24h': w(STATUS_WINDOWS['24h']), '7d': w(STATUS_WINDOWS['7d']), '30d': w(STATUS_WINDOWS['30d']) },
      latest: latestByKind.get(kind) ?? null,
    };
  });
  const latest_runs = [...latestByKind.values()].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  return { cycle_every_minutes: input.cycleEveryMinutes, operating_since: since, backfills, jobs, latest_runs };
}
