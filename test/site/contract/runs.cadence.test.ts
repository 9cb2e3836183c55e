import { describe, expect, it } from 'vitest';
import { FULL_EVALUATION_EVERY_MS } from '../../../pipeline/compute/directory.ts';
import { CADENCE_MS } from '../../../pipeline/cycle/due.ts';
import { mondayOf } from '../../../pipeline/core/week.ts';
import { HEALTH_PROBE_MAX_AGE_MS } from '../../../site/contract/health.ts';
import { parseConfig } from '../../../pipeline/core/config.ts';
import { CYCLE_MINUTES, JOB_CADENCE, jobEveryMs, jobSchedule, jobSlotStart, runWindows } from '../../../site/contract/run-windows.ts';
import type { RunRecord } from '../../../site/contract/runs.ts';

const HOUR = 3_600_000;

describe('every job cadence comes from the contract schedule (JOB_CADENCE) and the configured cycle', () => {
  it('probe, compute and publish follow the cycle; docs daily, report weekly whatever the cycle', () => {
    for (const c of CYCLE_MINUTES) {
      expect(jobSchedule(c)).toEqual({ probe: c, compute: c, publish: c, docs: 1440, report: 10080 });
      expect(jobEveryMs('probe', c)).toBe(c * 60_000);
    }
    expect(JOB_CADENCE.docs * 60_000).toBe(24 * HOUR);
    // Ingest is not a status job: its own cadence.
    expect(CADENCE_MS.ingest_listings).toBe(HOUR);
    // The full directory evaluation and the health limit are hourly rules, not the cycle's.
    expect(FULL_EVALUATION_EVERY_MS).toBe(HOUR);
    expect(HEALTH_PROBE_MAX_AGE_MS).toBe(2 * HOUR);
    expect(jobSlotStart('compute', new Date('2026-11-25T10:42:00Z'), 60).toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(jobSlotStart('compute', new Date('2026-11-25T10:42:00Z'), 5).toISOString()).toBe('2026-11-25T10:40:00.000Z');
    expect(jobSlotStart('docs', new Date('2026-11-25T10:42:00Z'), 5).toISOString()).toBe('2026-11-25T00:00:00.000Z');
  });

  it('the cycle cadence is a config value: default 5, a divisor of 60, anything else refused', () => {
    expect(parseConfig({}).cycle.everyMinutes).toBe(5);
    expect(parseConfig({ cycle: { everyMinutes: 60 } }).cycle.everyMinutes).toBe(60);
    for (const m of [0, 7, 90, -5, 2.5]) expect(() => parseConfig({ cycle: { everyMinutes: m } })).toThrow(/cycle\.everyMinutes/);
    expect(() => parseConfig({ cycle: { every_minutes: 5 } })).toThrow(/cycle/);
  });
});

describe('report runs (scheduled at the Monday of their week) and the weekly status slots agree', () => {
  const report = (monday: Date, i: number): RunRecord => ({
    id: `run_r${i}`,
    kind: 'report',
    status: 'ok',
    scheduled_at: monday.toISOString(),
    started_at: new Date(monday.getTime() + 10 * 60_000).toISOString(),
    finished_at: new Date(monday.getTime() + 11 * 60_000).toISOString(),
  });
  const start = mondayOf(new Date('2026-09-01T00:00:00Z'));
  const weeks = 8;
  const mondays = Array.from({ length: weeks }, (_, i) => new Date(start.getTime() + i * 7 * 24 * HOUR));
  const reportJob = (runs: RunRecord[], now: Date) => {
    const w = runWindows({ operatingSince: start.toISOString(), runs, cycleEveryMinutes: 5 }, now);
    return w.jobs.find((j) => j.kind === 'report')!.windows['30d'];
  };

  it('every weekly slot holds exactly one report week start', () => {
    for (const m of mondays) {
      const slot = jobSlotStart('report', m, 5).getTime();
      const inSlot = mondays.filter((x) => jobSlotStart('report', x, 5).getTime() === slot);
      expect(inSlot).toHaveLength(1);
    }
  });

  it('a report every Monday leaves no weekly slot missed, at any hour; one skipped Monday is one missed slot', () => {
    const all = mondays.map(report);
    const end = mondays[weeks - 1]!.getTime() + 12 * HOUR;
    for (let t = start.getTime() + 12 * HOUR; t <= end; t += 6 * HOUR) {
      const now = new Date(t);
      const ran = all.filter((r) => Date.parse(r.started_at) <= t);
      expect(reportJob(ran, now).missed, now.toISOString()).toBe(0);
    }
    const skipped = all.filter((_, i) => i !== 4);
    expect(reportJob(skipped, new Date(end)).missed).toBe(1);
  });
});
