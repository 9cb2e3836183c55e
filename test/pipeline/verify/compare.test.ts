import { describe, expect, it } from 'vitest';
import {
  compareCatalogStanding,
  compareDirectory,
  compareReport,
  compareServiceFigures,
  formatMismatch,
  sampleIds,
  sameFigure,
} from '../../../pipeline/verify/index.ts';
import type { EvidenceRow, TermsRow } from '../../../pipeline/verify/index.ts';

const evidence = (over: Partial<EvidenceRow> = {}): EvidenceRow => ({
  service_id: 'svc_a',
  operations: 2,
  check_interval_hours: 1,
  check_interval: 'hourly',
  monitoring_since: '2026-11-01T00:00:00.000Z',
  monitoring_days: 24.5,
  limited_evidence: true,
  checks_30d: '40',
  passed_30d: '38',
  missed_30d: 2,
  pass_rate: 0.95,
  freshness: 'fresh',
  last_check_at: '2026-11-25T11:00:05.000Z',
  ...over,
});

const terms = (over: Partial<TermsRow> = {}): TermsRow => ({
  service_id: 'svc_a',
  current_since: '2026-11-20T00:00:00.000Z',
  changes_30d: 1,
  changes_90d: 1,
  pay_to_changes_90d: 0,
  last_change_at: '2026-11-20T00:00:00.000Z',
  last_change_kinds: ['price'],
  window_start: '2026-11-01T00:00:00.000Z',
  limited: true,
  ...over,
});

/** A published service body built from the same values (what publish writes for these rows). */
const published = (e: EvidenceRow, t: TermsRow | null) => ({
  id: e.service_id,
  in_directory: true,
  evidence: {
    operations: e.operations,
    check_interval_hours: e.check_interval_hours,
    check_interval: e.check_interval,
    monitoring_since: e.monitoring_since,
    monitoring_days: e.monitoring_days,
    limited_evidence: e.limited_evidence,
    checks_30d: Number(e.checks_30d),
    passed_30d: Number(e.passed_30d),
    missed_30d: e.missed_30d,
    pass_rate: e.pass_rate,
    freshness: e.freshness,
    last_check: { checked_at: e.last_check_at, operation: 'primary' },
  },
  payment_terms: t && { ...t, service_id: undefined },
  directory: {
    evaluated_at: '2026-11-25T12:00:00.000Z',
    in_directory: true,
    criteria: [
      { id: 'checks_30d', applies: true, passed: true },
      { id: 'listed', applies: false, passed: null },
    ],
  },
});

describe('verify comparisons (pure)', () => {
  it('finds nothing when the published figures equal the recomputed ones, and names each that differs', () => {
    const e = evidence();
    const t = terms();
    expect(compareServiceFigures(published(e, t), e, t)).toEqual([]);
    expect(compareServiceFigures(published(e, null), e, undefined)).toEqual([]);

    const body = published(e, t);
    body.evidence.checks_30d = 41;
    body.evidence.freshness = 'stale';
    (body.payment_terms as Record<string, unknown>).last_change_kinds = ['pay_to'];
    expect(compareServiceFigures(body, e, t).map(formatMismatch)).toEqual([
      'svc_a  evidence.checks_30d  published=41  recomputed=40',
      'svc_a  evidence.freshness  published="stale"  recomputed="fresh"',
      'svc_a  payment_terms.last_change_kinds  published=["pay_to"]  recomputed=["price"]',
    ]);
    expect(compareServiceFigures(published(e, null), e, t).map((m) => m.field)).toEqual(['payment_terms']);
  });

  it('compares doubles as doubles, everything else exactly', () => {
    expect(sameFigure(0.1 + 0.2, 0.3)).toBe(true);
    expect(sameFigure(0.95, 0.9500001)).toBe(false);
    expect(sameFigure(3, '3')).toBe(true);
    expect(sameFigure(null, 0)).toBe(false);
    expect(sameFigure(['a'], ['a'])).toBe(true);
  });

  it('checks in_directory and each applicable criterion; one that does not apply is null', () => {
    const body = published(evidence(), null);
    const row = { service_id: 'svc_a', in_directory: true, checks_30d: true, listed: null };
    expect(compareDirectory(body, row)).toEqual([]);
    expect(compareDirectory(body, { ...row, in_directory: false, checks_30d: false }).map((m) => m.field)).toEqual([
      'in_directory',
      'directory.in_directory',
      'directory.criteria.checks_30d.passed',
    ]);
    expect(compareDirectory({ ...body, in_directory: false, directory: { evaluated_at: null } }, null)).toEqual([]);
  });

  it('compares a report figure by figure, a correction replacing the figure it names', () => {
    const report = {
      report: {
        week: '2026-11-16',
        notes: { a: 'text' },
        checks: {
          total: { ran: 10, passed: 9, missed: 0, pass_rate: 0.9 },
          by_kind: { mcp: { ran: 0, passed: 0, missed: 0, pass_rate: null } },
        },
        outcome_reports: { note: 'n', received: 0, by_moderation: {} },
      },
      corrections: [{ seq: 1, figures: { 'checks.total.missed': 3 } }],
    };
    const rec = new Map<string, number | null>([
      ['checks.total.ran', 10],
      ['checks.total.passed', 9],
      ['checks.total.missed', 3],
      ['checks.total.pass_rate', 0.9],
      ['outcome_reports.received', 0],
    ]);
    expect(compareReport('2026-11-16', report, rec)).toEqual([]);
    rec.set('checks.total.missed', 0);
    rec.set('outcome_reports.by_moderation.pending', 2);
    expect(compareReport('2026-11-16', report, rec).map(formatMismatch)).toEqual([
      'reports/2026-11-16  checks.total.missed  published=3  recomputed=0',
      'reports/2026-11-16  outcome_reports.by_moderation.pending  published=absent  recomputed=2',
    ]);
  });

  it('checks listed_but_failing and passing_but_unlisted; without a row both must be null', () => {
    const body = (lbf: boolean | null, pbu: boolean | null) => ({
      id: 'cand_a',
      registry_listing: { listed: true, listed_but_failing: lbf, passing_but_unlisted: pbu },
    });
    const row = { service_id: 'cand_a', listed_but_failing: true, passing_but_unlisted: false };
    expect(compareCatalogStanding(body(true, false), row)).toEqual([]);
    expect(compareCatalogStanding(body(false, false), row)).toEqual([
      { id: 'cand_a', field: 'registry_listing.listed_but_failing', published: false, recomputed: true },
    ]);
    expect(compareCatalogStanding(body(null, null), undefined)).toEqual([]);
    expect(compareCatalogStanding(body(false, true), undefined)).toHaveLength(2);
    // a reviewed service: no registry_listing, and no row
    expect(compareCatalogStanding({ id: 'svc_r', registry_listing: null }, undefined)).toEqual([]);
  });

  it('samples deterministically by seed, in id order', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `svc_${String(i).padStart(3, '0')}`);
    const a = sampleIds(ids, 10, 'gen-1');
    expect(a).toHaveLength(10);
    expect(sampleIds([...ids].reverse(), 10, 'gen-1')).toEqual(a);
    expect([...a].sort()).toEqual(a);
    expect(sampleIds(ids, 10, 'gen-2')).not.toEqual(a);
    expect(sampleIds(ids, 500, 'gen-1')).toEqual(ids);
  });
});
