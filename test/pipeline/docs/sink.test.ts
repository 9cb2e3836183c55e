import { describe, expect, it } from 'vitest';
import { listChanges, recordDocumentation } from '../../../pipeline/docs/index.ts';
import { ChangeList } from '../../../site/contract/changes.ts';
import { openTestStore, tempDir } from '../../helpers/context.ts';

const page = (price: string, extra = '') =>
  Buffer.from(
    `<html><body><script>x=${Math.random()}</script><h1>API</h1><p>Costs ${price} per call on Base.</p><p>Call GET /v1/data${extra}</p></body></html>`,
  );

describe('documentation sink', () => {
  it('baseline, unchanged, changed, failed; listChanges filters', async () => {
    const t = tempDir();
    const store = await openTestStore(t.dir);
    try {
      await store.run(
        `INSERT INTO services (id, tier, type, name, name_source, host, url, method, monitoring_since, created_at, updated_at)
         VALUES ('svc_a', 'reviewed', 'api_endpoint', 'A API', 'atlas', 'api.a', 'https://api.a/v1/data', 'GET', '2026-11-01', '2026-11-01', '2026-11-01')`,
      );
      await store.run(
        `INSERT INTO operations (service_id, id, kind, is_primary, url, method, pass_rule, interval_hours) VALUES
         ('svc_a', 'primary', 'call', true, 'https://api.a/v1/data', 'GET', 'reviewed/1', 1),
         ('svc_a', 'docs', 'documentation', false, 'https://docs.a/', 'GET', 'reviewed/1', 24)`,
      );
      const input = (day: number, body: Buffer | null, passed = true) => ({
        serviceId: 'svc_a',
        operation: 'docs',
        url: 'https://docs.a/',
        checkedAt: new Date(Date.UTC(2026, 10, day, 0, 0, 5)),
        status: passed ? 200 : 500,
        passed,
        body,
        contentType: 'text/html',
      });
      expect((await recordDocumentation(store, input(10, page('$0.01')))).action).toBe('baseline');
      expect((await recordDocumentation(store, input(11, page('$0.01')))).action).toBe('unchanged');
      expect((await recordDocumentation(store, input(12, null, false))).action).toBe('skipped_failed');
      expect((await recordDocumentation(store, input(12, page('$0.05'), false))).action).toBe('skipped_failed');
      const price = await recordDocumentation(store, input(13, page('$0.02')));
      expect(price.action).toBe('changed');
      const path = await recordDocumentation(store, input(14, page('$0.02', ' (or /v1/data/bulk for many)')));
      expect(path.action).toBe('changed');
      const wording = await recordDocumentation(store, input(15, page('$0.02', ' (or /v1/data/bulk for many!)')));
      expect(wording.action).toBe('changed');
      expect(await store.all(`SELECT count(*)::INTEGER AS n FROM doc_snapshots`)).toEqual([{ n: 4 }]);

      // A crash after the change row but before the snapshot: recording again gives the same change.
      await store.run(`DELETE FROM doc_snapshots WHERE fetched_at = (SELECT max(fetched_at) FROM doc_snapshots)`);
      const retry = await recordDocumentation(store, input(15, page('$0.02', ' (or /v1/data/bulk for many!)')));
      expect(retry).toEqual(wording);
      expect(await store.all(`SELECT count(*)::INTEGER AS n FROM changes`)).toEqual([{ n: 3 }]);

      const now = new Date('2026-11-16T00:00:00Z');
      const all = ChangeList.parse(await listChanges(store, { now, days: 7 }));
      expect(all.items.map((c) => c.needs_review)).toEqual([false, true, true]);
      const [w, p, pr] = all.items;
      expect(pr!.id).toBe(price.changeId);
      expect(pr!.review_terms).toEqual(expect.arrayContaining(['price:$0.01', 'price:$0.02']));
      expect(pr!.diff).toEqual([
        { op: '-', line: 'Costs $0.01 per call on Base.' },
        { op: '+', line: 'Costs $0.02 per call on Base.' },
      ]);
      expect(pr!.service_name).toBe('A API');
      expect(p!.review_terms).toEqual(['endpoint:/v1/data/bulk']);
      expect(w!.needs_review).toBe(false);
      expect(w!.summary).toMatch(/no listed terms touched/);
      expect((await listChanges(store, { now, days: 7, needs_review: false })).items.map((c) => c.id)).toEqual([wording.changeId]);
      expect((await listChanges(store, { now, days: 1 })).total).toBe(1);
      expect((await listChanges(store, { now, days: 7, service_id: 'svc_b' })).total).toBe(0);
      expect((await listChanges(store, { now, days: 7, service_id: 'svc_a' })).query).toEqual({ days: 7, service_id: 'svc_a' });
    } finally {
      store.close();
      t.cleanup();
    }
  });
});
