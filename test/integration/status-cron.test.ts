import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../pipeline/core/config.ts';
import { CADENCE_MS, isDue } from '../../pipeline/cycle/index.ts';
import { ingestListings } from '../../pipeline/ingest/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { runCli } from '../helpers/cli.ts';
import { makeContext, tempDir, testClock } from '../helpers/context.ts';
import { byJob, CRON_RESOLVE, cronWorld, HOUR, MIN, pageRow, runKinds, START, served, startService, writeListing } from './cron-world.ts';

/**
 * Status under cron at the default cadence (config cycle.everyMinutes, five minutes): the jobs every
 * cycle runs (probe, compute) are expected every five minutes, publish hourly, docs daily, report
 * weekly. And the path cron takes: `atlas cycle` as a process records each job under its own kind.
 */
describe('status under cron at the default five-minute cadence', () => {
  it('an hour of cycles: zero missed; three hours without a cycle: exactly 36 missed slots of each job due every cycle', async () => {
    const world = await cronWorld(); // the config's default cadence
    try {
      expect(world.ctx.config.cycle.everyMinutes).toBe(5);
      // An hour (twelve cycles) holds every claim two did: the windows count from the first run.
      expect(await world.cron(HOUR)).toBe(12);
      expect(await runKinds(world.store)).toMatchObject({ cycle: 12, probe: 12, docs: 12, compute: 12, publish: 12, report: 1 });

      world.clock.set(new Date(START + HOUR - 3 * MIN)); // two minutes after the last cycle
      const steady = await served(world);
      expect(steady.status.cycle_every_minutes).toBe(5);
      expect(byJob(steady.status, '24h')).toEqual({
        probe: { scheduled: 12, ran: 12, missed: 0 },
        compute: { scheduled: 12, ran: 12, missed: 0 },
        publish: { scheduled: 12, ran: 12, missed: 0 },
        docs: { scheduled: 1, ran: 1, missed: 0 },
        report: { scheduled: 0, ran: 0, missed: 0 },
      });
      expect(steady.page).toContain('<dt>Expected cycle</dt><dd>every 5 min');
      expect(pageRow(steady.page, 'probe')).toContain('<td>every 5 min</td><td class="num">12/12</td>');
      expect(pageRow(steady.page, 'docs')).toContain('<td>daily</td><td class="num">1/1</td>');

      // Cron stops from 01:00 to 04:00: 36 five-minute slots.
      world.clock.set(new Date(START + 4 * HOUR));
      const gap = await served(world);
      expect(byJob(gap.status, '24h')).toEqual({
        probe: { scheduled: 48, ran: 12, missed: 36 },
        compute: { scheduled: 48, ran: 12, missed: 36 },
        publish: { scheduled: 48, ran: 12, missed: 36 },
        docs: { scheduled: 1, ran: 1, missed: 0 },
        report: { scheduled: 0, ran: 0, missed: 0 },
      });
      expect(pageRow(gap.page, 'probe')).toContain('12/48 <span class="no">(36 missed)</span>');

      // Cron resumes for an hour; the gap stays exactly what it was.
      await world.cron(HOUR);
      world.clock.set(new Date(START + 5 * HOUR - 3 * MIN));
      const after = await served(world);
      expect(byJob(after.status, '24h')).toEqual({
        probe: { scheduled: 60, ran: 24, missed: 36 },
        compute: { scheduled: 60, ran: 24, missed: 36 },
        publish: { scheduled: 60, ran: 24, missed: 36 },
        docs: { scheduled: 1, ran: 1, missed: 0 },
        report: { scheduled: 0, ran: 0, missed: 0 },
      });
    } finally {
      await world.close();
    }
  }, 600_000);
});

describe('`atlas cycle` and `atlas probe` as processes record every job under its own kind', () => {
  it('two cron cycles record cycle, probe, docs, compute and publish runs; the docs page is checked under docs', async () => {
    const t = tempDir('atlas-status-cron-cli-');
    const svc = await startService();
    try {
      const configFile = join(t.dir, 'atlas.config.json');
      writeFileSync(configFile, JSON.stringify({ probe: { resolve: CRON_RESOLVE, allowPrivate: true } }));
      const config = parseConfig(JSON.parse(JSON.stringify({ probe: { resolve: CRON_RESOLVE, allowPrivate: true } })));
      const t0 = new Date(START - 30_000); // 00:00:00
      const listings = join(t.dir, 'listings');
      writeListing(listings, svc.port);
      // The CLI reads the project's data/listings, whose real hosts a test must never reach: the test
      // service's listing is ingested here first, so in the CLI cycles below ingest_listings is not
      // due (it is hourly) and the cycles probe the loopback service only.
      const ctx = makeContext(t.dir, { clock: testClock(t0.toISOString()), config });
      ctx.paths.listings = listings;
      await withStore(ctx.paths.db, async (s) => {
        await migrate(s, t0);
        expect((await ingestListings(ctx, s, listings)).counts.loaded).toBe(1);
      });
      const times = [t0.getTime() + MIN, t0.getTime() + 6 * MIN];
      for (const at of times) expect(isDue(t0, new Date(at), CADENCE_MS.ingest_listings)).toBe(false);

      const base = ['--data', t.dir, '--config', configFile];
      for (const at of times) {
        const r = await runCli([...base, '--now', new Date(at).toISOString(), 'cycle', '--skip-registries'], { timeoutMs: 120_000 });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toMatch(/ingest_listings: skipped/);
        expect(r.stderr).toMatch(/probe: ok/);
        expect(r.stderr).toMatch(/docs: ok/);
      }
      // `atlas probe` (calls and documentation) records one run of each kind.
      const probeAt = new Date(t0.getTime() + 11 * MIN).toISOString();
      const p = await runCli([...base, '--now', probeAt, 'probe']);
      expect(p.code, p.stderr).toBe(0);
      expect(p.stderr).toMatch(/^probe: 0\/0 due checked/m);
      expect(p.stderr).toMatch(/^docs: 0\/0 due checked/m);

      const db = await withStore(
        ctx.paths.db,
        async (s) => ({
          runs: await s.all<{ kind: string; started_at: string; status: string }>(
            `SELECT kind, strftime(started_at, '%H:%M') AS started_at, status FROM runs
             WHERE kind IN ('cycle', 'probe', 'docs', 'compute', 'publish') ORDER BY started_at, kind`,
          ),
          checks: await s.all<{ operation: string; kind: string }>(
            'SELECT c.operation, r.kind FROM checks c JOIN runs r ON r.id = c.run_id ORDER BY c.operation',
          ),
        }),
        { readOnly: true },
      );
      const at = (hm: string, kinds: string[]) => kinds.map((kind) => ({ kind, started_at: hm, status: 'ok' }));
      expect(db.runs).toEqual([
        ...at('00:01', ['compute', 'cycle', 'docs', 'probe', 'publish']),
        ...at('00:06', ['compute', 'cycle', 'docs', 'probe', 'publish']),
        ...at('00:11', ['docs', 'probe']),
      ]);
      expect(db.checks).toEqual([
        { operation: 'docs', kind: 'docs' },
        { operation: 'primary', kind: 'probe' },
      ]);

      // The tree the CLI published, served: nothing missed.
      const serveCtx = makeContext(t.dir, { clock: testClock(new Date(t0.getTime() + 9 * MIN).toISOString()), config });
      const { status } = await served({ ctx: serveCtx });
      expect(status.cycle_every_minutes).toBe(5);
      expect(byJob(status, '24h')).toMatchObject({
        probe: { scheduled: 2, ran: 2, missed: 0 },
        compute: { scheduled: 2, ran: 2, missed: 0 },
        publish: { scheduled: 2, ran: 2, missed: 0 },
        docs: { scheduled: 1, ran: 1, missed: 0 },
      });
    } finally {
      await new Promise<void>((resolve) => svc.server.close(() => resolve()));
      t.cleanup();
    }
  }, 300_000);
});
