import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, withStore } from '../../../pipeline/store/index.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';
import { addService } from '../../pipeline/reports/fixtures.ts';

describe('atlas report (CLI)', () => {
  // The first run is a real process (the entry, stdout, the exit code); the others run the same
  // program in this process (runCliInProcess), a child process costing seconds each under tsx.
  it('freezes due weeks, appends corrections in order, rejects bad weeks with exit 2', async () => {
    const t = tempDir();
    try {
      await withStore(join(t.dir, 'atlas.duckdb'), async (s) => {
        await migrate(s, new Date('2026-11-01T00:00:00Z'));
        await addService(s, { id: 'svc_a', createdAt: '2026-11-10T00:00:00Z' });
      });
      const cli = (now: string, ...args: string[]) => runCliInProcess(['--data', t.dir, '--now', now, ...args]);

      const frozen = await runCli(['--data', t.dir, '--now', '2026-11-25T00:00:00Z', 'report']);
      expect(frozen.code, frozen.stderr).toBe(0);
      expect(
        frozen.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).id),
      ).toEqual(['2026-11-09', '2026-11-16']);
      const before = JSON.parse(frozen.stdout.trim().split('\n')[1]!).report;

      const c1 = await cli(
        '2026-11-25T01:00:00Z',
        'report',
        'correct',
        '--week',
        '2026-11-16',
        '--note',
        'missed checks miscounted',
        '--figure',
        'checks.total.missed=3',
      );
      expect(c1.code, c1.stderr).toBe(0);
      expect(JSON.parse(c1.stdout)).toMatchObject({ seq: 1, figures: { 'checks.total.missed': 3 } });
      const c2 = await cli('2026-11-25T02:00:00Z', 'report', 'correct', '--week', '2026-11-16', '--note', 'second');
      expect(JSON.parse(c2.stdout).seq).toBe(2);

      const again = await cli('2026-11-26T00:00:00Z', 'report', '--week', '2026-11-16');
      expect(again.code).toBe(0);
      const r = JSON.parse(again.stdout);
      expect(JSON.stringify(r.report)).toBe(JSON.stringify(before));
      expect(r.corrections.map((c: { seq: number }) => c.seq)).toEqual([1, 2]);

      for (const args of [
        ['report', '--week', '2026-11-17'],
        ['report', '--week', '2026-11-23'],
        ['report', 'correct', '--week', '2026-11-16', '--note', 'x', '--figure', 'no.such=1'],
        ['report', 'correct', '--note', 'x'],
      ]) {
        const bad = await cli('2026-11-25T00:00:00Z', ...args);
        expect(bad.code, args.join(' ')).toBe(2);
        expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      }
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
