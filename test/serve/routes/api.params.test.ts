import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../site/contract/error.ts';
import { ServiceList } from '../../../site/contract/service-list.ts';
import { ChangeList } from '../../../site/contract/changes.ts';
import { harness, type Harness } from '../harness.ts';

/** Every search and change-feed parameter (docs/api.md), each bound on both sides: valid → 200, invalid → 400 naming it. */
let h: Harness;
beforeAll(async () => {
  h = await harness({ services: [{ id: 'cand_a', tags: ['weather'] }, { id: 'svc_b' }] });
});
afterAll(async () => {
  await h.close();
});

const VALID: [string, string][] = [
  ['q', 'a'],
  ['q', 'x'.repeat(100)],
  ['tier', 'reviewed'],
  ['tier', 'discovered'],
  ['type', 'api_endpoint'],
  ['type', 'task_marketplace'],
  ['type', 'mcp_server'],
  ['host', 'example.test'],
  ['network', 'eip155'],
  ['mainnet', 'true'],
  ['mainnet', 'false'],
  ['passing', 'true'],
  ['passing', 'false'],
  ['templated', 'true'],
  ['templated', '0'],
  ['min_pass_rate', '0'],
  ['min_pass_rate', '1'],
  ['min_pass_rate', '0.85'],
  ['min_checks', '0'],
  ['min_checks', '1000000'],
  ['min_days', '0'],
  ['min_payers', '0'],
  ['tag', 'a'],
  ['tag', 'a'.repeat(32)],
  ['tag', 'web-3'],
  ['max_price_usd', '0'],
  ['max_price_usd', '0.005'],
  ['max_terms_changes_90d', '0'],
  ['listed', 'true'],
  ['listed', 'false'],
  ['terms_mismatch', 'true'],
  ['group', 'provider'],
  ['sort', 'evidence'],
  ['sort', 'pass_rate'],
  ['sort', 'payers'],
  ['sort', 'price'],
  ['sort', 'recent'],
  ['sort', 'name'],
  ['limit', '1'],
  ['limit', '100'],
  ['offset', '0'],
  ['offset', '5000'],
  ['scope', 'directory'],
  ['scope', 'index'],
  ['provider', 'example.test'],
];

const INVALID: [string, string][] = [
  ['q', 'x'.repeat(101)],
  ['tier', 'gold'],
  ['type', 'api'],
  ['mainnet', 'yes'],
  ['passing', 'TRUE!'],
  ['templated', '2'],
  ['min_pass_rate', '-0.1'],
  ['min_pass_rate', '1.01'],
  ['min_pass_rate', 'NaN'],
  ['min_pass_rate', '1e-1'],
  ['min_checks', '-1'],
  ['min_checks', '1.5'],
  ['min_checks', 'ten'],
  ['min_days', '-1'],
  ['min_payers', '-1'],
  ['tag', 'A'],
  ['tag', 'a'.repeat(33)],
  ['tag', 'a_b'],
  ['max_price_usd', '-1'],
  ['max_price_usd', 'Infinity'],
  ['max_terms_changes_90d', '-1'],
  ['listed', 'maybe'],
  ['terms_mismatch', 'maybe'],
  ['group', 'host'],
  ['sort', 'rating'],
  ['limit', '0'],
  ['limit', '101'],
  ['limit', '-5'],
  ['offset', '-1'],
  ['offset', '0x10'],
  ['scope', 'all'],
  ['host', 'h'.repeat(254)],
];

describe('GET /api/v1/services parameters', () => {
  it.each(VALID)('%s=%s is accepted', async (name, value) => {
    const r = await h.json(`/api/v1/services?${name}=${encodeURIComponent(value)}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ServiceList.safeParse(r.body).success).toBe(true);
  });

  it.each(INVALID)('%s=%s is rejected with 400 naming the parameter', async (name, value) => {
    const r = await h.json(`/api/v1/services?${name}=${encodeURIComponent(value)}`);
    expect(r.status).toBe(400);
    expect(ErrorBody.parse(r.body).error).toBe('invalid_parameter');
    expect(r.body.message).toContain(name);
    expect(r.res.headers.get('x-api-status')).toBe('preview');
  });

  it('rejects unknown and repeated parameters, naming them', async () => {
    const u = await h.json('/api/v1/services?min_passrate=0.5');
    expect(u.status).toBe(400);
    expect(u.body.message).toContain('min_passrate');
    const rep = await h.json('/api/v1/services?tier=reviewed&tier=discovered');
    expect(rep.status).toBe(400);
    expect(rep.body.message).toContain('tier');
  });

  it('treats empty values as absent (HTML forms)', async () => {
    const r = await h.json('/api/v1/services?tier=&limit=&scope=index');
    expect(r.status).toBe(200);
    expect(r.body.query).toEqual({ scope: 'index', sort: 'evidence', limit: 50, offset: 0 });
  });
});

describe('GET /api/v1/changes parameters', () => {
  it.each([
    ['days', '1'],
    ['days', '90'],
    ['service_id', 'svc_b'],
    ['needs_review', 'true'],
    ['needs_review', 'false'],
  ])('%s=%s is accepted', async (name, value) => {
    const r = await h.json(`/api/v1/changes?${name}=${value}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(ChangeList.safeParse(r.body).success).toBe(true);
  });

  it.each([
    ['days', '0'],
    ['days', '91'],
    ['days', 'week'],
    ['service_id', 'nope'],
    ['needs_review', 'perhaps'],
    ['since', '2026-01-01'],
  ])('%s=%s is rejected with 400 naming the parameter', async (name, value) => {
    const r = await h.json(`/api/v1/changes?${name}=${value}`);
    expect(r.status).toBe(400);
    expect(ErrorBody.parse(r.body).error).toBe('invalid_parameter');
    expect(r.body.message).toContain(name);
  });
});
