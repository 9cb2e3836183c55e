import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ChangeList } from '../../../site/contract/changes.ts';
import { ErrorBody } from '../../../site/contract/error.ts';
import { Fields } from '../../../site/contract/fields.ts';
import { Health } from '../../../site/contract/health.ts';
import { Report, ReportList } from '../../../site/contract/reports.ts';
import { Roadmap } from '../../../site/contract/roadmap.ts';
import { ServiceDetail } from '../../../site/contract/service-detail.ts';
import { ServiceList } from '../../../site/contract/service-list.ts';
import { Stats } from '../../../site/contract/stats.ts';
import { Status } from '../../../site/contract/status.ts';
import { FeedbackReceipt, KeyCreated, OutcomeReceipt } from '../../../site/contract/writes.ts';
import { harness, T0, type Harness } from '../harness.ts';

/**
 * Versioning: every JSON body of the API carries `api_status: "preview"` and every response the
 * `X-API-Status: preview` header. This walks every JSON route of the app (successes and each kind of
 * error answer) and parses each body with its contract schema, where `api_status` is required.
 * `/openapi.json` is the interface description, not an API body: it carries the header only (an
 * unknown top-level member would make it an invalid OpenAPI document).
 */
const report = (id: string, status: 'final' | 'provisional') => ({
  api_status: 'preview',
  id,
  week_start: '2026-11-16',
  week_end: '2026-11-22',
  status,
  frozen_at: status === 'final' ? T0 : null,
  generated_at: T0,
  report: {},
  corrections: [],
});

type Answer = { status: number; body: unknown; res: Response };

describe('api_status on every JSON route', () => {
  it('each body parses with its contract schema (api_status required) and each answer has X-API-Status', async () => {
    const h: Harness = await harness({
      services: [{ id: 'svc_walk' }, { id: 'cand_walk' }],
      generation: { reports: { '2026-11-16': report('2026-11-16', 'final'), current: report('current', 'provisional') } },
      config: (c) => {
        c.serve.rateLimits.enabled = true;
        c.serve.rateLimits.anonymousPerMinute = 1_000;
      },
    });
    const seen: string[] = [];
    const check = <S extends z.ZodType>(label: string, r: Answer, status: number, schema: S): z.infer<S> => {
      expect(r.status, `${label}: ${JSON.stringify(r.body)}`).toBe(status);
      expect(r.res.headers.get('x-api-status'), label).toBe('preview');
      expect((r.body as { api_status?: unknown }).api_status, label).toBe('preview');
      seen.push(label);
      return schema.parse(r.body);
    };
    try {
      check('search', await h.json('/api/v1/services?scope=index'), 200, ServiceList);
      check('search, grouped', await h.json('/api/v1/services?scope=index&group=provider'), 200, ServiceList);
      check('search, no match', await h.json('/api/v1/services?q=nothing-matches-this'), 200, ServiceList);
      check('service', await h.json('/api/v1/services/svc_walk'), 200, ServiceDetail);
      check('stats', await h.json('/api/v1/stats'), 200, Stats);
      check('status', await h.json('/api/v1/status'), 200, Status);
      check('roadmap', await h.json('/api/v1/roadmap'), 200, Roadmap);
      check('fields', await h.json('/api/v1/fields'), 200, Fields);
      check('reports', await h.json('/api/v1/reports'), 200, ReportList);
      check('report', await h.json('/api/v1/reports/2026-11-16'), 200, Report);
      check('report current', await h.json('/api/v1/reports/current'), 200, Report);
      check('changes', await h.json('/api/v1/changes'), 200, ChangeList);
      check('healthz', await h.json('/healthz'), 200, Health);
      const key = check('keys 201', await h.post('/api/v1/keys', { label: 'walk' }), 201, KeyCreated).key;
      const outcome = { outcome: 'success', idempotency_key: 'walk-1', service_id: 'svc_walk' };
      const auth = { Authorization: `Bearer ${key}` };
      check('outcomes 201', await h.post('/api/v1/outcomes', outcome, auth), 201, OutcomeReceipt);
      check('outcomes 200 (duplicate)', await h.post('/api/v1/outcomes', outcome, auth), 200, OutcomeReceipt);
      check('feedback 201', await h.post('/api/v1/feedback', { kind: 'other', note: 'walk' }), 201, FeedbackReceipt);

      // Every error answer has the one error body.
      check('400 invalid report', await h.post('/api/v1/outcomes', { outcome: 'maybe' }, auth), 400, ErrorBody);
      check('400 invalid json', await h.post('/api/v1/feedback', '{not json'), 400, ErrorBody);
      check('400 invalid parameter', await h.json('/api/v1/services?limit=1000'), 400, ErrorBody);
      check('401 key required', await h.post('/api/v1/outcomes', outcome), 401, ErrorBody);
      check('404 service', await h.json('/api/v1/services/svc_missing'), 404, ErrorBody);
      check('404 report', await h.json('/api/v1/reports/2020-01-06'), 404, ErrorBody);
      check('404 route', await h.json('/api/v1/nothing-here'), 404, ErrorBody);
      check('413 body too large', await h.post('/api/v1/feedback', { kind: 'other', note: 'x'.repeat(64 * 1024) }), 413, ErrorBody);
      for (let i = 0; i < 3; i += 1) await h.post('/api/v1/keys', {}, {}, '203.0.113.9');
      check('429 key limit', await h.post('/api/v1/keys', {}, {}, '203.0.113.9'), 429, ErrorBody);
      h.config.serve.rateLimits.anonymousPerMinute = 1;
      await h.restart();
      await h.json('/api/v1/services', undefined, '203.0.113.10');
      check('429 rate limited', await h.json('/api/v1/services', undefined, '203.0.113.10'), 429, ErrorBody);

      // Answers without a body carry the header too (each from its own address: the limit is 1 a minute now).
      const etag = (await h.req('/api/v1/services', undefined, '203.0.113.11')).headers.get('etag')!;
      const preflight = { Origin: 'https://x.example', 'Access-Control-Request-Method': 'GET' };
      const bodiless = [
        await h.req('/api/v1/services', { headers: { 'If-None-Match': etag } }, '203.0.113.12'),
        await h.req('/api/v1/stats', { method: 'OPTIONS', headers: preflight }, '203.0.113.13'),
        await h.req('/healthz', { method: 'HEAD' }),
      ];
      expect(bodiless.map((r) => r.status)).toEqual([304, 204, 200]);
      for (const r of bodiless) expect(r.headers.get('x-api-status')).toBe('preview');

      const doc = await h.json('/openapi.json');
      expect(doc.status).toBe(200);
      expect(doc.res.headers.get('x-api-status')).toBe('preview');
      expect(doc.body).not.toHaveProperty('api_status');
      expect(seen).toHaveLength(27);
    } finally {
      await h.close();
    }
  });
});
