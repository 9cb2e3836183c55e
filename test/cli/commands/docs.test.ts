import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../pipeline/core/clock.ts';
import { migrate, withStore } from '../../../pipeline/store/index.ts';
import { fleetConfig, startFleet } from '../../../pipeline/fleet/index.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { tempDir, testClock } from '../../helpers/context.ts';

describe('atlas docs (CLI)', () => {
  // Two CLI processes (a few seconds each under tsx).
  it('fetches due documentation pages through the probe edge and records a change', async () => {
    const epoch = new Date('2026-11-02T00:00:00Z');
    const clock = testClock(epoch);
    const t = tempDir();
    const fleet = await startFleet({ clock, epoch });
    try {
      const doc = fleet.docs.find((d) => d.behaviour === 'docs-price')!;
      const configFile = join(t.dir, 'atlas.config.json');
      writeFileSync(configFile, JSON.stringify(fleetConfig(fleet)));
      await withStore(join(t.dir, 'atlas.duckdb'), async (s) => {
        await migrate(s, epoch);
        await s.run(
          `INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at)
           VALUES ('svc_search', 'reviewed', 'api_endpoint', 'Search', 'atlas', 'api.example', 'https://api.example/v1/search', 'GET', $1::TIMESTAMP, $1::TIMESTAMP, $1::TIMESTAMP)`,
          [epoch.toISOString()],
        );
        await s.run(
          `INSERT INTO operations (service_id, id, kind, is_primary, url, method, expected_statuses, pass_rule, interval_hours)
           VALUES ('svc_search', 'docs', 'documentation', false, $1, 'GET', [200], 'reviewed/1', 24)`,
          [doc.url],
        );
      });
      const at1 = new Date(epoch.getTime() + 3_600_000).toISOString();
      const r1 = await runCli(['--data', t.dir, '--config', configFile, '--now', at1, 'docs']);
      expect(r1.code, r1.stderr).toBe(0);
      const at2 = new Date(fleet.timeline.docsChangeAt.getTime() + DAY_MS).toISOString();
      clock.set(at2);
      // The first `atlas docs` ran as a process; the second goes through the same main() in-process.
      const r2 = await runCliInProcess(['--data', t.dir, '--config', configFile, '--now', at2, 'docs']);
      expect(r2.code, r2.stderr).toBe(0);
      const rows = await withStore(join(t.dir, 'atlas.duckdb'), (s) =>
        s.all<{ needs_review: boolean; n_snap: number; n_checks: number }>(
          `SELECT needs_review, (SELECT count(*) FROM doc_snapshots)::INTEGER AS n_snap, (SELECT count(*) FROM checks)::INTEGER AS n_checks FROM changes`,
        ),
      );
      expect(rows).toEqual([{ needs_review: true, n_snap: 2, n_checks: 2 }]);
    } finally {
      await fleet.close();
      t.cleanup();
    }
  }, 180_000);
});
