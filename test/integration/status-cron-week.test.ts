import { describe, expect, it } from 'vitest';
import { byJob, cronWorld, HOUR, MIN, pageRow, runKinds, served, WEDNESDAY } from './cron-world.ts';

/**
 * `atlas cycle` at an hourly cadence on the simulated clock, from a Wednesday for a day and a half:
 * every job the status windows count is recorded under its own kind by the cycle, so a cron that
 * never missed shows zero missed runs; cycles stopped for three hours show exactly the slots of those
 * three hours as missed, per job at its own cadence (probe, compute and publish hourly here; docs
 * daily; report weekly).
 *
 * Why not a whole week: every window counts slots from the later of its start and the first recorded
 * run (windowFigures, site/contract/run-windows.ts), so a 7-day window over 36 hours of history holds
 * the same claims as over 168, at a fifth of the cycles. What needs real elapsed slots is all here:
 * a daily boundary (two documentation slots), the Thursday weekly boundary (the report slot that ended
 * lies before the 7-day window, inside the 30-day one), and history longer than 24 hours, so the
 * 24-hour window slides past the first cycles when cron resumes.
 */
describe('status under cron: every job recorded under its own kind, at the configured cadence', () => {
  it('36 hours of hourly cycles: zero missed runs; three hours without a cycle: exactly three missed slots of each hourly job', async () => {
    const S = WEDNESDAY;
    const world = await cronWorld(60, S);
    try {
      const cycles = await world.cron(36 * HOUR);
      expect(cycles).toBe(36);
      // Each cycle recorded its probe, docs and compute runs; documentation pages were checked under docs.
      const kinds = await runKinds(world.store);
      expect(kinds).toMatchObject({ cycle: 36, probe: 36, docs: 36, compute: 36, publish: 36, report: 1 });
      const [docChecks] = await world.store.all<{ docs: number; other: number }>(
        `SELECT count(*) FILTER (WHERE r.kind = 'docs')::INTEGER AS docs, count(*) FILTER (WHERE r.kind <> 'docs')::INTEGER AS other
         FROM checks c JOIN runs r ON r.id = c.run_id WHERE c.operation = 'docs'`,
      );
      expect(docChecks).toEqual({ docs: 2, other: 0 });

      // Ten minutes after the last cycle (Thursday 11:00).
      world.clock.set(new Date(S + 35 * HOUR + 10 * MIN));
      const steady = await served(world);
      expect(steady.status.cycle_every_minutes).toBe(60);
      expect(Object.fromEntries(steady.status.jobs.map((j) => [j.kind, j.every_minutes]))).toEqual({
        probe: 60,
        compute: 60,
        publish: 60,
        docs: 1440,
        report: 10080,
      });
      expect(byJob(steady.status, '7d')).toEqual({
        probe: { scheduled: 36, ran: 36, missed: 0 },
        compute: { scheduled: 36, ran: 36, missed: 0 },
        publish: { scheduled: 36, ran: 36, missed: 0 },
        docs: { scheduled: 2, ran: 2, missed: 0 },
        // Weekly slots are epoch-aligned (Thursdays): the one that ended began before the 7 days.
        report: { scheduled: 0, ran: 0, missed: 0 },
      });
      expect(byJob(steady.status, '30d')).toEqual({ ...byJob(steady.status, '7d'), report: { scheduled: 1, ran: 1, missed: 0 } });
      expect(byJob(steady.status, '24h')).toEqual({
        probe: { scheduled: 24, ran: 24, missed: 0 },
        compute: { scheduled: 24, ran: 24, missed: 0 },
        publish: { scheduled: 24, ran: 24, missed: 0 },
        docs: { scheduled: 1, ran: 1, missed: 0 },
        report: { scheduled: 0, ran: 0, missed: 0 },
      });
      expect(steady.page).toContain('<dt>Expected cycle</dt><dd>hourly');
      expect(steady.page).not.toContain('missed)');
      expect(pageRow(steady.page, 'probe')).toContain('<td>hourly</td><td class="num">24/24</td><td class="num">36/36</td>');
      expect(pageRow(steady.page, 'docs')).toContain('<td>daily</td><td class="num">1/1</td><td class="num">2/2</td>');

      // Cron stops for three hours (the slots 12:00, 13:00 and 14:00 of Thursday), then resumes.
      world.clock.set(new Date(S + 36 * HOUR + 3 * HOUR));
      const gap = await served(world);
      const gapFigures = {
        probe: { scheduled: 39, ran: 36, missed: 3 },
        compute: { scheduled: 39, ran: 36, missed: 3 },
        publish: { scheduled: 39, ran: 36, missed: 3 },
        docs: { scheduled: 2, ran: 2, missed: 0 },
      };
      expect(byJob(gap.status, '7d')).toEqual({ ...gapFigures, report: { scheduled: 0, ran: 0, missed: 0 } });
      expect(byJob(gap.status, '30d')).toEqual({ ...gapFigures, report: { scheduled: 1, ran: 1, missed: 0 } });
      expect(pageRow(gap.page, 'probe')).toContain('36/39 <span class="no">(3 missed)</span>');
      expect(pageRow(gap.page, 'docs')).not.toContain('missed');

      // Cron resumes: cycles at 15:00 and 16:00; served ten minutes after the last one. The 24-hour
      // window now starts at Wednesday 17:00, past the first seventeen cycles.
      await world.cron(2 * HOUR);
      world.clock.set(new Date(S + 36 * HOUR + 4 * HOUR + 10 * MIN));
      const after = await served(world);
      expect(byJob(after.status, '24h')).toEqual({
        probe: { scheduled: 24, ran: 21, missed: 3 },
        compute: { scheduled: 24, ran: 21, missed: 3 },
        publish: { scheduled: 24, ran: 21, missed: 3 },
        docs: { scheduled: 1, ran: 1, missed: 0 },
        report: { scheduled: 0, ran: 0, missed: 0 },
      });
      expect(byJob(after.status, '7d').probe).toEqual({ scheduled: 41, ran: 38, missed: 3 });
    } finally {
      await world.close();
    }
  }, 900_000); // 40 real cycles: about a minute idle, many on a loaded machine
});
