import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateCluster, openCluster } from '../../../pipeline/cluster/index.ts';
import { ingestInbox } from '../../../pipeline/inbox/load.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { postgresGate, useTestPostgres } from '../../helpers/postgres.ts';

/**
 * `atlas ingest inbox` with `cluster.postgres`: the replicas' rows move from PostgreSQL into DuckDB
 * behind one watermark (pipeline/inbox/cluster-read.ts): each row once, whatever the commit order
 * of their ids, and nothing lost or doubled by a run that fails before its DuckDB commit.
 */
const gate = postgresGate('ingest inbox from PostgreSQL');

const feedback = (c: pg.ClientBase, id: string) =>
  c.query(
    `INSERT INTO atlas.feedback (id, kind, note, about, contact, received_at, address_hash) VALUES ($1, 'other', NULL, NULL, NULL, $2, 'addr')`,
    [id, '2026-11-25T12:00:00.000Z'],
  );
const outcome = (c: pg.ClientBase, id: string, idem: string) =>
  c.query(
    `INSERT INTO atlas.outcomes (id, key_id, idempotency_key, service_id, referral_id, outcome, failure_kind, operation, task_category, reported_at, received_at, moderation)
     VALUES ($1, 'key_1', $2, 'cand_a', NULL, 'success', NULL, NULL, NULL, NULL, '2026-11-25T12:00:01.000Z', 'pending')`,
    [id, idem],
  );

describe.skipIf(!gate.present)('ingest inbox from PostgreSQL', () => {
  const server = useTestPostgres();

  async function world() {
    const url = await server.database();
    const cluster = openCluster(url);
    await migrateCluster(cluster);
    const tmp = tempDir('atlas-cluster-ingest-');
    const ctx = makeContext(tmp.dir, { config: { cluster: { postgres: url } } as never });
    const store = await openTestStore(tmp.dir);
    const ids = async (table: string) =>
      (await store.all<{ id: string }>(`SELECT ${table === 'keys' ? 'key_id' : 'id'} AS id FROM ${table} ORDER BY 1`)).map((r) => r.id);
    return {
      cluster,
      ctx,
      store,
      ids,
      async close() {
        store.close();
        await cluster.close();
        tmp.cleanup();
      },
    };
  }

  it('rows committed out of id order are each loaded once', async () => {
    const w = await world();
    const early = await w.cluster.pool.connect();
    try {
      // fb_1 takes the lower seq but commits after fb_2 was committed and loaded.
      await early.query('BEGIN');
      await feedback(early, 'fb_1');
      await w.cluster.transaction((c) => feedback(c, 'fb_2'));
      const first = await ingestInbox(w.ctx, w.store);
      expect(first.feedback).toMatchObject({ read: 1, inserted: 1 });
      expect(await w.ids('feedback')).toEqual(['fb_2']);
      await early.query('COMMIT');
      await w.cluster.transaction((c) => feedback(c, 'fb_3'));
      const second = await ingestInbox(w.ctx, w.store);
      expect(second.feedback.inserted).toBe(2);
      expect(await w.ids('feedback')).toEqual(['fb_1', 'fb_2', 'fb_3']);
      const seqs = await w.cluster.query<{ id: string; seq: string }>('SELECT id, seq FROM atlas.feedback ORDER BY seq');
      expect(seqs.rows.map((r) => r.id)).toEqual(['fb_1', 'fb_2', 'fb_3']);
      expect((await ingestInbox(w.ctx, w.store)).feedback.inserted).toBe(0);
    } finally {
      early.release();
      await w.close();
    }
  });

  it('a run that fails after reading PostgreSQL and before the DuckDB commit, then a re-run: each row exactly once', async () => {
    const w = await world();
    try {
      await w.cluster.transaction(async (c) => {
        await feedback(c, 'fb_a');
        await outcome(c, 'out_a', 'i1');
      });
      await w.cluster.transaction((c) => outcome(c, 'out_b', 'i2'));
      const failing = ingestInbox(w.ctx, w.store, {
        beforeCommit: async () => {
          throw new Error('killed before the DuckDB commit');
        },
      });
      await expect(failing).rejects.toThrow('killed before the DuckDB commit');
      expect(await w.ids('outcomes')).toEqual([]);
      expect(await w.store.all('SELECT * FROM cluster_inbox_watermark')).toEqual([]);
      await w.cluster.transaction((c) => outcome(c, 'out_c', 'i3'));
      const rerun = await ingestInbox(w.ctx, w.store);
      expect([rerun.outcomes.inserted, rerun.feedback.inserted]).toEqual([3, 1]);
      expect(await w.ids('outcomes')).toEqual(['out_a', 'out_b', 'out_c']);
      const again = await ingestInbox(w.ctx, w.store);
      expect([again.keys.inserted, again.outcomes.inserted, again.feedback.inserted]).toEqual([0, 0, 0]);
      const mark = await w.store.all<{ xmin: bigint }>('SELECT xmin FROM cluster_inbox_watermark');
      expect(mark).toHaveLength(1);
      expect(BigInt(mark[0]!.xmin)).toBeGreaterThan(0n);
    } finally {
      await w.close();
    }
  });

  it('an install that moved over: the inbox logs are loaded once, and their keys and reports copied into PostgreSQL', async () => {
    const w = await world();
    try {
      mkdirSync(w.ctx.paths.inbox, { recursive: true });
      const key = {
        key_id: 'key_old',
        key_hash: 'a'.repeat(64),
        label: null,
        contact: null,
        created_at: '2026-11-24T10:00:00.000Z',
        address_hash: 'x',
      };
      const report = (id: string, received: string) => ({
        id,
        key_id: 'key_old',
        idempotency_key: 'old-1',
        service_id: null,
        referral_id: null,
        outcome: 'success',
        failure_kind: null,
        operation: null,
        task_category: null,
        reported_at: null,
        received_at: received,
        moderation: 'pending',
      });
      writeFileSync(join(w.ctx.paths.inbox, 'keys-a.jsonl'), `${JSON.stringify(key)}\n`);
      // Two replicas once accepted the same pair (the file mode's window): the earlier one is kept everywhere.
      writeFileSync(join(w.ctx.paths.inbox, 'outcomes-a.jsonl'), `${JSON.stringify(report('out_late', '2026-11-24T10:00:02.000Z'))}\n`);
      writeFileSync(join(w.ctx.paths.inbox, 'outcomes-b.jsonl'), `${JSON.stringify(report('out_early', '2026-11-24T10:00:01.000Z'))}\n`);
      const first = await ingestInbox(w.ctx, w.store);
      expect([first.keys.inserted, first.outcomes.inserted]).toEqual([1, 1]);
      expect(await w.ids('outcomes')).toEqual(['out_early']);
      const pgKeys = await w.cluster.query('SELECT key_id FROM atlas.keys');
      const pgReports = await w.cluster.query('SELECT id FROM atlas.outcomes');
      expect(pgKeys.rows).toEqual([{ key_id: 'key_old' }]);
      expect(pgReports.rows).toEqual([{ id: 'out_early' }]);
      const again = await ingestInbox(w.ctx, w.store);
      expect([again.keys.inserted, again.outcomes.inserted]).toEqual([0, 0]);
      expect((await w.cluster.query('SELECT count(*)::int AS n FROM atlas.keys')).rows[0]).toEqual({ n: 1 });
    } finally {
      await w.close();
    }
  });

  it("a report's receipt goes through PostgreSQL unchanged (a replica's row and a carried log line) and gets its verdict", async () => {
    const w = await world();
    try {
      const receipt = { format: 'jws', signature: 'eyJhbGciOiJFUzI1NksifQ.eyJ2ZXJzaW9uIjoxfQ.c2ln' };
      await w.cluster.query(
        `INSERT INTO atlas.outcomes (id, key_id, idempotency_key, service_id, referral_id, outcome, failure_kind, operation, task_category, reported_at, received_at, moderation, receipt)
         VALUES ('out_pg', 'key_1', 'r-pg', 'cand_a', NULL, 'success', NULL, NULL, NULL, NULL, '2026-11-25T12:00:01.000Z', 'pending', $1)`,
        [receipt],
      );
      mkdirSync(w.ctx.paths.inbox, { recursive: true });
      const logged = {
        id: 'out_log',
        key_id: 'key_1',
        idempotency_key: 'r-log',
        service_id: null,
        referral_id: null,
        outcome: 'failure',
        failure_kind: null,
        operation: null,
        task_category: null,
        reported_at: null,
        received_at: '2026-11-25T12:00:02.000Z',
        moderation: 'pending',
        receipt,
      };
      writeFileSync(join(w.ctx.paths.inbox, 'outcomes-a.jsonl'), `${JSON.stringify(logged)}\n`);
      const r = await ingestInbox(w.ctx, w.store);
      expect(r.outcomes.inserted).toBe(2);
      expect(r.receipts).toEqual({ checked: 2, verified: 0 });
      const rows = await w.store.all<{ id: string; receipt: string; reason: string }>(
        'SELECT o.id, o.receipt::VARCHAR AS receipt, c.reason FROM outcomes o JOIN outcome_receipt_checks c ON c.report_id = o.id ORDER BY o.id',
      );
      expect(rows.map((x) => [x.id, JSON.parse(x.receipt), x.reason])).toEqual([
        ['out_log', receipt, 'no_service'],
        ['out_pg', receipt, 'no_service'],
      ]);
      const carried = await w.cluster.query("SELECT receipt FROM atlas.outcomes WHERE id = 'out_log'");
      expect(carried.rows).toEqual([{ receipt }]);
    } finally {
      await w.close();
    }
  });

  it('PostgreSQL unreachable: the run fails with storage_unavailable and DuckDB is unchanged', async () => {
    const w = await world();
    try {
      await w.cluster.transaction((c) => feedback(c, 'fb_x'));
      await server.stop();
      try {
        await expect(ingestInbox(w.ctx, w.store)).rejects.toMatchObject({ code: 'storage_unavailable' });
      } finally {
        await server.start();
      }
      expect(await w.ids('feedback')).toEqual([]);
      expect((await ingestInbox(w.ctx, w.store)).feedback.inserted).toBe(1);
    } finally {
      await w.close();
    }
  }, 30_000);
});
