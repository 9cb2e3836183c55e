import { API_VERSION } from '../../../site/contract/common.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { Hono } from 'hono';
import { ChangeList, type ChangeRecord } from '../../../site/contract/changes.ts';
import type { DeclaredDifferenceChange } from '../../../site/contract/declared-terms.ts';
import { ErrorBody } from '../../../site/contract/error.ts';
import { Health } from '../../../site/contract/health.ts';
import { Report } from '../../../site/contract/reports.ts';
import { harness, T0, type Harness } from '../harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const change = (id: string, daysAgo: number, over: Partial<ChangeRecord> = {}): ChangeRecord => ({
  kind: 'documentation',
  catalog: null,
  id,
  service_id: 'svc_docs',
  service_name: 'Docs',
  url: 'https://docs.example.test/',
  detected_at: new Date(Date.parse(T0) - daysAgo * 86_400_000).toISOString(),
  summary: 'changed',
  added_lines: 1,
  removed_lines: 0,
  needs_review: false,
  review_terms: [],
  diff: [],
  ...over,
});

const report = (id: string) => ({
  api_status: 'preview',
  id,
  week_start: '2026-11-16',
  week_end: '2026-11-22',
  status: 'final',
  frozen_at: T0,
  generated_at: T0,
  report: {},
  corrections: [],
});

describe('published resources', () => {
  it('stats, status, roadmap, fields: 200 with api_status', async () => {
    h = await harness();
    for (const p of ['/api/v1/stats', '/api/v1/status', '/api/v1/roadmap', '/api/v1/fields']) {
      const r = await h.json(p);
      expect(r.status, p).toBe(200);
      expect(r.body.api_status).toBe('preview');
      expect(r.res.headers.get('x-api-status')).toBe('preview');
    }
    const rm = await h.json('/api/v1/roadmap');
    expect(rm.body).toHaveProperty('measured_today');
    expect(rm.body).toHaveProperty('items');
    expect(rm.body).toHaveProperty('note');
  });

  it('reports: list, a week, current; unknown or malformed ids → 404', async () => {
    h = await harness({ generation: { reports: { '2026-11-16': report('2026-11-16'), current: report('current') } } });
    expect((await h.json('/api/v1/reports')).status).toBe(200);
    const w = await h.json('/api/v1/reports/2026-11-16');
    expect(w.status).toBe(200);
    expect(w.body.id).toBe('2026-11-16');
    expect((await h.json('/api/v1/reports/current')).status).toBe(200);
    for (const id of ['2026-11-09', '2026-13-99x', 'latest', '..']) {
      const r = await h.json(`/api/v1/reports/${id}`);
      expect(r.status, id).toBe(404);
      expect(ErrorBody.parse(r.body).error).toBe('not_found');
    }
  });

  it("reports: the running week's Monday answers like current, by the server's clock", async () => {
    // T0 is Wednesday 2026-11-25: the running week starts Monday 2026-11-23.
    const current = {
      ...report('current'),
      week_start: '2026-11-23',
      week_end: '2026-11-29',
      status: 'provisional',
      frozen_at: null,
      report: { checks: 42 },
    };
    h = await harness({ generation: { reports: { '2026-11-16': report('2026-11-16'), current } } });
    const cur = await h.json('/api/v1/reports/current');
    const r = await h.json('/api/v1/reports/2026-11-23');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Report.parse(r.body)).toEqual({ ...cur.body, id: '2026-11-23' });
    expect(r.body.status).toBe('provisional');
    expect(r.body.frozen_at).toBeNull();
    expect(r.body.report).toEqual({ checks: 42 });
    expect((await h.json('/api/v1/reports/2026-11-30')).status).toBe(404); // a week that has not started
    // The week turns while the published current still holds the ended week: neither Monday has
    // figures to give (the ended week is not frozen yet; the running week's are not published).
    h.clock.set('2026-11-30T00:00:00Z');
    for (const id of ['2026-11-30', '2026-11-23']) {
      const late = await h.json(`/api/v1/reports/${id}`);
      expect(late.status, id).toBe(404);
      expect(ErrorBody.parse(late.body).error).toBe('not_found');
    }
    expect((await h.json('/api/v1/reports/2026-11-16')).status).toBe(200); // frozen weeks are unaffected
  });

  it('changes: look-back days (default 7) against the server clock, service_id, needs_review; newest first', async () => {
    const changes = [
      change('c1', 1),
      change('c2', 6.5, { needs_review: true }),
      change('c3', 8, { service_id: 'svc_other' }),
      change('c4', 89),
    ];
    h = await harness({ generation: { changes } });
    const ids = (b: { items: { id: string }[] }) => b.items.map((i) => i.id);
    let r = await h.json('/api/v1/changes');
    expect(ChangeList.safeParse(r.body).success).toBe(true);
    expect(ids(r.body)).toEqual(['c1', 'c2']);
    expect(r.body.query).toEqual({ days: 7 });
    r = await h.json('/api/v1/changes?days=90');
    expect(ids(r.body)).toEqual(['c1', 'c2', 'c3', 'c4']);
    r = await h.json('/api/v1/changes?days=90&service_id=svc_other');
    expect(ids(r.body)).toEqual(['c3']);
    r = await h.json('/api/v1/changes?days=90&needs_review=true');
    expect(ids(r.body)).toEqual(['c2']);
    h.clock.advance(86_400_000);
    r = await h.json('/api/v1/changes');
    expect(ids(r.body)).toEqual(['c1']);
  });

  it('changes: declared-against-observed events by the day they began or ended, by service; none with needs_review', async () => {
    const ago = (d: number) => new Date(Date.parse(T0) - d * 86_400_000).toISOString();
    const ev = (service_id: string, began: number, ended: number | null): DeclaredDifferenceChange => ({
      service_id,
      service_name: null,
      source_kind: 'catalog',
      source: 'cdp',
      dimension: 'price',
      began_at: ago(began),
      ended_at: ended === null ? null : ago(ended),
      declared_value: 0.01,
      declared_since: ago(began + 1),
      observed_value: 0.02,
      observed_at: ago(began),
    });
    const declaredChanges = [ev('cand_a', 2, null), ev('cand_b', 30, 3), ev('cand_c', 40, 20)];
    h = await harness({ generation: { declaredChanges } });
    const of = (b: { declared_differences: { service_id: string }[] }) => b.declared_differences.map((c) => c.service_id);
    let r = await h.json('/api/v1/changes');
    expect(ChangeList.safeParse(r.body).success).toBe(true);
    expect(of(r.body)).toEqual(['cand_a', 'cand_b']); // cand_b ended 3 days ago: in the 7-day window
    r = await h.json('/api/v1/changes?days=90&service_id=cand_c');
    expect(of(r.body)).toEqual(['cand_c']);
    r = await h.json('/api/v1/changes?days=90&needs_review=false');
    expect(of(r.body)).toEqual([]);
  });

  it('/healthz: Health schema, status recomputed against the server clock, no rate limit', async () => {
    h = await harness({ config: (c) => (c.serve.rateLimits.anonymousPerMinute = 1) });
    let r = await h.json('/healthz');
    expect(r.status).toBe(200);
    expect(Health.safeParse(r.body).success, JSON.stringify(Health.safeParse(r.body).error?.issues)).toBe(true);
    expect(r.body.status).toBe('ok');
    expect(r.body.generation).toBe('g1');
    h.clock.advance(3 * 3_600_000);
    r = await h.json('/healthz');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('degraded');
    expect(r.res.headers.get('x-api-status')).toBe('preview');
  });

  it('/openapi.json: always the injected contract builder, never the published copy', async () => {
    h = await harness();
    const r = await h.json('/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.info.version).toBe(API_VERSION);
    h.deps.openapi = () => ({ openapi: '3.1.0', info: { title: 'built', version: '0.1.0-preview' }, paths: {} });
    expect((await h.json('/openapi.json')).body.info.title).toBe('built');
  });
});

describe('errors and 404s', () => {
  it('unknown routes → 404 JSON error with X-API-Status', async () => {
    h = await harness();
    for (const p of ['/nope', '/api/v2/services', '/api/v1/services/cand_a/extra']) {
      const r = await h.json(p);
      expect(r.status).toBe(404);
      expect(ErrorBody.parse(r.body).error).toBe('not_found');
      expect(r.res.headers.get('x-api-status')).toBe('preview');
    }
  });

  it('before the first publish: data endpoints 503 with the error shape, /healthz 200 no_data', async () => {
    h = await harness({ empty: true });
    const r = await h.json('/api/v1/services');
    expect(r.status).toBe(503);
    expect(ErrorBody.parse(r.body).error).toBe('source_failed');
    const hz = await h.json('/healthz');
    expect(hz.status).toBe(200);
    expect(hz.body.status).toBe('no_data');
    expect(Health.safeParse(hz.body).success).toBe(true);
  });

  it('an unexpected error → 500 internal with no internals', async () => {
    const boom = (app: Hono) => {
      app.get('/boom', () => {
        throw new Error('secret path /etc/atlas and a stack');
      });
    };
    h = await harness({ mounts: [boom] });
    const r = await h.json('/boom');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ api_status: 'preview', error: 'internal', message: 'internal error' });
    expect(r.res.headers.get('x-api-status')).toBe('preview');
  });
});
