import { describe, expect, it } from 'vitest';
import { backfillTimes, createSimClock, demoOutage, demoTimeline, formatSummary, historyStart, stepPlan } from '../../../cli/demo/index.ts';

// The demo's pure parts (cli/demo): the back-fill calendar, the step plan, the clock, the
// scripted timeline and the printed summary.
const end = new Date('2026-11-25T22:40:00Z');

describe('backfillTimes', () => {
  it('steps every coarse interval, then hourly for the recent hours, hour-aligned plus a minute, oldest first', () => {
    const t = backfillTimes(end, { days: 2, coarseHours: 6, recentHours: 6 });
    const iso = t.map((d) => d.toISOString());
    expect(iso[0]).toBe('2026-11-23T22:01:00.000Z');
    expect(iso.slice(0, 8)).toEqual([
      '2026-11-23T22:01:00.000Z',
      '2026-11-24T04:01:00.000Z',
      '2026-11-24T10:01:00.000Z',
      '2026-11-24T16:01:00.000Z',
      '2026-11-24T22:01:00.000Z',
      '2026-11-25T04:01:00.000Z',
      '2026-11-25T10:01:00.000Z',
      '2026-11-25T16:01:00.000Z',
    ]);
    expect(iso.slice(-6)).toEqual(['17', '18', '19', '20', '21', '22'].map((h) => `2026-11-25T${h}:01:00.000Z`));
    for (let i = 1; i < t.length; i++) expect(t[i]!.getTime()).toBeGreaterThan(t[i - 1]!.getTime());
    expect(t[t.length - 1]!.getTime()).toBeLessThanOrEqual(end.getTime());
  });
  it('the default plan (14 days, 6 h, last 24 h hourly) is 53 coarse + 24 hourly cycles', () => {
    const t = backfillTimes(end, { days: 14, coarseHours: 6, recentHours: 24 });
    expect(t).toHaveLength(77);
    const hourly = t.slice(-24).map((d) => d.getTime());
    for (let i = 1; i < hourly.length; i++) expect(hourly[i]! - hourly[i - 1]!).toBe(3_600_000);
  });
  it('the demo default (every hour) fills every hourly slot of 14 days except the one 3-hour Atlas outage', () => {
    const outage = demoOutage(end, 14);
    expect(outage.end.getTime() - outage.start.getTime()).toBe(3 * 3_600_000);
    // Day 10 of 14: 218 hours after the history starts.
    expect(outage.start.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    const t = backfillTimes(end, { days: 14, coarseHours: 1, recentHours: 24, outage });
    expect(t).toHaveLength(14 * 24 + 1 - 3);
    const gaps = t.slice(1).map((d, i) => (d.getTime() - t[i]!.getTime()) / 3_600_000);
    expect(gaps.filter((g) => g !== 1)).toEqual([4]);
    for (const d of t) expect(d.getTime() < outage.start.getTime() || d.getTime() >= outage.end.getTime()).toBe(true);
  });
  it('historyStart is `days` before the last full hour', () => {
    expect(historyStart(end, 14).toISOString()).toBe('2026-11-11T22:00:00.000Z');
  });
});

describe('stepPlan', () => {
  it('reads registries, docs and reports on the first cycle of each day and computes on the last one and at the end', () => {
    const times = ['2026-11-24T16:01Z', '2026-11-24T22:01Z', '2026-11-25T04:01Z', '2026-11-25T10:01Z'].map((s) => new Date(s));
    expect(times.map((_, i) => stepPlan(times, i))).toEqual([
      { daily: true, compute: false },
      { daily: false, compute: true },
      { daily: true, compute: false },
      { daily: false, compute: true },
    ]);
  });
  it('computes on every cycle from computeHourlyFrom on (the last day at the hourly cadence)', () => {
    const times = ['2026-11-25T01:01Z', '2026-11-25T02:01Z', '2026-11-25T03:01Z', '2026-11-25T04:01Z'].map((s) => new Date(s));
    const plans = times.map((_, i) => stepPlan(times, i, new Date('2026-11-25T02:00Z')));
    expect(plans.map((p) => p.compute)).toEqual([false, true, true, true]);
    expect(plans.map((p) => p.daily)).toEqual([true, false, false, false]);
  });
});

describe('createSimClock', () => {
  it('jumps to simulated times and runs on at real speed, then follows the real clock', () => {
    let real = 1_000_000;
    const c = createSimClock(new Date('2026-11-01T00:00:00Z'), () => real);
    expect(c().toISOString()).toBe('2026-11-01T00:00:00.000Z');
    real += 1500;
    expect(c().toISOString()).toBe('2026-11-01T00:00:01.500Z');
    c.set(new Date('2026-11-02T00:00:00Z'));
    real += 10;
    expect(c().toISOString()).toBe('2026-11-02T00:00:00.010Z');
    expect(c.simulated).toBe(true);
    c.followReal();
    expect(c.simulated).toBe(false);
    expect(c().getTime()).toBe(real);
  });
});

describe('demoTimeline', () => {
  it('puts every scripted event inside the history, one outage in the last day', () => {
    const start = historyStart(end, 14);
    const tl = demoTimeline(start, 14);
    const last = start.getTime() + 14 * 86_400_000;
    for (const t of [tl.docsChangeAt, tl.priceChangeAt, tl.payToChangeAt, tl.networkAddedAt]) {
      expect(t.getTime()).toBeGreaterThan(start.getTime());
      expect(t.getTime()).toBeLessThan(last);
    }
    expect(tl.outages).toHaveLength(2);
    expect(last - tl.outages[1]!.start.getTime()).toBeLessThan(86_400_000);
  });
});

describe('formatSummary', () => {
  it('prints the URLs to open and the figures', () => {
    const text = formatSummary(
      {
        services: 305,
        byTier: { reviewed: 6, discovered: 299 },
        byType: { api_endpoint: 224, mcp_server: 80, task_marketplace: 1 },
        inDirectory: 100,
        checks: 5409,
        checksPassed: 3713,
        checks24h: 1084,
        behaviours: 42,
        fleetEndpoints: 300,
        days: 14,
        cycles: 72,
        readyMs: 41_234,
      },
      'http://127.0.0.1:8787',
      { coarseHours: 6, recentHours: 24 },
    );
    expect(text).toContain('ready in 41.2 s');
    expect(text).toContain('Directory        http://127.0.0.1:8787/');
    expect(text).toContain('http://127.0.0.1:8787/mcp');
    expect(text).toContain('1 task marketplace)');
    expect(text).toContain('In the directory: 100');
    expect(text).toContain('Checks recorded: 5409 (3713 passed; 1084 in the last 24 hours)');
    expect(text).toContain('every 6 h, then hourly for the last 24 h');
  });
  it('prints the missed-check share and the outage it comes from', () => {
    const text = formatSummary(
      {
        services: 1,
        byTier: {},
        byType: {},
        inDirectory: 0,
        checks: 990,
        checksPassed: 900,
        checks24h: 24,
        behaviours: 1,
        fleetEndpoints: 1,
        days: 14,
        cycles: 334,
        readyMs: 1000,
        phases: { fleet: 1200, backfill: 30_000, publish: 2100 },
        backfillSteps: { probe: 20_000, compute: 5000 },
        missed: 10,
        expected: 1000,
        missedRuns: { probe: 3, compute: 290, publish: 335, docs: 0, report: 0 },
        outage: { start: new Date('2026-11-21T00:00:00Z'), end: new Date('2026-11-21T03:00:00Z') },
      },
      'http://127.0.0.1:1',
      { coarseHours: 1, recentHours: 24 },
    );
    expect(text).toContain('every scheduled hour, except the outage below');
    expect(text).toContain('Missed runs (status page, 30 days): probe 3, compute 290, publish 335, docs 0, report 0 (the back-fill probes');
    expect(text).toContain('Start-up: fleet 1.2 s, backfill 30.0 s (probe 20.0 s, compute 5.0 s), publish 2.1 s.');
    expect(text).toContain(
      'Missed checks: 10 of 1000 scheduled (1.00%); the simulated Atlas outage 2026-11-21T00:00–03:00 UTC ran no cycle',
    );
  });
});
