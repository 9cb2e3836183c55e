import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../pipeline/core/clock.ts';
import { computeAll } from '../../../pipeline/compute/index.ts';
import { freezeDueReports } from '../../../pipeline/reports/index.ts';
import { withStore } from '../../../pipeline/store/index.ts';
import { formatMismatch, verifyGeneration } from '../../../pipeline/verify/index.ts';
import type { ReportBody, ServiceDetail } from '../../../site/contract/index.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { seedRaw } from '../publish/seed.ts';

const NOW = '2026-11-25T12:00:00Z';

/**
 * A world on real parts: raw rows (seedRaw), `atlas compute`, the weekly reports frozen, `atlas
 * publish` into a real tree; then verify reads that tree and the database (read-only) like a
 * researcher would.
 */
async function world(dir: string) {
  const clock = testClock(NOW);
  const ctx = makeContext(dir, { clock });
  const store = await openTestStore(dir, new Date(NOW));
  try {
    await seedRaw(store, new Date(NOW), 24, 16);
    await computeAll(ctx, store, { scope: 'full' });
    const frozen = await freezeDueReports(ctx, store);
    const pub = await publish(ctx, store, { pages: false });
    return { ctx, clock, gen: pub.dir, generation: pub.generation, frozen: frozen.frozen, publicDir: join(dir, 'public') };
  } finally {
    store.close();
  }
}

const readOnlyVerify = (db: string, tree: string, sample?: number) =>
  withStore(db, (s) => verifyGeneration(s, tree, sample === undefined ? {} : { sample }), { readOnly: true });

const editJson = <T>(path: string, edit: (body: T) => void) => {
  const body = JSON.parse(readFileSync(path, 'utf8')) as T;
  edit(body);
  writeFileSync(path, JSON.stringify(body));
};

describe('atlas verify (recompute mode)', () => {
  it('finds every published figure equal at the published instant, later too, and names each edited figure', async () => {
    const { dir, cleanup } = tempDir('atlas-verify-');
    try {
      const w = await world(dir);
      const db = w.ctx.paths.db;
      expect(w.frozen.length).toBeGreaterThanOrEqual(2);

      const ok = await readOnlyVerify(db, w.publicDir);
      expect(ok.mismatches.map(formatMismatch)).toEqual([]);
      expect(ok.checked).toEqual({ services: 24, receipts: 0, reports: w.frozen.length });
      expect(ok.generation).toBe(w.generation);
      expect(ok.computed_at).toBe(NOW.replace('Z', '.000Z'));

      // Two days later the database has moved on (another compute changed intervals, more checks);
      // the old tree still verifies, since everything is evaluated at its own instant.
      w.clock.advance(2 * DAY_MS);
      const later = await withStore(db, async (s) => {
        await s.run(
          `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms)
           SELECT service_id, id, $1::TIMESTAMP, $1::TIMESTAMP, 500, false, 'status_not_expected', pass_rule, 10 FROM operations`,
          [new Date(w.clock().getTime() - 60_000).toISOString()],
        );
        // More registry payers: schedule/1 moves these services to hourly checks at the next compute.
        await s.run(`UPDATE services SET registry_payers_30d = 500 WHERE tier = 'discovered' AND protocol = 'x402'`);
        return computeAll(w.ctx, s, { scope: 'full' });
      });
      expect(later.interval_changes).toBeGreaterThan(0);
      const again = await readOnlyVerify(db, w.gen);
      expect(again.mismatches.map(formatMismatch)).toEqual([]);

      // A hand-edited service figure and a hand-edited frozen report figure are both named.
      const svc = 'cand_x0000001';
      editJson<ServiceDetail>(join(w.gen, 'api', 'v1', 'services', `${svc}.json`), (b) => {
        b.evidence.checks_30d += 1;
      });
      const week = w.frozen[0]!;
      const reportFile = join(w.gen, 'api', 'v1', 'reports', `${week}.json`);
      let ran = 0;
      editJson<{ report: ReportBody }>(reportFile, (b) => {
        ran = b.report.checks.total.ran;
        b.report.checks.total.ran = ran + 7;
      });
      const bad = await readOnlyVerify(db, w.gen);
      const lines = bad.mismatches.map(formatMismatch);
      expect(lines).toContain(
        `${svc}  evidence.checks_30d  published=${Number(bad.mismatches[0]?.recomputed) + 1}  recomputed=${bad.mismatches[0]?.recomputed}`,
      );
      expect(lines).toContain(`reports/${week}  checks.total.ran  published=${ran + 7}  recomputed=${ran}`);
      expect(lines).toHaveLength(2);

      // A sample: deterministic, seeded by the generation, reports always included.
      const s1 = await readOnlyVerify(db, w.gen, 5);
      const s2 = await readOnlyVerify(db, w.gen, 5);
      expect(s1.checked).toEqual({ services: 5, receipts: 0, reports: w.frozen.length });
      expect(s1.mismatches).toEqual(s2.mismatches);
      expect(s1.mismatches.some((m) => m.id === `reports/${week}`)).toBe(true);

      // The CLI as a child process: exit 1 naming both, --json one object; exit 0 once repaired.
      const cli = await runCli(['--data', dir, 'verify', '--site', w.gen], { timeoutMs: 120_000 });
      expect(cli.code, cli.stderr).toBe(1);
      expect(cli.stdout).toContain(`${svc}  evidence.checks_30d  published=`);
      expect(cli.stdout).toContain(`reports/${week}  checks.total.ran  published=${ran + 7}  recomputed=${ran}`);
      expect(cli.stdout).toMatch(/FAILED: 2 mismatch\(es\) in 24 service\(s\) and \d+ report\(s\)/);

      editJson<{ report: ReportBody }>(reportFile, (b) => {
        b.report.checks.total.ran = ran;
      });
      // The other verify cases through the same main() in-process.
      const json = await runCliInProcess(['--data', dir, '--json', 'verify', '--out', w.gen, '--sample', '100']);
      expect(json.code, json.stderr).toBe(1);
      const body = JSON.parse(json.stdout) as { generation: string; checked: unknown; mismatches: Array<{ id: string; field: string }> };
      expect(body.generation).toBe(w.generation);
      expect(body.checked).toEqual({ services: 24, receipts: 0, reports: w.frozen.length });
      expect(body.mismatches.map((m) => `${m.id} ${m.field}`)).toEqual([`${svc} evidence.checks_30d`]);

      const usage = await runCliInProcess(['--data', dir, 'verify', '--sample', '0']);
      expect(usage.code).toBe(2);
    } finally {
      cleanup();
    }
  }, 240_000);
});
