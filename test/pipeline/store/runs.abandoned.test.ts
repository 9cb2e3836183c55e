import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtlasError } from '../../../pipeline/core/errors.ts';
import { PROJECT_ROOT } from '../../../pipeline/core/paths.ts';
import { abandonedReason, closeAbandonedRuns, openStore, withRun } from '../../../pipeline/store/index.ts';
import { openTestStore, tempDir, testClock } from '../../helpers/context.ts';

const RUN = 'SELECT id, kind, status, finished_at, error FROM runs';

/** A pipeline process that starts a run and dies in it (test/integration/chaos-hold-child.ts). */
function holdRun(db: string, kind: string, at: string): Promise<{ child: ChildProcess; runId: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'test', 'integration', 'chaos-hold-child.ts'), db, kind, at],
    {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /running (\S+)\n/.exec(out);
      if (m) resolve({ child, runId: m[1]! });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('close', (code) => reject(new Error(`hold child ended (${code}) before its run started: ${err}`)));
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.on('close', () => resolve());
    child.kill('SIGKILL');
  });

describe('runs left running by a dead process', () => {
  it('a second writer cannot open the file while the first lives; once it is killed, the next run closes its run as abandoned', async () => {
    const t = tempDir();
    const db = join(t.dir, 'atlas.duckdb');
    try {
      const { child, runId } = await holdRun(db, 'probe', '2026-11-25T12:00:00Z');
      try {
        // The fact closeAbandonedRuns stands on: one read-write process per DuckDB file.
        const err = await openStore(db, { lockWaitMs: 300 }).then(
          (s) => {
            s.close();
            return null;
          },
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(AtlasError);
        expect((err as AtlasError).code).toBe('locked');
      } finally {
        await killed(child);
      }

      const store = await openStore(db);
      try {
        // DuckDB replayed what the killed process committed: its run row is there, still running.
        expect(await store.all(RUN)).toEqual([{ id: runId, kind: 'probe', status: 'running', finished_at: null, error: null }]);
        const clock = testClock('2026-11-25T13:00:00Z');
        const compute = await withRun(store, 'compute', { clock }, async (run) => run.id);
        expect(await store.all(`${RUN} WHERE id = $1`, [runId])).toEqual([
          { id: runId, kind: 'probe', status: 'failed', finished_at: '2026-11-25 13:00:00', error: abandonedReason(compute) },
        ]);
        expect(abandonedReason(compute)).toBe(`abandoned: the process ended before the run finished (found by run ${compute})`);
        expect(await store.all(`SELECT count(*)::INT AS n FROM runs WHERE status = 'running'`)).toEqual([{ n: 0 }]);
      } finally {
        store.close();
      }
    } finally {
      t.cleanup();
    }
  }, 60_000);

  it('never closes a run this process still has in flight, and sweeps once per opened store', async () => {
    const t = tempDir();
    try {
      const store = await openTestStore(t.dir);
      try {
        const clock = testClock('2026-11-25T12:00:00Z');
        await store.run(
          `INSERT INTO runs (id, kind, started_at, status) VALUES ('probe_20261125T110000Z_00000000', 'probe', '2026-11-25 11:00:00', 'running')`,
        );
        await withRun(store, 'cycle', { clock }, async (cycle) => {
          // The cycle's own first run swept: the dead probe is closed, the cycle itself is live.
          expect(await store.all(`SELECT id, status FROM runs ORDER BY id`)).toEqual([
            { id: cycle.id, status: 'running' },
            { id: 'probe_20261125T110000Z_00000000', status: 'failed' },
          ]);
          // A nested run (publish inside the cycle) and a direct sweep leave the live cycle alone.
          await withRun(store, 'publish', { clock }, async (pub) => {
            expect(await closeAbandonedRuns(store, pub.id, clock())).toEqual([]);
          });
          expect(await store.all(`SELECT status FROM runs WHERE id = $1`, [cycle.id])).toEqual([{ status: 'running' }]);
        });
        expect(await store.all(`SELECT kind, status FROM runs ORDER BY kind`)).toEqual([
          { kind: 'cycle', status: 'ok' },
          { kind: 'probe', status: 'failed' },
          { kind: 'publish', status: 'ok' },
        ]);
      } finally {
        store.close();
      }
    } finally {
      t.cleanup();
    }
  });
});
