import { describe, expect, it } from 'vitest';
import { signReferral, verifyReferral } from '../../../pipeline/core/referral.ts';
import type { AtlasError } from '../../../pipeline/core/errors.ts';
import { checkOperatorInput } from '../../../pipeline/moderation/operator.ts';
import { moderate, type ReportFacts } from '../../../pipeline/moderation/rules.ts';
import { MODERATION_LIMITS, MODERATION_REASONS } from '../../../site/contract/moderation.ts';

/** Rule moderation/1 as a table: one pending report, its neighbours, the decision. */
const SECRET = 'test-secret-0123456789abcdef';
const T0 = new Date('2026-11-25T12:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const services = new Map([
  ['svc_a', { monitoringSince: new Date('2026-11-01T00:00:00Z') }],
  ['svc_b', { monitoringSince: new Date('2026-11-25T11:00:00Z') }],
]);
const checkReferral = (token: string, when: Date) => verifyReferral(SECRET, token, when);
const ref = (service: string, key: string, issued: Date) => signReferral(SECRET, service, key, issued);

let n = 0;
const report = (over: Partial<ReportFacts> = {}): ReportFacts => ({
  id: `out_${String(++n).padStart(4, '0')}`,
  key_id: 'key_1',
  service_id: 'svc_a',
  referral_id: null,
  outcome: 'success',
  received_at: T0,
  reported_at: null,
  ...over,
});

const decide = (r: ReportFacts, neighbours: ReportFacts[] = []) => moderate({ pending: [r], neighbours, services, checkReferral })[0];

describe('moderation/1, one rule at a time', () => {
  it.each<[string, () => [ReportFacts, ReportFacts[]], string | null]>([
    ['a tracked service, no referral: accepted', () => [report(), []], null],
    ['no service named', () => [report({ service_id: null }), []], 'no_service'],
    ['a service Atlas does not track', () => [report({ service_id: 'cand_nope' }), []], 'unknown_service'],
    [
      'reported before the service was tracked',
      () => [report({ service_id: 'svc_b', reported_at: new Date('2026-11-25T10:59:59Z') }), []],
      'not_tracked_at_report_time',
    ],
    ['no reported_at: judged at received_at (tracked then)', () => [report({ service_id: 'svc_b' }), []], null],
    [
      'tracked exactly from the report time',
      () => [report({ service_id: 'svc_b', reported_at: new Date('2026-11-25T11:00:00Z') }), []],
      null,
    ],
    ['a valid referral of the same key and service', () => [report({ referral_id: ref('svc_a', 'key_1', at(-60)) }), []], null],
    ['a referral exactly 7 days old', () => [report({ referral_id: ref('svc_a', 'key_1', at(-7 * 24 * 60)) }), []], null],
    ['a referral older than 7 days', () => [report({ referral_id: ref('svc_a', 'key_1', at(-7 * 24 * 60 - 1)) }), []], 'referral_expired'],
    ['a referral of another key', () => [report({ referral_id: ref('svc_a', 'key_2', at(-60)) }), []], 'referral_invalid'],
    ['a referral naming another service', () => [report({ referral_id: ref('svc_b', 'key_1', at(-60)) }), []], 'referral_invalid'],
    ['a forged referral', () => [report({ referral_id: `${ref('svc_a', 'key_1', at(-60)).slice(0, -2)}AA` }), []], 'referral_invalid'],
    ['not a referral', () => [report({ referral_id: 'hello' }), []], 'referral_invalid'],
    [
      'same key, service, outcome 10 minutes earlier: duplicate',
      () => [report({ received_at: at(10) }), [report({ received_at: at(0) })]],
      'duplicate',
    ],
    [
      'same key, service, outcome 10 minutes and 1 ms earlier: not a duplicate',
      () => [report({ received_at: new Date(at(10).getTime() + 1) }), [report({ received_at: at(0) })]],
      null,
    ],
    ['another outcome is no duplicate', () => [report({ received_at: at(1) }), [report({ outcome: 'failure' })]], null],
    ['another key is no duplicate', () => [report({ received_at: at(1) }), [report({ key_id: 'key_2' })]], null],
    ['another service is no duplicate', () => [report({ received_at: at(1) }), [report({ service_id: 'svc_b' })]], null],
    ['a later report does not make an earlier one a duplicate', () => [report(), [report({ received_at: at(1) })]], null],
    [
      'same instant: the smaller id is first',
      () => {
        const first = report({ id: 'out_a' });
        return [report({ id: 'out_b' }), [first]];
      },
      'duplicate',
    ],
  ])('%s', (_name, make, reason) => {
    const [r, neighbours] = make();
    const d = decide(r, neighbours);
    expect(d).toEqual(
      reason === null ? { report_id: r.id, state: 'accepted', reason: null } : { report_id: r.id, state: 'rejected', reason },
    );
    if (reason) expect(MODERATION_REASONS).toContain(reason);
  });

  it(`the daily limit: the ${MODERATION_LIMITS.dailyReportsPerKey}th report of a key on a UTC day passes, the next is rejected, the next day starts again`, () => {
    const L = MODERATION_LIMITS.dailyReportsPerKey;
    // One report every 11 minutes about alternating outcomes: none is a duplicate of another.
    const day = Array.from({ length: L + 1 }, (_, i) =>
      report({ received_at: new Date(Date.UTC(2026, 10, 25, 0, 0) + i * 11 * 60_000), outcome: i % 2 ? 'failure' : 'success' }),
    );
    const nextDay = report({ received_at: new Date('2026-11-26T00:00:00Z') });
    const decisions = moderate({ pending: [...day, nextDay], neighbours: [], services, checkReferral });
    expect(decisions.filter((d) => d.state === 'accepted')).toHaveLength(L + 1);
    expect(decisions[L - 1]).toMatchObject({ state: 'accepted' });
    expect(decisions[L]).toMatchObject({ state: 'rejected', reason: 'daily_limit' });
    expect(decisions[L + 1]).toMatchObject({ state: 'accepted' });
    // Already-decided neighbours count as much as pending ones: the same answer in any batching.
    const later = moderate({ pending: [day[L]!], neighbours: day.slice(0, L), services, checkReferral });
    expect(later).toEqual([decisions[L]]);
  });

  it('rules apply in order: a report failing several gets the first reason', () => {
    const r = report({ service_id: 'cand_nope', referral_id: 'hello', received_at: at(1) });
    expect(decide(r, [report({ service_id: 'cand_nope' })])).toMatchObject({ reason: 'unknown_service' });
  });
});

describe('an operator decision: input checked before anything is read', () => {
  const base = { ids: ['out_1'], by: 'alice', now: T0 };
  it.each<[string, Parameters<typeof checkOperatorInput>[0], string | { state: string; reason: string | null }]>([
    ['accept one', { ...base, decision: 'accept' }, { state: 'accepted', reason: null }],
    ['reject: the default reason', { ...base, decision: 'reject' }, { state: 'rejected', reason: 'operator_review' }],
    ['reject with a reason of the set', { ...base, decision: 'reject', reason: 'duplicate' }, { state: 'rejected', reason: 'duplicate' }],
    [
      'a filter alone is a batch',
      { ...base, ids: [], filter: { service: 'svc_a' }, decision: 'accept' },
      { state: 'accepted', reason: null },
    ],
    ['a reason outside the set', { ...base, decision: 'reject', reason: 'spam' }, '--reason must be one of'],
    ['a reason with accept', { ...base, decision: 'accept', reason: 'duplicate' }, '--reason applies to reject only'],
    ['the rules’ own name', { ...base, by: 'pipeline', decision: 'accept' }, '--by must be an operator name'],
    ['an empty name', { ...base, by: '', decision: 'accept' }, '--by must be an operator name'],
    ['nothing selected', { ...base, ids: [], decision: 'accept' }, 'name at least one report id'],
    ['a state outside the set', { ...base, filter: { state: 'gone' as never }, decision: 'accept' }, '--state must be one of'],
  ])('%s', (_name, input, want) => {
    if (typeof want === 'string') {
      expect(() => checkOperatorInput(input)).toThrow(want);
      try {
        checkOperatorInput(input);
      } catch (e) {
        expect((e as AtlasError).code).toBe('bad_usage');
      }
    } else expect(checkOperatorInput(input)).toEqual(want);
  });
});
