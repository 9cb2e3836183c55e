import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICES_QUERY_PARAMS, CHANGES_QUERY_PARAMS } from '../../site/contract/requests.ts';
import { ErrorBody } from '../../site/contract/error.ts';
import { ServiceList } from '../../site/contract/service-list.ts';
import { generateSpecs } from './fixture.ts';
import { harness, type Harness } from './harness.ts';

/**
 * Random query strings and bodies at the server: never a 500, every 4xx has the error shape, every
 * 200 search validates against the contract.
 */
let h: Harness;
let key = '';
beforeAll(async () => {
  h = await harness({ services: generateSpecs(200) });
  key = (await h.post('/api/v1/keys', {})).body.key;
});
afterAll(async () => {
  await h.close();
});

const NAMES = [
  ...SERVICES_QUERY_PARAMS.map((p) => p.name),
  ...CHANGES_QUERY_PARAMS.map((p) => p.name),
  'foo',
  '',
  'limit[]',
  '__proto__',
  'constructor',
];
const interesting = fc.oneof(
  fc.string(),
  fc.constantFrom(
    'true',
    'false',
    '0',
    '1',
    '-1',
    '100',
    '101',
    '0.5',
    '1e3',
    'NaN',
    '',
    ' ',
    '%',
    '%zz',
    'provider',
    'index',
    'directory',
    'name',
    'a'.repeat(200),
  ),
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
const pair = fc.tuple(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 12 })), interesting);
const queryString = fc.oneof(
  fc.array(pair, { maxLength: 6 }).map((ps) => ps.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')),
  fc.string({ maxLength: 80 }).map((s) => s.replace(/[#\s]/g, '')), // raw, possibly broken escapes
);

async function check(res: Response, where: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${where} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.headers.get('x-api-status')).toBe('preview');
  if (res.status >= 400) {
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    expect(parsed.success, `${where}: ${text.slice(0, 300)}`).toBe(true);
  }
}

describe('property: random input never breaks the server', () => {
  it('GET /api/v1/services and /api/v1/changes with random query strings', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, fc.constantFrom('/api/v1/services', '/api/v1/changes'), async (qs, path) => {
        const res = await h.req(`${path}?${qs}`);
        const clone = res.clone();
        await check(res, `${path}?${qs}`);
        if (path === '/api/v1/services' && clone.status === 200) {
          const parsed = ServiceList.safeParse(await clone.json());
          expect(parsed.success, JSON.stringify(parsed.error?.issues?.slice(0, 2))).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('random path ids', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), fc.constantFrom('/api/v1/services/', '/api/v1/reports/'), async (id, base) => {
        const path = `${base}${encodeURIComponent(id)}`;
        await check(await h.req(path), path);
      }),
      { numRuns: 200 },
    );
  });

  const body = fc.oneof(
    fc.json(),
    fc.string({ maxLength: 200 }),
    fc.record(
      {
        kind: fc.oneof(fc.constantFrom('other', 'missing_service', 'bogus'), fc.string()),
        note: fc.oneof(fc.string({ maxLength: 600 }), fc.integer()),
        outcome: fc.oneof(fc.constantFrom('success', 'failure', 'unknown'), fc.string()),
        idempotency_key: fc.string({ maxLength: 120 }),
        referral_id: fc.oneof(fc.string(), fc.constant('ref1.AAAA.AAAAAAAAAAAAAAAAAAAAAA')),
        service_id: fc.oneof(fc.string(), fc.constant('cand_00000000000000000001')),
        reported_at: fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        label: fc.string({ maxLength: 100 }),
      },
      { requiredKeys: [] },
    ),
  );

  it('POST bodies to every write endpoint (with and without a key)', async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom('/api/v1/keys', '/api/v1/outcomes', '/api/v1/feedback'),
        fc.boolean(),
        fc.ipV4(),
        async (b, path, withKey, ip) => {
          const res = await h.req(
            path,
            { method: 'POST', body: typeof b === 'string' ? b : JSON.stringify(b), headers: withKey ? { 'X-API-Key': key } : {} },
            ip,
          );
          await check(res, `${path} ${JSON.stringify(b).slice(0, 200)}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
