import { describe, expect, it } from 'vitest';
import { migrateCluster, openCluster } from '../../../pipeline/cluster/index.ts';
import { runCycle } from '../../../pipeline/cycle/index.ts';
import { migrateQueue, runWorker } from '../../../pipeline/probe/queue/index.ts';
import { postgresGate, useTestPostgres } from '../../helpers/postgres.ts';
import { cronWorld, MIN } from '../../integration/cron-world.ts';

/**
 * `atlas cycle` as cron runs it on the writer with cluster.postgres set: the probe step enqueues the
 * due call instead of probing it, a worker (in process here; as processes in
 * test/pipeline/probe/queue/worker.test.ts) checks it, and the next cycle loads that check into
 * DuckDB under the slot it was enqueued for. With PostgreSQL stopped, the steps that need it fail
 * and the rest of the cycle still runs; once it is back, the next cycle catches up.
 */
const gate = postgresGate('atlas cycle on the probe queue');

const CYCLE = { skipRegistries: true, snapshot: false, verifySample: 5, probe: { timeoutMs: 5_000 }, publish: { pages: false } };

describe.skipIf(!gate.present)('atlas cycle with the probe queue on', () => {
  const server = useTestPostgres();

  it('enqueues, a worker checks, the next cycle loads; an outage fails only the steps that need PostgreSQL', async () => {
    const url = await server.database();
    const cluster = openCluster(url);
    const world = await cronWorld(5, undefined, { cluster: { postgres: url } });
    try {
      await migrateCluster(cluster);
      await migrateQueue(cluster);
      const checks = async () =>
        world.store.all<{ operation: string; slot: string; kind: string }>(
          `SELECT c.operation, strftime(c.slot, '%H:%M') AS slot, r.kind FROM checks c JOIN runs r ON r.id = c.run_id ORDER BY ALL`,
        );
      const failed = (r: Awaited<ReturnType<typeof runCycle>>) => r.steps.filter((s) => s.status === 'failed').map((s) => s.step);

      // 00:00:30: the call is enqueued, not probed; the documentation page is checked locally.
      expect(failed(await runCycle(world.ctx, world.store, CYCLE))).toEqual([]);
      expect(await checks()).toEqual([{ operation: 'docs', slot: '00:00', kind: 'docs' }]);

      const done = await runWorker(world.ctx, cluster, { untilEmpty: true, pollMs: 50, maintenanceSeconds: 1 });
      expect(done).toMatchObject({ jobs: 1, checks: 1, written: 1, abandoned: 0 });

      // 00:05:30: the check the worker wrote back is loaded under the 00:00 slot, by the run that enqueued it.
      world.clock.advance(5 * MIN);
      expect(failed(await runCycle(world.ctx, world.store, CYCLE))).toEqual([]);
      expect(await checks()).toEqual([
        { operation: 'docs', slot: '00:00', kind: 'docs' },
        { operation: 'primary', slot: '00:00', kind: 'probe' },
      ]);

      // PostgreSQL down: the inbox and probe steps fail with storage_unavailable; compute and publish run.
      await server.stop();
      world.clock.advance(5 * MIN);
      const outage = await runCycle(world.ctx, world.store, CYCLE);
      expect(failed(outage)).toEqual(['ingest_inbox', 'probe']);
      for (const s of outage.steps.filter((x) => x.status === 'failed')) expect(s.error).toMatch(/PostgreSQL at .* is unreachable/);
      expect(outage.steps.find((s) => s.step === 'publish')?.status).toBe('ok');

      // Back: the next hour's slot is enqueued, checked and loaded; nothing is checked twice.
      await server.start();
      world.clock.advance(50 * MIN);
      expect(failed(await runCycle(world.ctx, world.store, CYCLE))).toEqual([]);
      expect(await runWorker(world.ctx, cluster, { untilEmpty: true, pollMs: 50, maintenanceSeconds: 1 })).toMatchObject({
        jobs: 1,
        written: 1,
      });
      world.clock.advance(5 * MIN);
      expect(failed(await runCycle(world.ctx, world.store, CYCLE))).toEqual([]);
      expect((await checks()).filter((c) => c.operation === 'primary')).toEqual([
        { operation: 'primary', slot: '00:00', kind: 'probe' },
        { operation: 'primary', slot: '01:00', kind: 'probe' },
      ]);
    } finally {
      await server.start();
      await cluster.close();
      await world.close();
    }
  }, 60_000);
});
