import { describe, expect, it } from 'vitest';
import { byJob, cronWorld, HOUR, MIN, pageRow, runKinds, START, served } from './cron-world.ts';

/**
 * A week of `atlas cycle` at an hourly cadence on the simulated clock: every job the status windows
 * count is recorded under its own kind by the cycle, so a cron that never missed shows zero missed
 * runs; cycles stopped for three hours show exactly the slots of those three hours as missed, per job
 * at its own cadence (probe, compute and publish hourly here; docs daily; report weekly).
 */
describe('status under cron: every job recorded under its own kind, at the configured cadence', () => {
  it('a week of hourly cycles: zero missed runs; three hours without a cycle: exactly three missed slots of each hourly job', async () => {
    const world = await cronWorld(60);
    try {
      const cycles = await world.cron(7 * 24 * HOUR);
      expect(cycles).toBe(168);
      // Each cycle recorded its probe, docs and compute runs; documentation pages were checked under docs.
      const kinds = await runKinds(world.store);
      expect(kinds).toMatchObject({ cycle: 168, probe: 168, docs: 168, compute: 168, publish: 168, report: 1 });
      const [docChecks] = await world.store.all<{ docs: number; other: number }>(
        `SELECT count(*) FILTER (WHERE r.kind = 'docs')::INTEGER AS docs, count(*) FILTER (WHERE r.kind <> 'docs')::INTEGER AS other
         FROM checks c JOIN runs r ON r.id = c.run_id WHERE c.operation = 'docs'`,
      );
      expect(docChecks).toEqual({ docs: 7, other: 0 });

      // Ten minutes after the last cycle.
      world.clock.set(new Date(START + 167 * HOUR + 10 * MIN));
      const week = await served(world);
      expect(week.status.cycle_every_minutes).toBe(60);
      expect(Object.fromEntries(week.status.jobs.map((j) => [j.kind, j.every_minutes]))).toEqual({
        probe: 60,
        compute: 60,
        publish: 60,
        docs: 1440,
        report: 10080,
      });
      expect(byJob(week.status, '7d')).toEqual({
        probe: { scheduled: 168, ran: 168, missed: 0 },
        compute: { scheduled: 168, ran: 168, missed: 0 },
        publish: { scheduled: 168, ran: 168, missed: 0 },
        docs: { scheduled: 7, ran: 7, missed: 0 },
        // Weekly slots are epoch-aligned (Thursdays): the one that ended lies before the 7 days.
        report: { scheduled: 0, ran: 0, missed: 0 },
      });
      expect(byJob(week.status, '30d')).toEqual({ ...byJob(week.status, '7d'), report: { scheduled: 1, ran: 1, missed: 0 } });
      for (const j of week.status.jobs) expect(j.windows['24h'].missed, j.kind).toBe(0);
      expect(week.page).toContain('<dt>Expected cycle</dt><dd>hourly');
      expect(week.page).not.toContain('missed)');
      expect(pageRow(week.page, 'probe')).toContain('<td>hourly</td><td class="num">24/24</td><td class="num">168/168</td>');
      expect(pageRow(week.page, 'docs')).toContain('<td>daily</td><td class="num">1/1</td><td class="num">7/7</td>');

      // Cron stops for three hours (the slots 00:00, 01:00 and 02:00 of the next day), then resumes.
      world.clock.set(new Date(START + 7 * 24 * HOUR + 3 * HOUR));
      const gap = await served(world);
      // The 30-day window (the 7-day one slides past the first hours of the week meanwhile).
      expect(byJob(gap.status, '30d')).toEqual({
        probe: { scheduled: 171, ran: 168, missed: 3 },
        compute: { scheduled: 171, ran: 168, missed: 3 },
        publish: { scheduled: 171, ran: 168, missed: 3 },
        docs: { scheduled: 7, ran: 7, missed: 0 },
        report: { scheduled: 1, ran: 1, missed: 0 },
      });
      expect(pageRow(gap.page, 'probe')).toContain('168/171 <span class="no">(3 missed)</span>');
      expect(pageRow(gap.page, 'docs')).not.toContain('missed');

      // Cron resumes: cycles at 03:00 and 04:00; served ten minutes after the last one.
      await world.cron(2 * HOUR);
      world.clock.set(new Date(START + 7 * 24 * HOUR + 4 * HOUR + 10 * MIN));
      const after = await served(world);
      expect(byJob(after.status, '24h')).toEqual({
        probe: { scheduled: 24, ran: 21, missed: 3 },
        compute: { scheduled: 24, ran: 21, missed: 3 },
        publish: { scheduled: 24, ran: 21, missed: 3 },
        docs: { scheduled: 1, ran: 1, missed: 0 },
        report: { scheduled: 0, ran: 0, missed: 0 },
      });
      expect(byJob(after.status, '7d').probe).toEqual({ scheduled: 168, ran: 165, missed: 3 });
    } finally {
      await world.close();
    }
  }, 2_400_000);
});
