import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../pipeline/store/index.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';
import { addDiscovered, at, insertCheckSeries, T0 } from '../../pipeline/compute/fixtures.ts';

describe('atlas archive', () => {
  it('archives at --now, prints the result, and `atlas sql` reads live and archived checks through checks_all', async () => {
    const t = tempDir();
    try {
      // `atlas archive` runs as a process; set-up and read-back go through the same main() in-process.
      expect((await runCliInProcess(['--data', t.dir, '--now', T0, 'init'])).code).toBe(0);
      const s = await openStore(join(t.dir, 'atlas.duckdb'));
      try {
        await addDiscovered(s, { id: 'cand_cli', monitoring_since: T0 });
        await insertCheckSeries(s, { serviceId: 'cand_cli', from: T0, to: at(T0, 120), everyHours: 24 });
      } finally {
        s.close();
      }
      const r = await runCli(['--data', t.dir, '--now', at(T0, 120), 'archive']);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      // the cut is 2026-07-21 (120 − 100 days after 2026-07-01): the first 20 daily checks, all in July
      expect(out).toMatchObject({ archived_rows: 20, removed_orphans: 0 });
      expect(out.files.map((f: { path: string }) => f.path)).toEqual([
        expect.stringMatching(/^archive\/checks\/month=2026-07\/archive_\w+_0\.parquet$/),
      ]);
      const q = await runCliInProcess([
        '--data',
        t.dir,
        'sql',
        'SELECT (SELECT count(*) FROM checks_all)::INTEGER AS all_checks, (SELECT count(*) FROM checks)::INTEGER AS live, (SELECT count(*) FROM check_daily)::INTEGER AS days',
        '--format',
        'json',
      ]);
      expect(q.code).toBe(0);
      expect(JSON.parse(q.stdout)).toEqual([{ all_checks: 120, live: 100, days: 120 }]);
    } finally {
      t.cleanup();
    }
  }, 120_000);
});
