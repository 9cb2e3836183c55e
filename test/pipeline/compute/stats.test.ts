import { describe, expect, it } from 'vitest';
import { computeStats, computeStatus, windowFigures } from '../../../pipeline/compute/index.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import { StatsFigures as StatsSchema } from '../../../site/contract/stats.ts';
import { StatusFigures as StatusSchema } from '../../../site/contract/status.ts';
import { addDiscovered, addReviewed, at, insertCheckSeries, insertChecks, makeCheck, T0 } from './fixtures.ts';
import { computeAt, withDb } from './helpers.ts';

const NOW = at(T0, 40);
const ts = (iso: string) => `'${iso.replace('T', ' ').replace('Z', '')}'::TIMESTAMP`;

async function addRun(store: Store, kind: string, startedAt: string, status = 'ok', id = `${kind}_${startedAt}`) {
  await store.run(
    `INSERT INTO runs (id, kind, scheduled_at, started_at, finished_at, status) VALUES ($1, $2, NULL, ${ts(startedAt)}, ${ts(startedAt)}, $3)`,
    [id, kind, status],
  );
}

describe('stats and status figures', () => {
  it('stats: totals by tier and type; checks in 24 hours by kind, only checks that ran', async () => {
    await withDb(async (store, dir) => {
      await addReviewed(store, { id: 'svc_a' });
      await addDiscovered(store, { id: 'cand_x' });
      await addDiscovered(store, { id: 'cand_m', type: 'mcp_server', protocol: 'mcp' });
      await addDiscovered(store, { id: 'cand_m2', type: 'mcp_server', protocol: 'mcp' });
      // reviewed hourly: 24 checks in (now - 24h, now], one failing
      await insertCheckSeries(store, {
        serviceId: 'svc_a',
        from: at(NOW, -2),
        to: at(NOW, 0, 1),
        everyHours: 1,
        rule: 'reviewed/1',
        passed: "t <> TIMESTAMP '2026-08-09 05:00:00'",
      });
      await insertChecks(store, [
        makeCheck({ service_id: 'cand_x', checked_at: at(NOW, -1) }), // exactly 24 h ago: outside
        makeCheck({ service_id: 'cand_x', checked_at: at(NOW, -0.5), passed: false }),
        makeCheck({ service_id: 'cand_m', checked_at: at(NOW, -0.2), rule: 'mcp-reach/3', status: 406 }),
        makeCheck({ service_id: 'cand_m2', checked_at: at(NOW, 0, 1), rule: 'mcp-reach/3' }), // after now: not counted
      ]);
      await computeAt(store, dir, NOW, { scope: 'full' });
      const s = await computeStats(store, new Date(NOW));
      expect(StatsSchema.parse(s)).toEqual(s);
      expect(s).toEqual({
        generated_at: NOW,
        data_as_of: NOW, // computeAt recorded its compute run at NOW
        totals: {
          services: 4,
          in_directory: 1,
          by_tier: { reviewed: 1, discovered: 3 },
          by_type: { api_endpoint: 2, mcp_server: 2, task_marketplace: 0 },
        },
        checks_24h: 26,
        passed_24h: 24,
        checks_24h_by_kind: { reviewed: 24, x402: 1, mcp: 1 },
        passed_24h_by_kind: { reviewed: 23, x402: 0, mcp: 1 },
        windows: { checks: '24h' },
      });
    });
  });

  it('status: scheduled, ran and missed per job kind over 24 h / 7 d / 30 d; latest runs; freshness counts', async () => {
    await withDb(async (store, dir) => {
      // operating for 3 days; probe ran every hour except 3 hours yesterday; a failed run counts as not run
      const since = at(NOW, -3);
      for (let h = 0; h < 72; h++) {
        if (h >= 40 && h < 43) continue;
        await addRun(store, 'probe', at(since, 0, h + 0.01), h === 60 ? 'failed' : 'ok');
      }
      await addRun(store, 'probe', at(since, 0, 10.5), 'ok', 'probe_twice'); // a second run in one slot counts once
      await addRun(store, 'docs', at(since, 0, 0.2));
      await addRun(store, 'ingest_x402', at(since, 1));
      await addReviewed(store, { id: 'svc_f' });
      await insertCheckSeries(store, { serviceId: 'svc_f', from: at(NOW, -1), to: NOW, everyHours: 1, rule: 'reviewed/1' });
      await addDiscovered(store, { id: 'cand_nodata' });
      await computeAt(store, dir, NOW); // records its own compute run at NOW
      const st = await computeStatus(store, new Date(NOW), { cycleEveryMinutes: 60 });
      expect(StatusSchema.parse(st)).toEqual(st);
      const job = (k: string) => st.jobs.find((j) => j.kind === k)!;
      // 24 h window: slots NOW-24h .. NOW-1h complete (24); 4 of them did not run (3 gap + 1 failed)... gap is hours 40-42 (NOW-32h..) so outside
      expect(job('probe').windows['24h']).toEqual({ scheduled: 24, ran: 23, missed: 1 });
      expect(job('probe').windows['7d']).toEqual({ scheduled: 72, ran: 68, missed: 4 });
      expect(job('probe').windows['30d']).toEqual(job('probe').windows['7d']);
      expect(job('compute').windows['24h']).toEqual({ scheduled: 25, ran: 1, missed: 24 });
      expect(job('docs').windows['7d']).toEqual({ scheduled: 3, ran: 1, missed: 2 });
      expect(job('report').windows['30d']).toEqual({ scheduled: 0, ran: 0, missed: 0 });
      expect(job('compute').latest).toMatchObject({ kind: 'compute', status: 'ok', started_at: NOW });
      expect(st.latest_runs.map((r) => r.kind)).toEqual(['compute', 'docs', 'ingest_x402', 'probe']);
      expect(st.operating_since).toBe(at(since, 0, 0.01));
      expect(st.evidence_freshness).toEqual({ fresh: 1, stale: 0, no_data: 1, total: 2 });
    });
  });

  it('windowFigures counts a slot once it has ended, or earlier if it ran', () => {
    const now = new Date('2026-11-25T12:30:00Z');
    const hour = (iso: string) => Math.floor(new Date(iso).getTime() / 3_600_000);
    const ran = new Set([hour('2026-11-25T10:00:00Z'), hour('2026-11-25T12:00:00Z')]);
    expect(
      windowFigures({ now, everyMinutes: 60, windowHours: 3, operatingSince: new Date('2026-11-25T09:10:00Z'), ranSlots: ran }),
    ).toEqual({
      scheduled: 3,
      ran: 2,
      missed: 1,
    });
    expect(windowFigures({ now, everyMinutes: 60, windowHours: 3, operatingSince: null, ranSlots: ran })).toEqual({
      scheduled: 0,
      ran: 0,
      missed: 0,
    });
  });
});
