import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signReferral } from '../../../pipeline/core/referral.ts';
import { ingestInbox } from '../../../pipeline/inbox/load.ts';
import type { OutcomeRecord } from '../../../site/contract/inbox-records.ts';
import { decideByOperator, runModeration } from '../../../pipeline/moderation/index.ts';
import { computeWeekFigures } from '../../../pipeline/reports/index.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { MODERATION_INDEX_FILE, ModerationIndex, ServiceDetailFile } from '../../../site/contract/index.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { seedRaw } from '../publish/seed.ts';

/**
 * Through the real tables: the server's inbox log → `atlas ingest inbox` → the moderation step →
 * an operator's decision → publish (single-service counts, the moderation index) and the week's
 * by_moderation.
 */
const NOW = new Date('2026-11-25T12:00:00Z');
const min = (m: number) => new Date(NOW.getTime() + m * 60_000).toISOString();

describe('moderation through ingest → moderate → publish', () => {
  it('decides each new report once, keeps operator decisions, and publishes counts and decisions', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openTestStore(dir, NOW);
    try {
      // Services tracked from NOW - 3 days: svc_r0000000, cand_x0000001, cand_m0000002.
      await seedRaw(store, NOW, 3, 3);
      const ctx = makeContext(dir, { now: NOW.toISOString() });
      const rec = (id: string, over: Partial<OutcomeRecord>): OutcomeRecord => ({
        id,
        key_id: 'key_1',
        idempotency_key: id,
        service_id: 'svc_r0000000',
        referral_id: null,
        outcome: 'success',
        failure_kind: null,
        operation: null,
        task_category: null,
        reported_at: null,
        received_at: min(-30),
        moderation: 'pending',
        ...over,
      });
      const reports = [
        rec('out_a', {}),
        rec('out_b', { received_at: min(-25) }), // same key, service, outcome 5 minutes later
        rec('out_c', { service_id: null, outcome: 'failure' }),
        rec('out_d', {
          service_id: 'cand_x0000001',
          outcome: 'failure',
          referral_id: signReferral(ctx.secret, 'cand_x0000001', 'key_1', new Date(min(-60))),
        }),
        rec('out_e', {
          service_id: 'cand_x0000001',
          referral_id: signReferral(ctx.secret, 'cand_x0000001', 'key_1', new Date('2026-11-15T00:00:00Z')),
        }),
        rec('out_f', { key_id: 'key_2', service_id: 'cand_gone' }),
        rec('out_g', { key_id: 'key_2', service_id: 'cand_m0000002', reported_at: '2026-11-20T00:00:00.000Z' }),
      ];
      mkdirSync(ctx.paths.inbox, { recursive: true });
      const log = join(ctx.paths.inbox, 'outcomes-test.jsonl');
      appendFileSync(log, reports.map((r) => `${JSON.stringify(r)}\n`).join(''));

      expect((await ingestInbox(ctx, store)).outcomes.inserted).toBe(7);
      const first = await runModeration(ctx, store);
      expect(first).toEqual({
        pending: 7,
        accepted: 2,
        rejected: 5,
        by_reason: { duplicate: 1, no_service: 1, referral_expired: 1, unknown_service: 1, not_tracked_at_report_time: 1 },
      });
      const rows = await store.all<Record<string, unknown>>(
        `SELECT report_id, state, reason, rule_version, decided_by, atlas_iso(decided_at) AS decided_at FROM outcome_moderation_current ORDER BY report_id`,
      );
      const stateOf = (rs: Record<string, unknown>[]) => Object.fromEntries(rs.map((r) => [r.report_id, [r.state, r.reason]]));
      expect(stateOf(rows)).toEqual({
        out_a: ['accepted', null],
        out_b: ['rejected', 'duplicate'],
        out_c: ['rejected', 'no_service'],
        out_d: ['accepted', null],
        out_e: ['rejected', 'referral_expired'],
        out_f: ['rejected', 'unknown_service'],
        out_g: ['rejected', 'not_tracked_at_report_time'],
      });
      expect(rows[0]).toMatchObject({ rule_version: 'moderation/1', decided_by: 'pipeline', decided_at: NOW.toISOString() });
      const runs = await store.all<{ kind: string; status: string }>("SELECT kind, status FROM runs WHERE kind = 'moderate'");
      expect(runs).toEqual([{ kind: 'moderate', status: 'ok' }]);

      // An operator accepts the duplicate; the rules never decide a decided report again.
      const later = makeContext(dir, { now: min(10) });
      const op = await decideByOperator(store, {
        decision: 'accept',
        ids: ['out_b'],
        by: 'alice',
        note: 'retry after a timeout',
        now: new Date(min(10)),
      });
      expect(op.decided).toEqual([{ report_id: 'out_b', state: 'accepted', reason: null }]);
      // A new report arrives (the same as out_b, 5 minutes after it: a duplicate, whatever out_b's
      // state) and then one that is not moderated before the publish below.
      appendFileSync(log, `${JSON.stringify(rec('out_h', { received_at: min(-20) }))}\n`);
      await ingestInbox(later, store);
      expect(await runModeration(later, store)).toMatchObject({ pending: 1, rejected: 1, by_reason: { duplicate: 1 } });
      appendFileSync(log, `${JSON.stringify(rec('out_i', { outcome: 'unknown', received_at: min(5) }))}\n`);
      await ingestInbox(later, store);
      const history = await store.all<Record<string, unknown>>(
        "SELECT seq, state, reason, rule_version, decided_by, note FROM outcome_moderation WHERE report_id = 'out_b' ORDER BY seq",
      );
      expect(history).toEqual([
        { seq: 1, state: 'rejected', reason: 'duplicate', rule_version: 'moderation/1', decided_by: 'pipeline', note: null },
        { seq: 2, state: 'accepted', reason: null, rule_version: 'operator', decided_by: 'alice', note: 'retry after a timeout' },
      ]);
      // As of before the operator's decision, the rules' decision stands (the state at an instant).
      const asOf = await store.all<{ state: string }>(
        "SELECT state FROM atlas_outcome_state_as_of($1::TIMESTAMP) WHERE report_id = 'out_b'",
        [min(5)],
      );
      expect(asOf).toEqual([{ state: 'rejected' }]);

      const r = await publish(later, store, {});
      const detail = (id: string) =>
        ServiceDetailFile.parse(JSON.parse(readFileSync(join(r.dir, 'api', 'v1', 'services', `${id}.json`), 'utf8')));
      expect(detail('svc_r0000000').outcome_reports).toEqual({
        success: { accepted: 2, pending: 0, rejected: 1 },
        failure: { accepted: 0, pending: 0, rejected: 0 },
        unknown: { accepted: 0, pending: 1, rejected: 0 },
      });
      expect(detail('cand_x0000001').outcome_reports).toEqual({
        success: { accepted: 0, pending: 0, rejected: 1 },
        failure: { accepted: 1, pending: 0, rejected: 0 },
        unknown: { accepted: 0, pending: 0, rejected: 0 },
      });
      const index = ModerationIndex.parse(JSON.parse(readFileSync(join(r.dir, MODERATION_INDEX_FILE), 'utf8')));
      expect(Object.keys(index.decisions).sort()).toEqual(['out_a', 'out_b', 'out_c', 'out_d', 'out_e', 'out_f', 'out_g', 'out_h']);
      expect(index.decisions.out_e).toEqual({ state: 'rejected', reason: 'referral_expired', decided_at: NOW.toISOString() });
      expect(index.decisions.out_b).toEqual({ state: 'accepted', reason: null, decided_at: min(10) });
      // No report here carried a receipt: no verdicts. An index from before `receipts` still reads.
      expect(index.receipts).toEqual({});
      const { receipts: _r, ...older } = index;
      expect(ModerationIndex.parse(older).receipts).toBeUndefined();

      const week = await computeWeekFigures(store, new Date('2026-11-23T00:00:00Z'), new Date(min(10)));
      expect(week.outcome_reports.received).toBe(9);
      expect(week.outcome_reports.by_moderation).toEqual({ accepted: 3, pending: 1, rejected: 5 });
    } finally {
      store.close();
      cleanup();
    }
  }, 60_000);
});
