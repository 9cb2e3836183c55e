import { describe, expect, it } from 'vitest';
import { SCHEDULE_TIER_SUNSET_AT } from '../../../site/contract/common.ts';
import type { IndexRecord } from '../../../site/contract/index-record.ts';
import { NO_MATCH_HINT, type ServiceList } from '../../../site/contract/service-list.ts';
import { serviceListJson } from '../../../serve/operations/search-services.ts';
import { presentSummary, presentSummaryJson, type PresentOptions, summaryOf, summaryRender } from '../../../serve/search/present.ts';
import { compileRow, type SearchRow } from '../../../serve/search/row.ts';
import { buildService, generateSpecs } from '../fixture.ts';

/**
 * The search answer is spliced from each row's serialized summary (present.ts presentSummaryJson)
 * instead of presenting objects and serializing them; these hold the two byte-equal over every
 * answer-time value (freshness at several instants, `schedule_tier` before and after its sunset,
 * with and without a base URL) and over summaries of other shapes, which take the reference path.
 */
const PUBLISHED = new Date('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;

const records = (n: number): IndexRecord[] => generateSpecs(n).map((s) => buildService(s, PUBLISHED).record);

/** A record whose summary is reshaped by `edit` (a deep copy first). */
function reshaped(edit: (s: Record<string, unknown>, e: Record<string, unknown>) => void): IndexRecord {
  const rec = structuredClone(records(2)[1]!);
  edit(rec.summary as unknown as Record<string, unknown>, rec.summary.evidence as unknown as Record<string, unknown>);
  return rec;
}

const instants = [
  PUBLISHED,
  new Date(PUBLISHED.getTime() + 40 * HOUR),
  new Date(PUBLISHED.getTime() + 2000 * HOUR),
  SCHEDULE_TIER_SUNSET_AT,
];
const bases = [undefined, 'https://atlas.example/', 'https://atlas.example/a "quoted" path'];

function expectSame(row: SearchRow): void {
  for (const now of instants) {
    for (const baseUrl of bases) {
      const opts: PresentOptions = { now, baseUrl };
      const spliced = presentSummaryJson(row, summaryRender(opts));
      expect(spliced, `${row.id} at ${now.toISOString()} base ${baseUrl}`).toBe(JSON.stringify(presentSummary(row, opts)));
    }
  }
}

describe('presented summaries: spliced JSON = the serialized object', () => {
  it('generated services (every freshness, tier served and not, relative links with and without a base URL)', () => {
    const rows = records(200).map(compileRow);
    expect(rows.every((r) => r.layout !== null)).toBe(true);
    for (const row of rows) expectSame(row);
    // The answer-time values did change across the instants, so the splice was exercised.
    const fresh = new Set(rows.map((r) => presentSummary(r, { now: instants[0]! }).evidence.freshness));
    expect(fresh.size).toBeGreaterThan(1);
    expect(presentSummaryJson(rows[1]!, summaryRender({ now: SCHEDULE_TIER_SUNSET_AT }))).not.toContain('schedule_tier');
    expect(presentSummaryJson(rows[1]!, summaryRender({ now: PUBLISHED }))).toContain('"schedule_tier"');
  });

  it('the published summary parses back unchanged', () => {
    for (const rec of records(20)) expect(summaryOf(compileRow(rec, 0))).toEqual(rec.summary);
  });

  it.each<[string, (s: Record<string, unknown>, e: Record<string, unknown>) => void, boolean]>([
    [
      'schedule_tier first in evidence',
      (_s, e) => {
        const { schedule_tier, ...rest } = e;
        for (const k of Object.keys(e)) delete e[k];
        Object.assign(e, { schedule_tier, ...rest });
      },
      true,
    ],
    [
      'schedule_tier the only member besides freshness, last',
      (_s, e) => {
        const keep = { freshness: e.freshness, check_interval: e.check_interval, schedule_tier: e.schedule_tier };
        for (const k of Object.keys(e)) delete e[k];
        Object.assign(e, keep);
      },
      true,
    ],
    [
      'absolute links',
      (s) => {
        s.links = { page: 'https://elsewhere.example/p', api: '/api/v1/services/x' };
      },
      true,
    ],
    [
      'no schedule_tier (published after the sunset)',
      (_s, e) => {
        delete e.schedule_tier;
      },
      false,
    ],
    [
      'schedule_tier differing from check_interval',
      (_s, e) => {
        e.schedule_tier = 'monthly';
      },
      false,
    ],
    [
      'links in another order',
      (s) => {
        s.links = { api: '/api/v1/services/x', page: '/services/x' };
      },
      false,
    ],
    [
      'links with another member',
      (s) => {
        s.links = { page: '/services/x', api: '/api/v1/services/x', extra: '/x' };
      },
      false,
    ],
    [
      'no freshness',
      (_s, e) => {
        delete e.freshness;
      },
      false,
    ],
    [
      'text that looks like the edited members',
      (s) => {
        s.name = '"freshness":"fresh","schedule_tier":"hourly","links":{"page":"/x"} ünï 😀';
      },
      true,
    ],
  ])('%s', (_label, edit, spliced) => {
    const row = compileRow(reshaped(edit), 0);
    expect(row.layout !== null).toBe(spliced);
    expectSame(row);
  });

  it('the list: items spliced into the serialized head = the serialized list', () => {
    const rows = records(30).map(compileRow);
    const now = new Date(PUBLISHED.getTime() + 30 * HOUR);
    for (const page of [rows, rows.slice(0, 1), []]) {
      for (const baseUrl of bases) {
        const head: ServiceList = {
          api_status: 'preview',
          generated_at: now.toISOString(),
          data_as_of: null,
          notes: { note: 'a "quoted" "items":[] note' } as unknown as ServiceList['notes'],
          query: { scope: 'index', sort: 'name', limit: 50, offset: 0, filters: { q: '"items":[]' } },
          total: page.length,
          items: [],
        };
        if (page.length === 0) head.hint = NO_MATCH_HINT;
        const opts = { now, baseUrl };
        const whole = JSON.stringify({ ...head, items: page.map((r) => presentSummary(r, opts)) });
        expect(serviceListJson(head, page, summaryRender(opts))).toBe(whole);
      }
    }
  });
});
