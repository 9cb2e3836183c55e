import { describe, expect, it } from 'vitest';
import { DuckDBTypeId } from '@duckdb/node-api';
import { join } from 'node:path';
import { openStore, query, type Store } from '../../../pipeline/store/index.ts';
import { tempDir } from '../../helpers/context.ts';

/** A promise and the function that settles it: lets a test order steps without sleeping. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => {
    open = r;
  });
  return { wait, open };
}

async function withTempStore(fn: (s: Store) => Promise<void>): Promise<void> {
  const t = tempDir();
  try {
    const s = await openStore(join(t.dir, 'atlas.duckdb'));
    try {
      await fn(s);
    } finally {
      s.close();
    }
  } finally {
    t.cleanup();
  }
}

describe('store: one queue in front of a private connection', () => {
  it('exposes no connection or instance', async () => {
    await withTempStore(async (store) => {
      expect('conn' in store).toBe(false);
      expect('instance' in store).toBe(false);
      expect(Object.values(store).every((v) => typeof v === 'function' || typeof v === 'string')).toBe(true);
    });
  });

  it('a stream started before a transaction sees none of it; a transaction started first is seen whole', async () => {
    await withTempStore(async (store) => {
      await store.run('CREATE TABLE t (i INTEGER)');
      await store.run('INSERT INTO t SELECT range FROM range(5000)'); // several DuckDB chunks
      const events: string[] = [];

      // 1. A stream holds the connection across chunks: a write issued meanwhile waits for its end.
      const firstChunk = gate();
      const release = gate();
      let chunks = 0;
      let streamed = 0;
      const reading = store.stream('SELECT i FROM t ORDER BY i', undefined, async (rows) => {
        chunks++;
        streamed += rows.length;
        events.push('chunk');
        if (chunks === 1) {
          firstChunk.open();
          await release.wait; // the writer below is queued while we hold the stream open
        }
      });
      await firstChunk.wait;
      const writing = store.transaction(async () => {
        events.push('tx begin');
        await store.run('INSERT INTO t VALUES (-1)');
        await store.run('INSERT INTO t VALUES (-2)');
        events.push('tx end');
      });
      events.push('write queued');
      release.open();
      await Promise.all([reading, writing]);
      expect(chunks).toBeGreaterThan(1);
      expect(streamed).toBe(5000); // the stream did not see the rows written after it started
      expect(events.filter((e) => e !== 'chunk')).toEqual(['write queued', 'tx begin', 'tx end']);
      expect(events.indexOf('write queued')).toBe(1); // queued while the first chunk was held
      expect(events.lastIndexOf('chunk')).toBeLessThan(events.indexOf('tx begin')); // and ran after the last

      // 2. A transaction holds the connection until COMMIT: a stream issued inside it waits and
      //    sees both rows, never one (the same session would see the uncommitted half).
      const midTx = gate();
      const finishTx = gate();
      const tx = store.transaction(async () => {
        await store.run('INSERT INTO t VALUES (-3)');
        midTx.open();
        await finishTx.wait;
        await store.run('INSERT INTO t VALUES (-4)');
      });
      await midTx.wait;
      const seen: number[] = [];
      const stream2 = store.stream('SELECT i FROM t WHERE i <= -3 ORDER BY i', undefined, (rows) => {
        for (const r of rows) seen.push(Number(r[0]));
      });
      finishTx.open();
      await Promise.all([tx, stream2]);
      expect(seen).toEqual([-4, -3]);
    });
  });

  it('refuses statements from inside a stream callback, and a throw there ends the stream and frees the queue', async () => {
    await withTempStore(async (store) => {
      await store.run('CREATE TABLE t AS SELECT range AS i FROM range(10)');
      await expect(store.stream('SELECT i FROM t', undefined, () => store.all('SELECT 1').then(() => undefined))).rejects.toThrow(
        /inside a stream callback/,
      );
      await expect(
        store.stream('SELECT i FROM t', undefined, () => {
          throw new Error('bad row');
        }),
      ).rejects.toThrow('bad row');
      expect(await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM t')).toEqual([{ n: 10 }]);
    });
  });

  it('table() gives columns and types with bound parameters; query() formats times and counts for `atlas sql`', async () => {
    await withTempStore(async (store) => {
      const at = new Date('2026-11-25T10:30:00.250Z');
      const r = await store.table('SELECT $1::TIMESTAMP AS t, count(*) AS n FROM range(3)', [at.toISOString()]);
      expect(r.columns).toEqual(['t', 'n']);
      expect(r.types).toEqual([DuckDBTypeId.TIMESTAMP, DuckDBTypeId.BIGINT]);
      const q = await query(store, 'SELECT $1::TIMESTAMP AS t, count(*) AS n FROM range(3)', [at.toISOString()]);
      expect(q.rows).toEqual([{ t: at.toISOString(), n: 3 }]);
    });
  });
});
