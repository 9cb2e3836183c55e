import { describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../../pipeline/core/config.ts';
import { runCycle } from '../../../pipeline/cycle/index.ts';
import { runDocs } from '../../../pipeline/docs/run-docs.ts';
import { lastRunAt, newRunId, RUN_ID_RE, withRun, withStore } from '../../../pipeline/store/index.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';

interface RunRow {
  id: string;
  kind: string;
  status: string;
  scheduled_at: string | null;
  started_at: string;
  finished_at: string | null;
  counts: string | null;
  error: string | null;
  args: string | null;
}

const ROW = 'SELECT id, kind, status, scheduled_at, started_at, finished_at, counts, error, args FROM runs';

describe('runs: one helper, one id format', () => {
  it('the id format: <kind>_<UTC time to the second>_<8 hex>', () => {
    const id = newRunId('ingest_x402', new Date('2026-11-26T05:39:11.123Z'));
    expect(id).toMatch(/^ingest_x402_20261126T053911Z_[0-9a-f]{8}$/);
    expect(id).toMatch(RUN_ID_RE);
    expect(newRunId('probe', new Date(0))).not.toBe(newRunId('probe', new Date(0)));
    expect(() => newRunId('Bad Kind', new Date(0))).toThrow(/run kind/);
  });

  it('records running, then ok or partial with counts; a throw is recorded failed with its message and re-thrown', async () => {
    const t = tempDir();
    try {
      const store = await openTestStore(t.dir);
      try {
        const clock = testClock('2026-11-25T12:00:00Z');
        let seenWhileRunning: RunRow[] = [];
        const out = await withRun(
          store,
          'compute',
          { clock, scheduledAt: new Date('2026-11-25T12:00:00Z'), args: { scope: 'full' } },
          async (run) => {
            seenWhileRunning = await store.all<RunRow>(`${ROW} WHERE id = $1`, [run.id]);
            clock.advance(90_000);
            run.counts = { rows: 3 };
            return run.id;
          },
        );
        expect(seenWhileRunning).toEqual([expect.objectContaining({ id: out, status: 'running', finished_at: null })]);
        expect(await store.all<RunRow>(`${ROW} WHERE id = $1`, [out])).toEqual([
          {
            id: out,
            kind: 'compute',
            status: 'ok',
            scheduled_at: '2026-11-25 12:00:00',
            started_at: '2026-11-25 12:00:00',
            finished_at: '2026-11-25 12:01:30',
            counts: '{"rows":3}',
            error: null,
            args: '{"scope":"full"}',
          },
        ]);

        await withRun(store, 'cycle', { clock }, async (run) => {
          run.status = 'partial';
          run.error = 'probe: unreachable';
        });
        const [partial] = await store.all<RunRow>(`${ROW} WHERE kind = 'cycle'`);
        expect(partial).toMatchObject({ status: 'partial', error: 'probe: unreachable', scheduled_at: null });

        let failedId = '';
        await expect(
          withRun(store, 'publish', { clock }, async (run) => {
            failedId = run.id;
            run.counts = { services: 2 };
            clock.advance(1_000);
            throw new Error('disk full');
          }),
        ).rejects.toThrow('disk full');
        expect(await store.all<RunRow>(`${ROW} WHERE id = $1`, [failedId])).toEqual([
          expect.objectContaining({
            kind: 'publish',
            status: 'failed',
            error: 'disk full',
            counts: '{"services":2}',
            finished_at: '2026-11-25 12:01:31',
          }),
        ]);
        // A failed run is not a successful one for the cycle's cadence.
        expect(await lastRunAt(store, 'publish')).toBeNull();
        expect(await lastRunAt(store, 'compute')).toEqual(new Date('2026-11-25T12:00:00Z'));

        // A run rolled back inside its own transaction still leaves its record.
        await expect(
          withRun(store, 'report', { clock }, () =>
            store.transaction(async () => {
              await store.run("INSERT INTO runs (id, kind, started_at, status) VALUES ('x', 'x', now(), 'ok')");
              throw new Error('week not over');
            }),
          ),
        ).rejects.toThrow('week not over');
        expect(await store.all(`SELECT kind, status, error FROM runs WHERE kind IN ('report', 'x')`)).toEqual([
          { kind: 'report', status: 'failed', error: 'week not over' },
        ]);
      } finally {
        store.close();
      }
    } finally {
      t.cleanup();
    }
  });

  it('every run kind a cycle and `atlas docs` write uses the one id format', async () => {
    const t = tempDir();
    try {
      const clock = testClock('2026-11-25T12:02:00Z');
      const samples = makeContext(t.dir).paths.samples;
      const config = parseConfig({
        registries: [
          { kind: 'x402', source: join(samples, 'x402-registry.json'), name: 'cdp' },
          { kind: 'mcp', source: join(samples, 'mcp-registry.json'), name: 'official' },
        ],
        // The sample registries list *.example hosts: mapped to loopback, which the probe's private
        // address guard refuses before connecting, so no probe leaves the machine (and none waits).
        probe: { resolve: { '*.example': '127.0.0.1' }, allowPrivate: false, timeoutMs: 1_000 },
      });
      const ctx = makeContext(t.dir, { clock, config });
      ctx.paths.listings = join(t.dir, 'listings');
      mkdirSync(ctx.paths.listings);
      const result = await withStore(ctx.paths.db, async (s) => {
        const r = await runCycle(ctx, s, { force: true });
        await runDocs(ctx, s);
        return r;
      });
      expect(result.steps.filter((s) => s.status === 'failed')).toEqual([]);
      const runs = await withStore(ctx.paths.db, (s) => s.all<RunRow>(`${ROW} ORDER BY kind`));
      expect([...new Set(runs.map((r) => r.kind))]).toEqual([
        'archive',
        'compute',
        'cycle',
        'docs',
        'ingest_listings',
        'ingest_mcp',
        'ingest_x402',
        'moderate',
        'probe',
        'publish',
        'report',
        'snapshot',
      ]);
      for (const r of runs) {
        expect(r.id, r.kind).toMatch(RUN_ID_RE);
        expect(r.id.startsWith(`${r.kind}_`), r.id).toBe(true);
        expect(r.status, r.kind).not.toBe('running');
      }
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
