import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestInbox } from '../../../pipeline/inbox/load.ts';
import { makeContext, openTestStore } from '../../helpers/context.ts';
import { harness, type Harness } from '../../serve/harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('atlas ingest inbox (pipeline/inbox)', () => {
  it('loads keys, outcomes and feedback into DuckDB idempotently; outcome reports stay out of evidence', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const k = (await h.post('/api/v1/keys', { label: 'bot' })).body;
    await h.post(
      '/api/v1/outcomes',
      { outcome: 'success', idempotency_key: 'i1', service_id: 'cand_a', reported_at: '2026-11-25T11:00:00Z' },
      { 'X-API-Key': k.key },
    );
    await h.post('/api/v1/outcomes', { outcome: 'failure', failure_kind: 'no_response', idempotency_key: 'i2' }, { 'X-API-Key': k.key });
    await h.post('/api/v1/feedback', { kind: 'missing_service', about: 'weather.example' });
    // A crash mid-write leaves a torn last line: after the restart it is skipped, and the next
    // append starts a fresh line.
    appendFileSync(join(h.inboxDir, 'feedback-test.jsonl'), '{"id":"fb_torn","kin');
    await h.restart();
    await h.post('/api/v1/feedback', { kind: 'other' });

    const ctx = makeContext(h.dir);
    const store = await openTestStore(h.dir);
    try {
      const checksBefore = await store.all<{ n: string }>('SELECT count(*)::VARCHAR AS n FROM checks');
      const first = await ingestInbox(ctx, store);
      expect(first.keys).toEqual({ read: 1, inserted: 1, skipped: 0 });
      expect(first.outcomes).toEqual({ read: 2, inserted: 2, skipped: 0 });
      expect(first.feedback).toEqual({ read: 2, inserted: 2, skipped: 1 });
      const again = await ingestInbox(ctx, store);
      expect([again.keys.inserted, again.outcomes.inserted, again.feedback.inserted]).toEqual([0, 0, 0]);

      const keys = await store.all<Record<string, unknown>>('SELECT key_id, key_hash, label FROM keys');
      expect(keys).toEqual([{ key_id: k.key_id, key_hash: expect.stringMatching(/^[0-9a-f]{64}$/), label: 'bot' }]);
      const outcomes = await store.all<Record<string, unknown>>(
        "SELECT idempotency_key, service_id, outcome, moderation, strftime(reported_at, '%Y-%m-%dT%H:%M:%S') AS reported FROM outcomes ORDER BY idempotency_key",
      );
      expect(outcomes).toEqual([
        { idempotency_key: 'i1', service_id: 'cand_a', outcome: 'success', moderation: 'pending', reported: '2026-11-25T11:00:00' },
        { idempotency_key: 'i2', service_id: null, outcome: 'failure', moderation: 'pending', reported: null },
      ]);
      const fb = await store.all<Record<string, unknown>>('SELECT kind, about FROM feedback ORDER BY kind');
      expect(fb).toEqual([
        { kind: 'missing_service', about: 'weather.example' },
        { kind: 'other', about: null },
      ]);
      expect(await store.all('SELECT count(*)::VARCHAR AS n FROM checks')).toEqual(checksBefore);

      // A second replica's log with a duplicate (key_id, idempotency_key) is not loaded twice.
      appendFileSync(
        join(h.inboxDir, 'outcomes-replica2.jsonl'),
        `${JSON.stringify({ id: 'out_other', key_id: k.key_id, idempotency_key: 'i1', service_id: null, referral_id: null, outcome: 'unknown', failure_kind: null, operation: null, task_category: null, reported_at: null, received_at: '2026-11-25T12:30:00.000Z', moderation: 'pending' })}\n`,
      );
      const third = await ingestInbox(ctx, store);
      expect(third.outcomes.inserted).toBe(0);
    } finally {
      store.close();
    }
  });
});
