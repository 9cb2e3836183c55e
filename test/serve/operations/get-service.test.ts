import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../../site/contract/error.ts';
import { ServiceDetail } from '../../../site/contract/service-detail.ts';
import { verifyReferral } from '../../../serve/auth/referral.ts';
import { harness, SECRET, type Harness } from '../harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('GET /api/v1/services/{id}', () => {
  it('returns the detail object (contract schema), without referral_id when no key is used', async () => {
    h = await harness({ services: [{ id: 'cand_a' }, { id: 'svc_b' }] });
    for (const id of ['cand_a', 'svc_b']) {
      const r = await h.json(`/api/v1/services/${id}`);
      expect(r.status).toBe(200);
      const parsed = ServiceDetail.safeParse(r.body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(r.body.api_status).toBe('preview');
      expect(r.body.referral_id).toBeUndefined();
      expect(r.res.headers.get('x-api-status')).toBe('preview');
    }
  });

  it.each(['cand_unknown', 'svc_nope', 'foo', 'cand_', 'cand_a.json', '..%2F..%2Fmanifest', `svc_${'x'.repeat(300)}`])(
    '%s → 404 with the error shape',
    async (id) => {
      h = await harness({ services: [{ id: 'cand_a' }] });
      const r = await h.json(`/api/v1/services/${id}`);
      expect(r.status).toBe(404);
      expect(ErrorBody.parse(r.body).error).toBe('not_found');
      expect(r.res.headers.get('x-api-status')).toBe('preview');
    },
  );

  it('with a key (Bearer or X-API-Key) adds a signed referral_id for that service and key', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const k = await h.post('/api/v1/keys', {});
    expect(k.status).toBe(201);
    const variants: Record<string, string>[] = [{ Authorization: `Bearer ${k.body.key}` }, { 'X-API-Key': k.body.key }];
    for (const headers of variants) {
      const r = await h.json('/api/v1/services/cand_a', { headers });
      expect(r.status).toBe(200);
      expect(ServiceDetail.safeParse(r.body).success).toBe(true);
      const v = verifyReferral(SECRET, r.body.referral_id, h.clock());
      expect(v).toMatchObject({ ok: true, serviceId: 'cand_a', keyId: k.body.key_id });
    }
    // An unknown key is ignored on reads (reading needs no key): no referral_id, still 200.
    const u = await h.json('/api/v1/services/cand_a', { headers: { 'X-API-Key': 'atlas_unknown' } });
    expect(u.status).toBe(200);
    expect(u.body.referral_id).toBeUndefined();
  });

  it('recomputes freshness, the fresh criterion and membership against the server clock', async () => {
    h = await harness({ services: [{ id: 'cand_a', lastCheckAgoHours: 40, intervalHours: 24 }] });
    let r = await h.json('/api/v1/services/cand_a');
    expect(r.body.evidence.freshness).toBe('fresh');
    expect(r.body.in_directory).toBe(true);
    h.clock.advance(9 * 3_600_000); // 49 h after a daily check
    r = await h.json('/api/v1/services/cand_a');
    expect(r.body.evidence.freshness).toBe('stale');
    expect(r.body.in_directory).toBe(false);
    expect(r.body.directory.in_directory).toBe(false);
    expect(r.body.directory.criteria.find((c: { id: string }) => c.id === 'fresh')).toMatchObject({ passed: false, value: 'stale' });
    expect(ServiceDetail.safeParse(r.body).success).toBe(true);
  });
});
