import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../../site/contract/index.ts';

type Json = Record<string, any>;
const doc = buildOpenApi() as Json;

// The API's operations (docs/api.md, Operations): every path and method with its success status.
const SPEC_OPERATIONS: [string, string, number[]][] = [
  ['get', '/api/v1/services', [200]],
  ['get', '/api/v1/services/{id}', [200]],
  ['get', '/api/v1/stats', [200]],
  ['post', '/api/v1/keys', [201]],
  ['post', '/api/v1/outcomes', [200, 201]],
  ['get', '/api/v1/reports', [200]],
  ['get', '/api/v1/reports/{id}', [200]],
  ['get', '/api/v1/status', [200]],
  ['get', '/api/v1/changes', [200]],
  ['post', '/api/v1/feedback', [201]],
  ['get', '/api/v1/roadmap', [200]],
  ['get', '/api/v1/fields', [200]],
  ['get', '/healthz', [200]],
];

// The API's error statuses by operation (docs/api.md, Operations; docs/design.md, errors).
const SPEC_ERRORS: [string, string, number][] = [
  ['post', '/api/v1/outcomes', 400],
  ['post', '/api/v1/feedback', 400],
  ['post', '/api/v1/outcomes', 401],
  ['get', '/api/v1/services/{id}', 404],
  ['get', '/api/v1/reports/{id}', 404],
  ['get', '/api/v1/services', 429],
  ['post', '/api/v1/keys', 429],
  ['post', '/api/v1/feedback', 429],
];

const param = (path: string, name: string): Json | undefined => (doc.paths[path].get.parameters as Json[]).find((p) => p.name === name);

function resolve(ref: string): Json {
  const name = ref.replace('#/components/schemas/', '');
  const s = doc.components.schemas[name];
  if (!s) throw new Error(`unresolved ${ref}`);
  return s;
}

describe('openapi.json', () => {
  it('is OpenAPI 3.1 with version 0.1.0-preview', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('0.1.0-preview');
  });

  it('has every path and method of the API with its success statuses', () => {
    for (const [method, path, statuses] of SPEC_OPERATIONS) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      for (const s of statuses) expect(op.responses[s], `${method} ${path} ${s}`).toBeDefined();
    }
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(SPEC_OPERATIONS.map((o) => o[1]))].sort());
  });

  it('has every error status of the API, with the Error body', () => {
    for (const [method, path, status] of SPEC_ERRORS) {
      const r = doc.paths[path][method].responses[status];
      expect(r, `${method} ${path} ${status}`).toBeDefined();
      expect(r.content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    }
    expect(resolve('#/components/schemas/Error').required).toEqual(expect.arrayContaining(['error', 'message']));
  });

  it('has every query parameter of 4.1 with its bounds', () => {
    const names = (doc.paths['/api/v1/services'].get.parameters as Json[]).map((p) => p.name).sort();
    expect(names).toEqual(
      [
        'q',
        'tier',
        'type',
        'host',
        'network',
        'mainnet',
        'passing',
        'templated',
        'min_pass_rate',
        'min_checks',
        'min_days',
        'min_payers',
        'tag',
        'max_price_usd',
        'max_terms_changes_90d',
        'listed',
        'terms_mismatch',
        'listed_but_failing',
        'passing_but_unlisted',
        'group',
        'sort',
        'limit',
        'offset',
        'scope',
        'provider',
      ].sort(),
    );
    const p = (n: string) => param('/api/v1/services', n)!.schema;
    expect(p('q')).toMatchObject({ type: 'string', maxLength: 100 });
    expect(p('tier').enum).toEqual(['reviewed', 'discovered']);
    expect(p('type').enum).toEqual(['api_endpoint', 'task_marketplace', 'mcp_server']);
    for (const b of ['mainnet', 'passing', 'templated', 'listed', 'terms_mismatch']) expect(p(b).type).toBe('boolean');
    expect(p('min_pass_rate')).toMatchObject({ type: 'number', minimum: 0, maximum: 1 });
    for (const i of ['min_checks', 'min_days', 'min_payers', 'max_terms_changes_90d'])
      expect(p(i)).toMatchObject({ type: 'integer', minimum: 0 });
    expect(p('tag').pattern).toBe('^[a-z0-9-]{1,32}$');
    expect(p('max_price_usd')).toMatchObject({ type: 'number', minimum: 0 });
    expect(p('group').enum).toEqual(['provider']);
    expect(p('sort')).toMatchObject({ enum: ['evidence', 'pass_rate', 'payers', 'price', 'recent', 'name'], default: 'evidence' });
    expect(p('limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    expect(p('offset')).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(p('scope')).toMatchObject({ enum: ['directory', 'index'], default: 'directory' });
    for (const x of doc.paths['/api/v1/services'].get.parameters as Json[]) expect(x).toMatchObject({ in: 'query', required: false });
  });

  it('has every query parameter of 4.2 with its bounds', () => {
    const p = (n: string) => param('/api/v1/changes', n)!.schema;
    expect((doc.paths['/api/v1/changes'].get.parameters as Json[]).map((x) => x.name).sort()).toEqual([
      'days',
      'needs_review',
      'service_id',
    ]);
    expect(p('days')).toMatchObject({ type: 'integer', minimum: 1, maximum: 90, default: 7 });
    expect(p('needs_review').type).toBe('boolean');
    expect(p('service_id').type).toBe('string');
  });

  it('has the path parameter patterns of the API', () => {
    expect(doc.paths['/api/v1/services/{id}'].get.parameters[0]).toMatchObject({
      in: 'path',
      required: true,
      schema: { pattern: '^(svc|cand)_[A-Za-z0-9_-]+$' },
    });
    expect(doc.paths['/api/v1/reports/{id}'].get.parameters[0]).toMatchObject({
      in: 'path',
      required: true,
      schema: { pattern: '^(current|[0-9]{4}-[0-9]{2}-[0-9]{2})$' },
    });
  });

  it('states the request bodies with their limits and the key requirement of outcomes', () => {
    const outcomes = doc.paths['/api/v1/outcomes'].post;
    expect(outcomes.requestBody.required).toBe(true);
    expect(outcomes.security).toEqual([{ bearerKey: [] }, { headerKey: [] }]);
    const report = resolve(outcomes.requestBody.content['application/json'].schema.$ref);
    expect(report.required).toEqual(expect.arrayContaining(['outcome', 'idempotency_key']));
    expect(report.properties.idempotency_key.maxLength).toBe(100);
    expect(report.properties.operation.maxLength).toBe(120);
    expect(report.properties.task_category.maxLength).toBe(60);
    const feedback = resolve(doc.paths['/api/v1/feedback'].post.requestBody.content['application/json'].schema.$ref);
    expect(feedback.required).toEqual(['kind']);
    expect(feedback.properties.note.maxLength).toBe(500);
    expect(feedback.properties.about.maxLength).toBe(120);
    expect(feedback.properties.contact.maxLength).toBe(200);
    const key = resolve(doc.paths['/api/v1/keys'].post.requestBody.content['application/json'].schema.$ref);
    expect(doc.paths['/api/v1/keys'].post.requestBody.required).toBe(false);
    expect(key.properties.label.maxLength).toBe(80);
    expect(key.properties.contact.maxLength).toBe(200);
    expect(doc.components.securitySchemes.bearerKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.headerKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('declares X-API-Status on every response and resolves every $ref', () => {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        for (const [status, r] of Object.entries((op as Json).responses as Json)) {
          // The one response Atlas does not send: the HTTP server's own refusal of a malformed request
          // (no body, no Atlas headers), declared on /healthz, which is never rate limited.
          if (path === '/healthz' && status === '4XX') {
            expect((r as Json).content).toBeUndefined();
            continue;
          }
          expect((r as Json).headers['X-API-Status'], `${method} ${path} ${status}`).toBeDefined();
        }
      }
    }
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[A-Za-z0-9]+"/g) ?? [];
    for (const r of refs) expect(() => resolve(JSON.parse(r))).not.toThrow();
  });

  it('describes members from the field dictionary', () => {
    expect(doc.components.schemas.Evidence.properties.missed_30d.description).toMatch(/never counted as failures/i);
    expect(doc.components.schemas.ServiceSummary.properties.evidence.$ref).toBe('#/components/schemas/Evidence');
  });
});
