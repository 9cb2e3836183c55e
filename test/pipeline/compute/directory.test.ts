import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CRITERION_IDS, fullEvaluationDueAt, isFullEvaluationDue, LISTING_CRITERIA_RULE } from '../../../pipeline/compute/index.ts';
import type { Store } from '../../../pipeline/store/store.ts';
import { CriterionResult } from '../../../site/contract/directory.ts';
import { addDiscovered, addReviewed, at, insertCheckSeries, insertChecks, insertTerms, makeCheck, makeTerms, T0 } from './fixtures.ts';
import { computeAt, viewAt, withDb } from './helpers.ts';

const NOW = at(T0, 40);
/** The stored criteria are exactly what the contract publishes (CriterionResult, strict). */
const CriteriaSchema = z.array(CriterionResult);

async function current(store: Store) {
  const rows = await store.all<{ service_id: string; in_directory: boolean; rule: string; scope: string; criteria: string }>(
    'SELECT service_id, in_directory, rule, scope, criteria FROM directory_current ORDER BY service_id',
  );
  return new Map(rows.map((r) => [r.service_id, { ...r, criteria: CriteriaSchema.parse(JSON.parse(r.criteria)) }]));
}

const failing = (c: { criteria: Array<{ id: string; applies: boolean; passed: boolean | null }> }) =>
  c.criteria.filter((x) => x.applies && !x.passed).map((x) => x.id);

/** A discovered x402 service that meets every criterion, with `days` of daily passing probes up to NOW. */
async function goodX402(store: Store, id: string, over: Parameters<typeof addDiscovered>[1] = { id }) {
  await addDiscovered(store, { registry_payers_30d: 50, ...over, id });
  await insertCheckSeries(store, { serviceId: id, from: at(T0, 20), to: NOW, everyHours: 24 });
  await insertTerms(store, [makeTerms({ service_id: id, observed_at: at(T0, 39) })]);
}

describe('directory membership, listing-criteria/1', () => {
  it('each criterion failing alone keeps a service out, with the per-criterion result', async () => {
    await withDb(async (store, dir) => {
      // baselines: in the directory
      await goodX402(store, 'cand_ok');
      await addReviewed(store, { id: 'svc_ok' });
      await insertCheckSeries(store, { serviceId: 'svc_ok', from: at(T0, 20), to: NOW, everyHours: 1, rule: 'reviewed/1' });
      await addDiscovered(store, {
        id: 'cand_mcp_ok',
        type: 'mcp_server',
        protocol: 'mcp',
        registry_payers_30d: null,
        mcp_status: 'active',
      });
      await insertCheckSeries(store, { serviceId: 'cand_mcp_ok', from: at(T0, 37), to: NOW, everyHours: 24, rule: 'mcp-reach/3' });

      // 1 checks_30d: only 2 probes (fresh, all passed)
      await addDiscovered(store, { id: 'cand_few', registry_payers_30d: 50 });
      await insertCheckSeries(store, { serviceId: 'cand_few', from: at(T0, 38), to: NOW, everyHours: 24 });
      await insertTerms(store, [makeTerms({ service_id: 'cand_few', observed_at: at(T0, 39) })]);
      // 2 fresh: last probe 3 days ago on a daily interval
      await addDiscovered(store, { id: 'cand_stale', registry_payers_30d: 50 });
      await insertCheckSeries(store, { serviceId: 'cand_stale', from: at(T0, 20), to: at(T0, 37, 1), everyHours: 24 });
      await insertTerms(store, [makeTerms({ service_id: 'cand_stale', observed_at: at(T0, 37) })]);
      // 3 pass_rate: 14 of 20 passed (0.7)
      await addDiscovered(store, { id: 'cand_flaky', registry_payers_30d: 50 });
      await insertCheckSeries(store, {
        serviceId: 'cand_flaky',
        from: at(T0, 20),
        to: NOW,
        everyHours: 24,
        passed: "datediff('day', TIMESTAMP '2026-07-21', t) >= 6",
      });
      await insertTerms(store, [makeTerms({ service_id: 'cand_flaky', observed_at: at(T0, 39) })]);
      // 4 listed: unlisted by the registry yesterday; an MCP server deleted from its registry
      await goodX402(store, 'cand_unlisted', { id: 'cand_unlisted', listed: false, unlisted_at: at(T0, 39) });
      await addDiscovered(store, { id: 'cand_mcp_deleted', type: 'mcp_server', protocol: 'mcp', mcp_status: 'deleted' });
      await insertCheckSeries(store, { serviceId: 'cand_mcp_deleted', from: at(T0, 37), to: NOW, everyHours: 24, rule: 'mcp-reach/3' });
      // 5 mainnet_offer: the latest valid request offers only a test network; another never sent a valid one
      await goodX402(store, 'cand_testnet');
      await insertTerms(store, [makeTerms({ service_id: 'cand_testnet', observed_at: at(T0, 39, 12), networks: ['eip155:84532'] })]);
      await addDiscovered(store, { id: 'cand_noterms', registry_payers_30d: 50 });
      await insertCheckSeries(store, { serviceId: 'cand_noterms', from: at(T0, 20), to: NOW, everyHours: 24 });
      // 6 listing_active: reviewed listing inactive
      await addReviewed(store, { id: 'svc_inactive', active: false });
      await insertCheckSeries(store, { serviceId: 'svc_inactive', from: at(T0, 20), to: NOW, everyHours: 1, rule: 'reviewed/1' });

      const s = await computeAt(store, dir, NOW, { scope: 'full' });
      expect(s).toMatchObject({ scope: 'full', rule: LISTING_CRITERIA_RULE, directory_evaluated: 11, directory_in: 3 });
      const cur = await current(store);
      const expected: Record<string, string[]> = {
        cand_ok: [],
        svc_ok: [],
        cand_mcp_ok: [],
        cand_few: ['checks_30d'],
        cand_stale: ['fresh'],
        cand_flaky: ['pass_rate'],
        cand_unlisted: ['listed'],
        cand_mcp_deleted: ['listed'],
        cand_testnet: ['mainnet_offer'],
        cand_noterms: ['mainnet_offer'],
        svc_inactive: ['listing_active'],
      };
      for (const [id, fails] of Object.entries(expected)) {
        const c = cur.get(id)!;
        expect(failing(c), id).toEqual(fails);
        expect(c.in_directory, id).toBe(fails.length === 0);
        expect(c.rule).toBe('listing-criteria/1');
      }
      // which criteria apply
      const applies = (id: string) =>
        cur
          .get(id)!
          .criteria.filter((c) => c.applies)
          .map((c) => c.id);
      expect(applies('cand_ok')).toEqual(['checks_30d', 'fresh', 'pass_rate', 'listed', 'mainnet_offer']);
      expect(applies('cand_mcp_ok')).toEqual(['checks_30d', 'fresh', 'pass_rate', 'listed']);
      expect(applies('svc_ok')).toEqual(['checks_30d', 'fresh', 'pass_rate', 'listing_active']);
      // values and thresholds are shown
      const flaky = cur.get('cand_flaky')!.criteria;
      expect(flaky.find((c) => c.id === 'pass_rate')).toMatchObject({ passed: false, value: 0.7, threshold: 0.8 });
      expect(flaky.find((c) => c.id === 'checks_30d')).toMatchObject({ passed: true, value: 20, threshold: 3 });
      expect(cur.get('cand_stale')!.criteria.find((c) => c.id === 'fresh')).toMatchObject({
        passed: false,
        value: 'stale',
        threshold: 'fresh',
      });
      expect(cur.get('svc_ok')!.criteria.find((c) => c.id === 'listed')).toMatchObject({ applies: false, passed: null, value: null });
    });
  });

  it("scope 'changed' re-evaluates only services checked or placed since their last evaluation; full is due hourly", async () => {
    await withDb(async (store, dir) => {
      await goodX402(store, 'cand_a');
      await goodX402(store, 'cand_b');
      const t1 = NOW;
      expect(await isFullEvaluationDue(store, new Date(t1))).toBe(true);
      expect((await computeAt(store, dir, t1)).scope).toBe('full'); // no scope given: full when due
      expect(await isFullEvaluationDue(store, new Date(at(t1, 0, 0.99)))).toBe(false);
      expect(await isFullEvaluationDue(store, new Date(at(t1, 0, 1)))).toBe(true);
      expect(fullEvaluationDueAt(null, new Date(t1))).toBe(true);

      await insertChecks(store, [makeCheck({ service_id: 'cand_a', checked_at: at(t1, 0, 0.05) })]);
      await addDiscovered(store, { id: 'cand_new', monitoring_since: at(t1, 0, 0.06) });
      const s = await computeAt(store, dir, at(t1, 0, 0.0834)); // five minutes later
      expect(s.scope).toBe('changed');
      expect(s.directory_evaluated).toBe(2);
      const rows = await store.all<{ service_id: string; scope: string }>(
        `SELECT service_id, scope FROM directory WHERE scope = 'changed' ORDER BY service_id`,
      );
      expect(rows.map((r) => r.service_id)).toEqual(['cand_a', 'cand_new']);
      // nothing new: nothing evaluated
      expect((await computeAt(store, dir, at(t1, 0, 0.17), { scope: 'changed' })).directory_evaluated).toBe(0);
      // the hourly full evaluation covers everyone
      expect((await computeAt(store, dir, at(t1, 0, 1))).directory_evaluated).toBe(3);
      const cur = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM directory_current');
      expect(Number(cur[0]!.n)).toBe(3);
    });
  }, 60_000);
  it('the rule is view listing_criteria: evaluated at a simulated instant it gives what compute stored', async () => {
    await withDb(async (store, dir) => {
      await goodX402(store, 'cand_ok');
      await goodX402(store, 'cand_testnet');
      await insertTerms(store, [makeTerms({ service_id: 'cand_testnet', observed_at: at(T0, 39, 12), networks: ['eip155:84532'] })]);
      await addDiscovered(store, { id: 'cand_mcp_deleted', type: 'mcp_server', protocol: 'mcp', mcp_status: 'deleted' });
      await addReviewed(store, { id: 'svc_ok' }, { docs: true });
      await insertCheckSeries(store, { serviceId: 'svc_ok', from: at(T0, 20), to: NOW, everyHours: 1, rule: 'reviewed/1' });
      await computeAt(store, dir, NOW, { scope: 'full' });
      const stored = await store.all<{ service_id: string; in_directory: boolean; rule: string; criteria: string }>(
        'SELECT service_id, in_directory, rule, criteria::VARCHAR AS criteria FROM directory_current ORDER BY service_id',
      );
      // researchers' path: no materialized tables involved, the views at atlas_now
      const viewed = await viewAt<{ service_id: string; in_directory: boolean; rule: string; criteria: string }>(
        store,
        NOW,
        'SELECT service_id, in_directory, rule, criteria::VARCHAR AS criteria FROM listing_criteria ORDER BY service_id',
      );
      expect(viewed).toEqual(stored);
      expect(stored.map((r) => [r.service_id, r.in_directory])).toEqual([
        ['cand_mcp_deleted', false],
        ['cand_ok', true],
        ['cand_testnet', false],
        ['svc_ok', true],
      ]);
      for (const r of stored) {
        expect(r.rule).toBe(LISTING_CRITERIA_RULE);
        expect(CriteriaSchema.parse(JSON.parse(r.criteria)).map((c) => c.id)).toEqual([...CRITERION_IDS]);
      }
      // one column per criterion, null where it does not apply
      const [flags] = await viewAt<Record<string, boolean | null>>(
        store,
        NOW,
        `SELECT passed_checks_30d, passed_fresh, passed_pass_rate, passed_listed, passed_mainnet_offer, passed_listing_active
         FROM listing_criteria WHERE service_id = 'cand_testnet'`,
      );
      expect(flags).toEqual({
        passed_checks_30d: true,
        passed_fresh: true,
        passed_pass_rate: true,
        passed_listed: true,
        passed_mainnet_offer: false,
        passed_listing_active: null,
      });
    });
  });
});
