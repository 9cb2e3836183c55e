import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../pipeline/store/index.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';
import { addDiscovered, insertCheckSeries, T0, at } from '../../pipeline/compute/fixtures.ts';

describe('atlas compute', () => {
  it('migrates, computes at --now, prints the summary and records a compute run', async () => {
    const t = tempDir();
    try {
      // `atlas compute` runs as a process (the path cron takes); set-up and read-back go through the
      // same main() in-process.
      const init = await runCliInProcess(['--data', t.dir, '--now', T0, 'init']);
      expect(init.code).toBe(0);
      const s = await openStore(join(t.dir, 'atlas.duckdb'));
      try {
        await addDiscovered(s, { id: 'cand_cli', registry_payers_30d: 7 });
        await insertCheckSeries(s, { serviceId: 'cand_cli', from: T0, to: at(T0, 5), everyHours: 24 });
      } finally {
        s.close();
      }
      const r = await runCli(['--data', t.dir, '--now', at(T0, 5), 'compute', '--scope', 'full']);
      expect(r.stderr).not.toMatch(/failed/);
      expect(r.code).toBe(0);
      const summary = JSON.parse(r.stdout);
      // no valid payment request observed yet: the mainnet criterion keeps it out
      expect(summary).toMatchObject({
        scope: 'full',
        rule: 'listing-criteria/1',
        evidence_rows: 1,
        directory_evaluated: 1,
        directory_in: 0,
        interval_changes: 0,
      });
      const q = await runCliInProcess([
        '--data',
        t.dir,
        'sql',
        "SELECT kind, status, started_at FROM runs WHERE kind = 'compute'",
        '--format',
        'json',
      ]);
      expect(JSON.parse(q.stdout)).toEqual([{ kind: 'compute', status: 'ok', started_at: at(T0, 5) }]);
      const bad = await runCliInProcess(['--data', t.dir, 'compute', '--scope', 'some']);
      expect(bad.code).toBe(2);
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
