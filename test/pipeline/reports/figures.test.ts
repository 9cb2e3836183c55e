import { describe, expect, it } from 'vitest';
import { computeAll } from '../../../pipeline/compute/index.ts';
import { AtlasError } from '../../../pipeline/core/errors.ts';
import {
  appendCorrection,
  computeWeekFigures,
  currentReport,
  freezeDueReports,
  getReport,
  listReports,
} from '../../../pipeline/reports/index.ts';
import { Report, ReportBody as ReportBodySchema, ReportList } from '../../../site/contract/reports.ts';
import { makeContext, openTestStore, tempDir, testClock } from '../../helpers/context.ts';
import { addCheck, addHourlyChecks, addOperation, addService } from './fixtures.ts';
import { recordDeclared } from '../../../pipeline/ingest/declared-terms.ts';
import { NOTHING_DECLARED } from '../../../pipeline/x402/declared.ts';

const W1 = '2026-11-02'; // a Monday
const W2 = '2026-11-09';
const W3 = '2026-11-16';
const W4 = '2026-11-23';

async function withDb<T>(
  fn: (
    ctx: ReturnType<typeof makeContext>,
    store: Awaited<ReturnType<typeof openTestStore>>,
    clock: ReturnType<typeof testClock>,
  ) => Promise<T>,
) {
  const t = tempDir();
  const clock = testClock('2026-11-02T00:00:00Z');
  const store = await openTestStore(t.dir, new Date('2026-11-01T00:00:00Z'));
  try {
    return await fn(makeContext(t.dir, { clock }), store, clock);
  } finally {
    store.close();
    t.cleanup();
  }
}

describe('weekly report figures', () => {
  it('counts services, checks by kind, missed checks and pass rates from raw tables', async () => {
    await withDb(async (_ctx, store) => {
      await addService(store, { id: 'svc_a', tier: 'reviewed', createdAt: '2026-11-01T00:00:00Z' });
      await addOperation(store, { serviceId: 'svc_a', rule: 'reviewed/1', hours: 1, changedAt: '2026-11-01T00:00:00Z' });
      await addService(store, { id: 'cand_x', tier: 'discovered', createdAt: '2026-11-05T00:00:00Z' });
      await addOperation(store, { serviceId: 'cand_x', rule: 'x402-mainnet/1', hours: 24, changedAt: '2026-11-05T00:00:00Z' });
      await addService(store, { id: 'cand_m', tier: 'discovered', type: 'mcp_server', createdAt: '2026-11-10T00:00:00Z' }); // next week
      // svc_a: 168 hourly slots expected, 160 ran, every 4th failed
      await addHourlyChecks(store, 'svc_a', 'reviewed/1', '2026-11-02T00:00:00Z', '2026-11-08T16:00:00Z', 4);
      // cand_x: daily from Thursday: 4 expected (5th..8th), 3 ran, 2 passed
      await addCheck(store, { serviceId: 'cand_x', slot: '2026-11-05T00:00:00Z', passed: true, rule: 'x402-mainnet/1' });
      await addCheck(store, { serviceId: 'cand_x', slot: '2026-11-06T00:00:00Z', passed: false, rule: 'x402-mainnet/1' });
      await addCheck(store, { serviceId: 'cand_x', slot: '2026-11-07T00:00:00Z', passed: true, rule: 'x402-mainnet/1' });
      // A check for a slot in the week that ran after the week end is not counted for that week.
      await addCheck(store, {
        serviceId: 'cand_x',
        slot: '2026-11-08T00:00:00Z',
        checkedAt: '2026-11-09T00:00:01Z',
        passed: true,
        rule: 'x402-mainnet/1',
      });

      const body = await computeWeekFigures(store, new Date(`${W1}T00:00:00Z`), new Date(`${W2}T00:00:00Z`));
      expect(ReportBodySchema.parse(body)).toEqual(body);
      expect(body.week).toBe(W1);
      expect(body.provisional).toBe(false);
      expect(body.services).toEqual({
        tracked: 2,
        by_tier: { reviewed: 1, discovered: 1 },
        by_type: { api_endpoint: 2, task_marketplace: 0, mcp_server: 0 },
        by_tier_type: {
          reviewed: { api_endpoint: 1, task_marketplace: 0, mcp_server: 0 },
          discovered: { api_endpoint: 1, task_marketplace: 0, mcp_server: 0 },
        },
      });
      expect(body.checks.by_kind.reviewed).toEqual({ ran: 160, passed: 120, missed: 8, pass_rate: 0.75 });
      expect(body.checks.by_kind.x402).toEqual({ ran: 3, passed: 2, missed: 1, pass_rate: 2 / 3 });
      expect(body.checks.by_kind.mcp).toEqual({ ran: 0, passed: 0, missed: 0, pass_rate: null });
      expect(body.checks.total).toEqual({ ran: 163, passed: 122, missed: 9, pass_rate: 122 / 163 });
      expect(body.listing.added).toBe(1);
      expect(body.listing.added_by_tier).toEqual({ reviewed: 0, discovered: 1 });
    });
  });

  it('counts missed checks against the interval in force at the time', async () => {
    await withDb(async (_ctx, store) => {
      await addService(store, { id: 'cand_y', tier: 'discovered', createdAt: '2026-10-01T00:00:00Z' });
      await addOperation(store, { serviceId: 'cand_y', rule: 'x402-mainnet/1', hours: 168, changedAt: '2026-10-01T00:00:00Z' });
      // daily until Wednesday 00:00, then hourly from then on
      await store.run(`UPDATE interval_changes SET to_hours = 24`);
      await store.run(
        `INSERT INTO interval_changes VALUES ('cand_y', 'primary', '2026-11-04T00:00:00'::TIMESTAMP, 24, 1, 'schedule/1', 'payers_100_plus')`,
      );
      const body = await computeWeekFigures(store, new Date(`${W1}T00:00:00Z`), new Date(`${W2}T00:00:00Z`));
      expect(body.checks.by_kind.x402.missed).toBe(2 + 5 * 24);
      expect(body.interval_changes).toEqual({ total: 1, by_new_interval: { hourly: 1, daily: 0, weekly: 0, monthly: 0 } });
    });
  });

  it('counts declared-against-observed differences that began and ended in the week (declared-terms/1)', async () => {
    await withDb(async (_ctx, store) => {
      await addService(store, { id: 'cand_d', tier: 'discovered', createdAt: '2026-10-01T00:00:00Z' });
      await addOperation(store, { serviceId: 'cand_d', rule: 'x402-mainnet/2', hours: 24 });
      const obs = (at: string, hash: string, price: number, networks: string) =>
        store.run(
          `INSERT INTO payment_terms VALUES ('cand_d', 'primary', $1::TIMESTAMP, $1::TIMESTAMP, 2, '[]', $2, ${networks}, ['exact'], [], ['p1'], [], [60], $3, NULL, NULL)`,
          [at, hash, price],
        );
      await recordDeclared(
        store,
        { kind: 'catalog', name: 'cdp' },
        [{ service_id: 'cand_d', values: { ...NOTHING_DECLARED, price_usd: 0.01, networks: ['eip155:8453'] } }],
        '2026-10-30T00:00:00.000Z',
        true,
      );
      await obs('2026-10-31T00:00:00Z', 'h1', 0.02, `['eip155:8453']`); // price differs, before the week
      await obs('2026-11-03T00:00:00Z', 'h2', 0.01, `['eip155:137']`); // price agrees again, the network now differs
      const body = await computeWeekFigures(store, new Date(`${W1}T00:00:00Z`), new Date(`${W2}T00:00:00Z`));
      expect(body.declared_terms).toEqual({
        began: 1,
        ended: 1,
        services: 1,
        by_dimension: { max_price: 0, network: 1, asset: 0, pay_to: 0, price: 0, scheme: 0 },
      });
    });
  });

  it('classifies payment-term changes by kind from raw observations', async () => {
    await withDb(async (_ctx, store) => {
      await addService(store, { id: 'cand_p', tier: 'discovered', createdAt: '2026-10-01T00:00:00Z' });
      const obs = async (at: string, hash: string, amounts: string[], networks: string[], payTo: string[]) =>
        store.run(
          `INSERT INTO payment_terms VALUES ('cand_p', 'primary', $1::TIMESTAMP, $1::TIMESTAMP, 2, '[]', $2, $3::VARCHAR[], ['exact'], $4::VARCHAR[], $5::VARCHAR[], $6::VARCHAR[], [60], NULL, NULL, NULL)`,
          [
            at,
            hash,
            JSON.stringify(networks).replace(/"/g, "'"),
            JSON.stringify(networks.map((n) => `${n}|usdc`)).replace(/"/g, "'"),
            JSON.stringify(payTo).replace(/"/g, "'"),
            JSON.stringify(amounts).replace(/"/g, "'"),
          ],
        );
      await obs('2026-10-30T00:00:00Z', 'h1', ['exact|eip155:8453|usdc=1000'], ['eip155:8453'], ['p1']); // before the week
      await obs('2026-11-03T00:00:00Z', 'h1', ['exact|eip155:8453|usdc=1000'], ['eip155:8453'], ['p1']); // unchanged
      await obs('2026-11-04T00:00:00Z', 'h2', ['exact|eip155:8453|usdc=2000'], ['eip155:8453'], ['p1']); // price
      await obs(
        '2026-11-05T00:00:00Z',
        'h3',
        ['exact|eip155:8453|usdc=2000', 'exact|eip155:137|usdc=2000'],
        ['eip155:137', 'eip155:8453'],
        ['p2'],
      ); // network_added + pay_to
      const body = await computeWeekFigures(store, new Date(`${W1}T00:00:00Z`), new Date(`${W2}T00:00:00Z`));
      expect(body.payment_terms.changes).toBe(2);
      expect(body.payment_terms.services).toBe(1);
      expect(body.payment_terms.by_kind).toMatchObject({ price: 1, network_added: 1, pay_to: 1, network_removed: 0, asset: 0, other: 0 });
    });
  });

  it('counts exactly the payment-term changes compute counts: discovered primary operations, timeout included', async () => {
    await withDb(async (ctx, store, clock) => {
      await addService(store, { id: 'cand_t', tier: 'discovered', createdAt: '2026-10-01T00:00:00Z' });
      await addService(store, { id: 'svc_r', tier: 'reviewed', createdAt: '2026-10-01T00:00:00Z' });
      const obs = (service: string, op: string, at: string, hash: string, timeouts: number[]) =>
        store.run(
          `INSERT INTO payment_terms VALUES ($1, $2, $3::TIMESTAMP, $3::TIMESTAMP, 2, '[]', $4, ['eip155:8453'], ['exact'],
             ['eip155:8453|usdc'], ['p1'], ['exact|eip155:8453|usdc=1000'], $5::INTEGER[], NULL, NULL, NULL)`,
          [service, op, at, hash, `[${timeouts.join(',')}]`],
        );
      await obs('cand_t', 'primary', '2026-11-03T00:00:00Z', 'h1', [60]);
      await obs('cand_t', 'primary', '2026-11-04T00:00:00Z', 'h2', [120]); // timeout only: other
      await obs('cand_t', 'docs', '2026-11-03T00:00:00Z', 'd1', [60]); // not the primary operation
      await obs('cand_t', 'docs', '2026-11-04T00:00:00Z', 'd2', [90]);
      await obs('svc_r', 'primary', '2026-11-03T00:00:00Z', 'r1', [60]); // a reviewed service
      await obs('svc_r', 'primary', '2026-11-04T00:00:00Z', 'r2', [90]);
      await obs('cand_t', 'primary', '2026-11-09T00:00:00Z', 'h3', [60]); // at the week end: next week
      const body = await computeWeekFigures(store, new Date(`${W1}T00:00:00Z`), new Date(`${W2}T00:00:00Z`));
      expect(body.payment_terms).toEqual({
        changes: 1,
        services: 1,
        by_kind: { price: 0, network_added: 0, network_removed: 0, asset: 0, pay_to: 0, scheme: 0, version: 0, other: 1 },
      });
      // compute's copy of the same changes (terms_changes), at the week end
      clock.set(`${W2}T00:00:00Z`);
      await computeAll(ctx, store);
      const computed = await store.all<{ service_id: string; kinds: string[] }>(
        `SELECT service_id, kinds FROM terms_changes WHERE changed_at >= $1::TIMESTAMP AND changed_at < $2::TIMESTAMP`,
        [`${W1}T00:00:00Z`, `${W2}T00:00:00Z`],
      );
      expect(computed).toEqual([{ service_id: 'cand_t', kinds: ['other'] }]);
    });
  });

  it('a week with no data is a report of zeros', async () => {
    await withDb(async (_ctx, store) => {
      const body = await computeWeekFigures(store, new Date(`${W1}T00:00:00Z`), new Date(`${W2}T00:00:00Z`));
      expect(body.services.tracked).toBe(0);
      expect(body.checks.total).toEqual({ ran: 0, passed: 0, missed: 0, pass_rate: null });
      expect(body.outcome_reports.received).toBe(0);
      expect(body.feedback.by_kind.missing_service).toBe(0);
    });
  });
});

describe('freezing, corrections and current', () => {
  it('a frozen report stays byte-identical after later checks and after corrections; corrections come in order', async () => {
    await withDb(async (ctx, store, clock) => {
      await addService(store, { id: 'svc_a', createdAt: '2026-11-02T00:00:00Z' });
      await addOperation(store, { serviceId: 'svc_a', rule: 'reviewed/1', hours: 1, changedAt: '2026-11-02T00:00:00Z' });
      await addHourlyChecks(store, 'svc_a', 'reviewed/1', '2026-11-02T00:00:00Z', '2026-11-09T00:00:00Z');
      clock.set('2026-11-09T00:05:00Z');
      expect((await freezeDueReports(ctx, store)).frozen).toEqual([W1]);
      const first = await getReport(store, W1, clock());
      expect(Report.parse(first)).toBeTruthy();
      expect(first.status).toBe('final');
      const bytes = JSON.stringify(first.report);
      const [stored] = await store.all<{ body: string }>(`SELECT body FROM reports`);

      // Later data that falls into the frozen week (late checks, outcomes) does not change it.
      await addCheck(store, {
        serviceId: 'svc_a',
        slot: '2026-11-08T23:00:00Z',
        operation: 'late',
        checkedAt: '2026-11-08T23:30:00Z',
        passed: false,
        rule: 'reviewed/1',
      });
      await addHourlyChecks(store, 'svc_a', 'reviewed/1', '2026-11-09T00:00:00Z', '2026-11-10T00:00:00Z');
      clock.set('2026-11-10T00:00:00Z');
      expect((await freezeDueReports(ctx, store)).frozen).toEqual([]);
      await appendCorrection(store, { week: W1, note: 'first note', figures: ['checks.by_kind.reviewed.missed=3'] }, clock());
      clock.advance(60_000);
      await appendCorrection(store, { week: W1, note: 'second note' }, clock());

      const again = await getReport(store, W1, clock());
      expect(JSON.stringify(again.report)).toBe(bytes);
      const [storedAgain] = await store.all<{ body: string }>(`SELECT body FROM reports`);
      expect(storedAgain!.body).toBe(stored!.body);
      expect(again.corrections.map((c) => [c.seq, c.note])).toEqual([
        [1, 'first note'],
        [2, 'second note'],
      ]);
      expect(again.corrections[0]!.figures).toEqual({ 'checks.by_kind.reviewed.missed': 3 });
      expect(again.generated_at).toBe('2026-11-10T00:01:00.000Z');
      expect(Report.parse(again)).toBeTruthy();

      const list = await listReports(store, clock());
      expect(ReportList.parse(list).items.map((i) => [i.id, i.corrections])).toEqual([[W1, 2]]);
    });
  });

  it('rejects corrections of unknown weeks, unknown figures and bad week ids', async () => {
    await withDb(async (ctx, store, clock) => {
      await addService(store, { id: 'svc_a', createdAt: '2026-11-02T00:00:00Z' });
      clock.set('2026-11-09T00:00:00Z');
      await freezeDueReports(ctx, store);
      await expect(appendCorrection(store, { week: W2, note: 'x' }, clock())).rejects.toMatchObject({ code: 'not_found' });
      await expect(appendCorrection(store, { week: '2026-11-03', note: 'x' }, clock())).rejects.toMatchObject({ code: 'bad_usage' });
      await expect(appendCorrection(store, { week: W1, note: 'x', figures: ['checks.nope=1'] }, clock())).rejects.toMatchObject({
        code: 'invalid_input',
      });
      await expect(appendCorrection(store, { week: W1, note: 'x', figures: ['checks=1'] }, clock())).rejects.toMatchObject({
        code: 'invalid_input',
      });
      await expect(appendCorrection(store, { week: W1, note: 'x', figures: ['nonsense'] }, clock())).rejects.toMatchObject({
        code: 'bad_usage',
      });
      expect(await store.all(`SELECT * FROM report_corrections`)).toEqual([]);
    });
  });

  it('current changes as checks arrive and never freezes', async () => {
    await withDb(async (ctx, store, clock) => {
      await addService(store, { id: 'svc_a', createdAt: '2026-11-02T00:00:00Z' });
      await addOperation(store, { serviceId: 'svc_a', rule: 'reviewed/1', hours: 1, changedAt: '2026-11-02T00:00:00Z' });
      clock.set('2026-11-04T10:30:00Z');
      const a = await currentReport(store, clock());
      expect(Report.parse(a).status).toBe('provisional');
      expect(a.week_start).toBe(W1);
      const ra = ReportBodySchema.parse(a.report);
      expect(ra.provisional).toBe(true);
      expect(ra.checks.by_kind.reviewed).toMatchObject({ ran: 0, missed: 58 });
      await addHourlyChecks(store, 'svc_a', 'reviewed/1', '2026-11-02T00:00:00Z', '2026-11-04T10:00:00Z');
      const b = ReportBodySchema.parse((await currentReport(store, clock())).report);
      expect(b.checks.by_kind.reviewed).toMatchObject({ ran: 58, missed: 0, pass_rate: 1 });
      clock.set('2026-11-04T11:30:00Z');
      await addCheck(store, {
        serviceId: 'svc_a',
        slot: '2026-11-04T10:00:00Z',
        checkedAt: '2026-11-04T10:00:10Z',
        passed: false,
        rule: 'reviewed/1',
      });
      const c = ReportBodySchema.parse((await getReport(store, 'current', clock())).report);
      expect(c.checks.by_kind.reviewed).toMatchObject({ ran: 59, passed: 58, missed: 0 });
      expect(c.figures_until).toBe('2026-11-04T11:30:00.000Z');
      // The running week's Monday answers provisionally too; nothing was frozen.
      expect((await getReport(store, W1, clock())).status).toBe('provisional');
      expect((await freezeDueReports(ctx, store)).frozen).toEqual([]);
    });
  }, 60_000);

  it('a three-week outage freezes the three missed weeks in order on the next run', async () => {
    await withDb(async (ctx, store, clock) => {
      await addService(store, { id: 'svc_a', createdAt: '2026-11-03T12:00:00Z' });
      await addOperation(store, { serviceId: 'svc_a', rule: 'reviewed/1', hours: 1, changedAt: '2026-11-03T12:00:00Z' });
      await addHourlyChecks(store, 'svc_a', 'reviewed/1', '2026-11-03T12:00:00Z', '2026-11-05T00:00:00Z');
      clock.set('2026-11-04T00:00:00Z');
      expect((await freezeDueReports(ctx, store)).frozen).toEqual([]);
      // The pipeline was down from 2026-11-05 until 2026-11-25.
      clock.set('2026-11-25T22:40:00Z');
      expect((await freezeDueReports(ctx, store)).frozen).toEqual([W1, W2, W3]);
      const rows = await store.all<{ week: string; frozen_at: string }>(
        `SELECT strftime(week, '%Y-%m-%d') AS week, frozen_at FROM reports ORDER BY week`,
      );
      expect(rows.map((r) => r.week)).toEqual([W1, W2, W3]);
      const w1 = ReportBodySchema.parse((await getReport(store, W1, clock())).report);
      const w2 = ReportBodySchema.parse((await getReport(store, W2, clock())).report);
      expect(w1.checks.by_kind.reviewed.ran).toBe(36);
      expect(w2.checks.by_kind.reviewed).toEqual({ ran: 0, passed: 0, missed: 168, pass_rate: null });
      expect(w2.services.tracked).toBe(1);
      expect((await listReports(store, clock())).items.map((i) => i.id)).toEqual([W3, W2, W1]);
      // The running week is not frozen; asking again freezes nothing new.
      expect((await freezeDueReports(ctx, store)).frozen).toEqual([]);
      await expect(getReport(store, W4, new Date('2026-11-25T22:40:00Z'))).resolves.toMatchObject({ status: 'provisional' });
      const runs = await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM runs WHERE kind = 'report'`);
      expect(runs[0]!.n).toBe(2); // once in the week of 11-02, once for the catch-up; the repeat adds none
    });
  }, 60_000);

  it('unknown, malformed and non-Monday ids are not found', async () => {
    await withDb(async (_ctx, store, clock) => {
      clock.set('2026-11-25T22:40:00Z');
      for (const id of ['2026-11-24', '2026-11-09', 'latest', '2026-11-30', '2026-02-30', '../x']) {
        const e = await getReport(store, id, clock()).catch((x: unknown) => x);
        expect(e, id).toBeInstanceOf(AtlasError);
        expect((e as AtlasError).code).toBe('not_found');
      }
    });
  }, 60_000);
});
