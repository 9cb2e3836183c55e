import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../site/contract/error.ts';
import { FeedbackReceipt, KeyCreated, OutcomeReceipt } from '../../../site/contract/writes.ts';
import { signReferral } from '../../../serve/auth/referral.ts';
import { harness, SECRET, type Harness } from '../harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const lines = (h: Harness, kind: string) => {
  const files = readdirSync(h.inboxDir).filter((f) => f.startsWith(`${kind}-`));
  return files.flatMap((f) =>
    readFileSync(join(h.inboxDir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
  );
};

async function newKey(address = '198.51.100.7'): Promise<{ key: string; key_id: string }> {
  const r = await h.post('/api/v1/keys', {}, {}, address);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

const expectError = (r: { status: number; body: unknown }, status: number, code: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(ErrorBody.parse(r.body).error).toBe(code);
};

describe('POST /api/v1/keys', () => {
  it('issues a key shown once, stored only as a hash, with the limits object', async () => {
    h = await harness();
    const r = await h.post('/api/v1/keys', { label: 'my agent', contact: 'ops@example.test' });
    expect(r.status).toBe(201);
    const body = KeyCreated.parse(r.body);
    expect(body.limits).toEqual({
      anonymous_requests_per_minute: 1_000_000,
      keyed_requests_per_minute: 1_000_000,
      keys_per_address_per_day: 3,
      feedback_per_address_per_day: 10,
      referral_valid_days: 7,
    });
    const [rec] = lines(h, 'keys');
    expect(rec.key_hash).toBe(createHash('sha256').update(body.key).digest('hex'));
    expect(JSON.stringify(lines(h, 'keys'))).not.toContain(body.key);
    expect(rec.address_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rec)).not.toContain('198.51.100.7');
    expect(r.res.headers.get('x-api-status')).toBe('preview');
  });

  it('accepts no body at all', async () => {
    h = await harness();
    const r = await h.json('/api/v1/keys', { method: 'POST' });
    expect(r.status).toBe(201);
  });

  it.each([
    [{ label: 'x'.repeat(81) }, 'label'],
    [{ contact: 'x'.repeat(201) }, 'contact'],
    [{ label: 5 }, 'label'],
    [{ scope: 'admin' }, 'scope'],
    [[], 'object'],
    ['"text"', 'object'],
  ])('%j → 400 naming %s', async (body, word) => {
    h = await harness();
    const r = await h.post('/api/v1/keys', body);
    expectError(r, 400, 'invalid_input');
    expect(r.body.message).toContain(word);
  });

  it('label of exactly 80 and contact of exactly 200 are fine', async () => {
    h = await harness();
    expect((await h.post('/api/v1/keys', { label: 'x'.repeat(80), contact: 'y'.repeat(200) })).status).toBe(201);
  });

  it('3 per address per UTC day → 429 with Retry-After, kept across a restart, reset the next day', async () => {
    h = await harness();
    for (let i = 0; i < 3; i++) await newKey('203.0.113.1');
    let r = await h.post('/api/v1/keys', {}, {}, '203.0.113.1');
    expectError(r, 429, 'rate_limited');
    expect(Number(r.res.headers.get('retry-after'))).toBe(12 * 3600); // T0 is 12:00 UTC
    expect((await h.post('/api/v1/keys', {}, {}, '203.0.113.2')).status).toBe(201); // another address
    await h.restart();
    r = await h.post('/api/v1/keys', {}, {}, '203.0.113.1');
    expectError(r, 429, 'rate_limited');
    h.clock.set('2026-11-26T00:00:00Z');
    expect((await h.post('/api/v1/keys', {}, {}, '203.0.113.1')).status).toBe(201);
  });

  it('keys issued before a restart still authenticate after it', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const k = await newKey();
    await h.restart();
    const r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'a' }, { 'X-API-Key': k.key });
    expect(r.status).toBe(201);
  });
});

describe('POST /api/v1/outcomes', () => {
  it('401 without a key or with an unknown key (before any body check)', async () => {
    h = await harness();
    expectError(await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'a' }), 401, 'unauthorized');
    expectError(await h.post('/api/v1/outcomes', 'not json', {}), 401, 'unauthorized');
    expectError(
      await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'a' }, { Authorization: 'Bearer atlas_nope' }),
      401,
      'unauthorized',
    );
    expectError(
      await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'a' }, { 'X-API-Key': 'atlas_nope' }),
      401,
      'unauthorized',
    );
  });

  it('201 pending moderation; 200 with the first receipt for a repeated idempotency_key (per key), also after a restart', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const k = await newKey();
    const auth = { Authorization: `Bearer ${k.key}` };
    const first = await h.post(
      '/api/v1/outcomes',
      {
        outcome: 'failure',
        failure_kind: 'payment_failed',
        idempotency_key: 'run-1',
        service_id: 'cand_a',
        operation: 'GET /v1/call',
        task_category: 'weather',
        reported_at: '2026-11-25T11:59:00+01:00',
      },
      auth,
    );
    expect(first.status).toBe(201);
    const receipt = OutcomeReceipt.parse(first.body);
    expect(receipt).toMatchObject({ status: 'pending_moderation', duplicate: false, service_id: 'cand_a', outcome: 'failure' });
    const rec = lines(h, 'outcomes')[0];
    expect(rec).toMatchObject({ id: receipt.id, moderation: 'pending', reported_at: '2026-11-25T10:59:00.000Z', key_id: k.key_id });

    h.clock.advance(60_000);
    const again = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'run-1' }, auth);
    expect(again.status).toBe(200);
    expect(OutcomeReceipt.parse(again.body)).toEqual({ ...receipt, duplicate: true, message: again.body.message });
    expect(lines(h, 'outcomes')).toHaveLength(1);

    await h.restart();
    const afterRestart = await h.post('/api/v1/outcomes', { outcome: 'unknown', idempotency_key: 'run-1' }, auth);
    expect(afterRestart.status).toBe(200);
    expect(afterRestart.body.id).toBe(receipt.id);

    const other = await newKey('192.0.2.99');
    const otherKey = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'run-1' }, { 'X-API-Key': other.key });
    expect(otherKey.status).toBe(201);
    expect(otherKey.body.id).not.toBe(receipt.id);
  });

  it('concurrent reports with one idempotency_key write once', async () => {
    h = await harness();
    const k = await newKey();
    const rs = await Promise.all(
      Array.from({ length: 5 }, () => h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'same' }, { 'X-API-Key': k.key })),
    );
    expect(rs.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(rs.map((r) => r.body.id)).size).toBe(1);
    expect(lines(h, 'outcomes')).toHaveLength(1);
  });

  it.each([
    [{ idempotency_key: 'a' }, 'outcome'],
    [{ outcome: 'great', idempotency_key: 'a' }, 'outcome'],
    [{ outcome: 'success' }, 'idempotency_key'],
    [{ outcome: 'success', idempotency_key: '' }, 'idempotency_key'],
    [{ outcome: 'success', idempotency_key: 'k'.repeat(101) }, 'idempotency_key'],
    [{ outcome: 'failure', idempotency_key: 'a', failure_kind: 'boom' }, 'failure_kind'],
    [{ outcome: 'success', idempotency_key: 'a', failure_kind: 'other' }, 'failure_kind'],
    [{ outcome: 'success', idempotency_key: 'a', operation: 'o'.repeat(121) }, 'operation'],
    [{ outcome: 'success', idempotency_key: 'a', task_category: 't'.repeat(61) }, 'task_category'],
    [{ outcome: 'success', idempotency_key: 'a', reported_at: 'yesterday' }, 'reported_at'],
    [{ outcome: 'success', idempotency_key: 'a', reported_at: '2026-11-25T13:00:00Z' }, 'reported_at'],
    [{ outcome: 'success', idempotency_key: 'a', service_id: 'nope' }, 'service_id'],
    [{ outcome: 'success', idempotency_key: 'a', service_id: 'cand_unknown' }, 'service_id'],
    [{ outcome: 'success', idempotency_key: 'a', referral_id: 'ref1.garbage' }, 'referral_id'],
    [{ outcome: 'success', idempotency_key: 'a', rating: 5 }, 'rating'],
    [[1, 2], 'object'],
  ])('%j → 400 naming %s', async (body, word) => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const k = await newKey();
    const r = await h.post('/api/v1/outcomes', body, { 'X-API-Key': k.key });
    expectError(r, 400, 'invalid_input');
    expect(r.body.message).toContain(word);
  });

  it('maximum lengths are accepted exactly', async () => {
    h = await harness();
    const k = await newKey();
    const r = await h.post(
      '/api/v1/outcomes',
      {
        outcome: 'unknown',
        failure_kind: 'other',
        idempotency_key: 'k'.repeat(100),
        operation: 'o'.repeat(120),
        task_category: 't'.repeat(60),
      },
      { 'X-API-Key': k.key },
    );
    expect(r.status).toBe(201);
  });

  it('referral_id: from the keyed read, valid for 7 days, bound to its key and service', async () => {
    h = await harness({ services: [{ id: 'cand_a' }, { id: 'cand_b' }] });
    const k = await newKey();
    const auth = { Authorization: `Bearer ${k.key}` };
    const read = await h.json('/api/v1/services/cand_a', { headers: auth });
    const referral = read.body.referral_id as string;
    expect(referral).toMatch(/^ref1\./);

    let r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r1', referral_id: referral }, auth);
    expect(r.status).toBe(201);
    expect(r.body.service_id).toBe('cand_a');

    r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r2', referral_id: referral, service_id: 'cand_b' }, auth);
    expectError(r, 400, 'invalid_input');
    expect(r.body.message).toContain('service_id');

    const other = await newKey('192.0.2.1');
    r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r3', referral_id: referral }, { 'X-API-Key': other.key });
    expectError(r, 400, 'invalid_input');
    expect(r.body.message).toContain('another key');

    const tampered = referral.slice(0, -2) + (referral.endsWith('AA') ? 'BB' : 'AA');
    r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r4', referral_id: tampered }, auth);
    expectError(r, 400, 'invalid_input');

    const forged = signReferral('another-installation-secret', 'cand_a', k.key_id, h.clock());
    r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r5', referral_id: forged }, auth);
    expectError(r, 400, 'invalid_input');

    h.clock.advance(7 * 86_400_000);
    r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r6', referral_id: referral }, auth);
    expect(r.status).toBe(201); // exactly 7 days: still valid
    h.clock.advance(1000);
    r = await h.post('/api/v1/outcomes', { outcome: 'success', idempotency_key: 'r7', referral_id: referral }, auth);
    expectError(r, 400, 'invalid_input');
    expect(r.body.message).toContain('expired');
    expect(signReferral(SECRET, 'cand_a', k.key_id, h.clock())).not.toBe(referral);
  });
});

describe('POST /api/v1/feedback', () => {
  it.each(['missing_service', 'missing_metric', 'feature_request', 'wrong_data', 'unclear_docs', 'other'])(
    'kind %s → 201 receipt',
    async (kind) => {
      h = await harness();
      const r = await h.post('/api/v1/feedback', { kind, note: 'n'.repeat(500), about: 'a'.repeat(120), contact: 'c'.repeat(200) });
      expect(r.status).toBe(201);
      const body = FeedbackReceipt.parse(r.body);
      expect(body.kind).toBe(kind);
      expect(lines(h, 'feedback')[0]).toMatchObject({ id: body.id, kind, received_at: body.received_at });
    },
  );

  it.each([
    [{}, 'kind'],
    [{ kind: 'praise' }, 'kind'],
    [{ kind: 'other', note: 'n'.repeat(501) }, 'note'],
    [{ kind: 'other', about: 'a'.repeat(121) }, 'about'],
    [{ kind: 'other', contact: 'c'.repeat(201) }, 'contact'],
    [{ kind: 'other', email: 'x' }, 'email'],
  ])('%j → 400 naming %s', async (body, word) => {
    h = await harness();
    const r = await h.post('/api/v1/feedback', body);
    expectError(r, 400, 'invalid_input');
    expect(r.body.message).toContain(word);
  });

  it('no body → 400', async () => {
    h = await harness();
    expectError(await h.json('/api/v1/feedback', { method: 'POST' }), 400, 'invalid_input');
  });

  it('10 per address per day → 429, kept across a restart', async () => {
    h = await harness();
    for (let i = 0; i < 10; i++) expect((await h.post('/api/v1/feedback', { kind: 'other' }, {}, '203.0.113.9')).status).toBe(201);
    expectError(await h.post('/api/v1/feedback', { kind: 'other' }, {}, '203.0.113.9'), 429, 'rate_limited');
    await h.restart();
    const r = await h.post('/api/v1/feedback', { kind: 'other' }, {}, '203.0.113.9');
    expectError(r, 429, 'rate_limited');
    expect(r.res.headers.get('retry-after')).toBeTruthy();
    expect((await h.post('/api/v1/feedback', { kind: 'other' }, {}, '203.0.113.10')).status).toBe(201);
  });
});

describe('request bodies', () => {
  it('malformed JSON → 400 invalid_json', async () => {
    h = await harness();
    expectError(await h.post('/api/v1/feedback', '{"kind": "other",'), 400, 'invalid_json');
    expectError(await h.post('/api/v1/keys', '{label'), 400, 'invalid_json');
  });

  it('a body over the cap → 413 (with and without Content-Length)', async () => {
    h = await harness();
    const big = JSON.stringify({ kind: 'other', note: 'x'.repeat(20_000) });
    expectError(await h.post('/api/v1/feedback', big), 413, 'payload_too_large');
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const r = await h.json('/api/v1/feedback', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expectError(r, 413, 'payload_too_large');
  });
});
