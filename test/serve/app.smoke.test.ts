import { describe, expect, it } from 'vitest';
import { harness } from './harness.ts';

describe('smoke', () => {
  it('answers a search', async () => {
    const h = await harness({ services: [{ id: 'cand_a' }, { id: 'svc_b' }] });
    try {
      const r = await h.json('/api/v1/services?scope=index');
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.total).toBe(2);
    } finally {
      await h.close();
    }
  });
});
