import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, withStore } from '../../../pipeline/store/index.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';

/**
 * `atlas moderate` as cron and an operator run it over a real database: the first run is a spawned
 * process (the entry, stdout, the exit code); the others run the same program in this process
 * (runCliInProcess), a child process costing seconds each under tsx.
 */
describe('atlas moderate (CLI)', () => {
  it('runs the rules, records operator decisions for one report and for batches, and refuses bad input with exit 2', async () => {
    const t = tempDir();
    try {
      const db = join(t.dir, 'atlas.duckdb');
      await withStore(db, async (s) => {
        await migrate(s, new Date('2026-11-25T00:00:00Z'));
        await s.run(`INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at)
          VALUES ('svc_a', 'reviewed', 'api_endpoint', 'A', 'atlas', 'a.example', 'https://a.example/', 'GET',
            TIMESTAMP '2026-11-01 00:00:00', TIMESTAMP '2026-11-01 00:00:00', TIMESTAMP '2026-11-01 00:00:00')`);
        await s.run(`INSERT INTO outcomes (id, key_id, idempotency_key, service_id, outcome, received_at) VALUES
          ('out_1', 'key_1', 'i1', 'svc_a', 'success', TIMESTAMP '2026-11-25 10:00:00'),
          ('out_2', 'key_1', 'i2', 'svc_a', 'success', TIMESTAMP '2026-11-25 10:01:00'),
          ('out_3', 'key_1', 'i3', 'svc_a', 'failure', TIMESTAMP '2026-11-25 10:30:00'),
          ('out_4', 'key_2', 'i4', NULL, 'unknown', TIMESTAMP '2026-11-25 10:40:00')`);
      });
      const cli = (...args: string[]) => runCliInProcess(['--data', t.dir, '--now', '2026-11-25T12:00:00Z', ...args]);
      const lines = (out: string) =>
        out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l));
      const current = () =>
        withStore(db, (s) =>
          s.all<{ report_id: string; state: string; reason: string | null; decided_by: string | null }>(
            'SELECT report_id, state, reason, decided_by FROM outcome_moderation_current ORDER BY report_id',
          ),
        );
      const decisionRows = async () =>
        Number((await withStore(db, (s) => s.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM outcome_moderation')))[0]!.n);

      const run = await runCli(['--data', t.dir, '--now', '2026-11-25T12:00:00Z', 'moderate', 'run']);
      expect(run.code, run.stderr).toBe(0);
      expect(lines(run.stdout)).toEqual([{ pending: 4, accepted: 2, rejected: 2, by_reason: { duplicate: 1, no_service: 1 } }]);

      // One report.
      const one = await cli('moderate', 'accept', 'out_2', '--by', 'alice', '--note', 'not a duplicate: a second call');
      expect(one.code, one.stderr).toBe(0);
      expect(lines(one.stdout)).toEqual([
        { report_id: 'out_2', state: 'accepted', reason: null, decided_by: 'alice', decided_at: '2026-11-25T12:00:00.000Z' },
      ]);
      // A batch from a file (comments and blank lines ignored), with a reason of the fixed set.
      const file = join(t.dir, 'ids.txt');
      writeFileSync(file, '# spam wave\nout_1\n\nout_3\n');
      const batch = await cli('moderate', 'reject', '--file', file, '--by', 'bob', '--reason', 'daily_limit');
      expect(batch.code, batch.stderr).toBe(0);
      expect(lines(batch.stdout).map((d) => [d.report_id, d.state, d.reason])).toEqual([
        ['out_1', 'rejected', 'daily_limit'],
        ['out_3', 'rejected', 'daily_limit'],
      ]);
      // A batch by filter: every report of key_2 that is rejected now; the default reason.
      const filtered = await cli('moderate', 'reject', '--key', 'key_2', '--state', 'rejected', '--by', 'bob');
      expect(filtered.code, filtered.stderr).toBe(0);
      expect(lines(filtered.stdout).map((d) => [d.report_id, d.reason])).toEqual([['out_4', 'operator_review']]);
      // The rules never override an operator: a second run decides nothing.
      const again = await cli('moderate', 'run');
      expect(lines(again.stdout)).toEqual([{ pending: 0, accepted: 0, rejected: 0, by_reason: {} }]);
      expect(await current()).toEqual([
        { report_id: 'out_1', state: 'rejected', reason: 'daily_limit', decided_by: 'bob' },
        { report_id: 'out_2', state: 'accepted', reason: null, decided_by: 'alice' },
        { report_id: 'out_3', state: 'rejected', reason: 'daily_limit', decided_by: 'bob' },
        { report_id: 'out_4', state: 'rejected', reason: 'operator_review', decided_by: 'bob' },
      ]);

      // Bad input: one line on stderr, exit 2, nothing written.
      const before = await decisionRows();
      for (const args of [
        ['moderate', 'accept', 'out_2', 'out_nope', '--by', 'alice'],
        ['moderate', 'reject', 'out_2', '--by', 'alice', '--reason', 'looks_wrong'],
        ['moderate', 'accept', 'out_2'],
      ]) {
        const bad = await cli(...args);
        expect(bad.code, `${args.join(' ')}: ${bad.stderr}`).toBe(2);
        expect(bad.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
        expect(bad.stdout).toBe('');
      }
      expect(await decisionRows()).toBe(before);
    } finally {
      t.cleanup();
    }
  }, 60_000); // one process, a few seconds under tsx (more on a loaded machine)
});
