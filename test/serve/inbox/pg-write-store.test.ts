import { type AddressInfo, createServer, type Socket } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { migrateCluster, openCluster } from '../../../pipeline/cluster/index.ts';
import { type Config, defaultConfig } from '../../../pipeline/core/config.ts';
import { PgWriteStore } from '../../../serve/inbox/pg-write-store.ts';
import { startServer, type RunningServer } from '../../../serve/index.ts';
import { makeContext, tempDir, testClock } from '../../helpers/context.ts';
import { postgresGate, type TestPostgres, useTestPostgres } from '../../helpers/postgres.ts';
import { writeGeneration } from '../fixture.ts';

/**
 * Three replicas (real servers on 127.0.0.1 port 0, `cluster.postgres` set) against one real
 * PostgreSQL database (docs/notes/cluster.md): a repeated idempotency key on two replicas at the
 * same moment, the per-address daily limits and the per-minute limit at R = 3, and PostgreSQL
 * stopped and started under them. Every request comes from 127.0.0.1: one address.
 */
const gate = postgresGate('replicas on PostgreSQL');
const T0 = '2026-11-25T12:00:00.000Z';

interface Answer {
  status: number;
  body: any;
}

async function send(base: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const r = await request(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.body.text();
  return { status: r.statusCode, body: text ? JSON.parse(text) : null };
}

interface Fleet {
  urls: string[];
  servers: RunningServer[];
  close(): Promise<void>;
}

async function fleet(url: string, tune: (c: Config) => void = () => undefined): Promise<Fleet> {
  const tmp = tempDir('atlas-pg-replicas-');
  const clock = testClock(T0);
  const config = defaultConfig();
  config.serve.rateLimits.anonymousPerMinute = 1_000_000;
  config.serve.rateLimits.keyedPerMinute = 1_000_000;
  config.cluster = { postgres: url };
  tune(config);
  const ctx = makeContext(tmp.dir, { clock, config });
  const siteDir = `${tmp.dir}/public`;
  writeGeneration(siteDir, { generation: 'g1', now: clock(), services: [{ id: 'cand_a' }, { id: 'cand_b' }] });
  const servers: RunningServer[] = [];
  for (const replicaId of ['a', 'b', 'c']) servers.push(await startServer(ctx, { port: 0, host: '127.0.0.1', siteDir, replicaId }));
  return {
    urls: servers.map((s) => s.url),
    servers,
    async close() {
      await Promise.all(servers.map((s) => s.close()));
      tmp.cleanup();
    },
  };
}

async function migrated(server: TestPostgres): Promise<string> {
  const url = await server.database();
  const cluster = openCluster(url);
  try {
    await migrateCluster(cluster);
  } finally {
    await cluster.close();
  }
  return url;
}

const statuses = (answers: Answer[]) => {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
};

describe.skipIf(!gate.present)('three replicas on one PostgreSQL', () => {
  const pg = useTestPostgres();

  it('the same idempotency_key on two replicas at the same moment: one 201, the other 200 with its id', async () => {
    const f = await fleet(await migrated(pg));
    try {
      const key = (await send(f.urls[0]!, '/api/v1/keys', {})).body.key as string;
      const rounds = 40;
      let agreed = 0;
      for (let i = 0; i < rounds; i++) {
        const [x, y] = [f.urls[i % 3]!, f.urls[(i + 1) % 3]!];
        const report = { outcome: 'success', idempotency_key: `same-${i}`, service_id: 'cand_a' };
        const answers = await Promise.all([
          send(x, '/api/v1/outcomes', report, { 'X-API-Key': key }),
          send(y, '/api/v1/outcomes', { ...report, outcome: 'failure' }, { 'X-API-Key': key }),
        ]);
        expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
        const first = answers.find((a) => a.status === 201)!.body;
        const repeat = answers.find((a) => a.status === 200)!.body;
        expect(repeat).toMatchObject({ id: first.id, duplicate: true, outcome: first.outcome, received_at: first.received_at });
        agreed++;
      }
      const third = await send(f.urls[2]!, '/api/v1/outcomes', { outcome: 'unknown', idempotency_key: 'same-0' }, { 'X-API-Key': key });
      expect(third.status).toBe(200);
      console.log(
        `replicas on PostgreSQL: same idempotency_key on two replicas at once, ${agreed}/${rounds} rounds: one 201 + one 200 with the first id`,
      );
    } finally {
      await f.close();
    }
  }, 60_000);

  it('daily limits are exact across 3 replicas; the per-minute limit is shared', async () => {
    const f = await fleet(await migrated(pg), (c) => {
      c.serve.rateLimits.keysPerAddressPerDay = 3;
      c.serve.rateLimits.feedbackPerAddressPerDay = 10;
    });
    try {
      const keys = await Promise.all(Array.from({ length: 15 }, (_, i) => send(f.urls[i % 3]!, '/api/v1/keys', {})));
      expect(statuses(keys)).toEqual({ 201: 3, 429: 12 });
      const fb = await Promise.all(
        Array.from({ length: 30 }, (_, i) => send(f.urls[i % 3]!, '/api/v1/feedback', { kind: 'other', note: `n${i}` })),
      );
      expect(statuses(fb)).toEqual({ 201: 10, 429: 20 });
      console.log(
        `replicas on PostgreSQL: limits at R = 3: keys 15 sent concurrently → ${statuses(keys)[201]} × 201 (limit 3); feedback 30 → ${statuses(fb)[201]} × 201 (limit 10)`,
      );
    } finally {
      await f.close();
    }
    const g = await fleet(await migrated(pg), (c) => {
      c.serve.rateLimits.anonymousPerMinute = 20;
    });
    try {
      const reads = await Promise.all(Array.from({ length: 45 }, (_, i) => send(g.urls[i % 3]!, '/api/v1/services')));
      expect(statuses(reads)).toEqual({ 200: 20, 429: 25 });
      console.log(
        `replicas on PostgreSQL: per-minute limit 20 shared by 3 replicas: 45 reads → ${statuses(reads)[200]} × 200, ${statuses(reads)[429]} × 429`,
      );
    } finally {
      await g.close();
    }
  }, 60_000);

  it('PostgreSQL stopped: writes 503 storage_unavailable, reads 200; started again: a write is 201', async () => {
    const f = await fleet(await migrated(pg), (c) => {
      c.serve.rateLimits.anonymousPerMinute = 1000;
    });
    try {
      const key = (await send(f.urls[0]!, '/api/v1/keys', {})).body.key as string;
      await pg.stop();
      try {
        const down = await Promise.all([
          send(f.urls[0]!, '/api/v1/keys', {}),
          send(f.urls[1]!, '/api/v1/feedback', { kind: 'other' }),
          send(f.urls[2]!, '/api/v1/outcomes', { outcome: 'success', idempotency_key: 'down' }, { 'X-API-Key': key }),
        ]);
        for (const d of down) expect(d).toMatchObject({ status: 503, body: { error: 'storage_unavailable' } });
        for (const url of f.urls) {
          expect((await send(url, '/api/v1/services')).status).toBe(200);
          expect((await send(url, '/api/v1/services/cand_a', undefined, { 'X-API-Key': key })).status).toBe(200);
        }
        console.log(
          `replicas on PostgreSQL: stopped → writes ${down.map((d) => `${d.status} ${d.body.error}`).join(', ')}; GET /api/v1/services and /api/v1/services/cand_a 200 on all 3`,
        );
      } finally {
        await pg.start();
      }
      const back = await send(f.urls[1]!, '/api/v1/outcomes', { outcome: 'success', idempotency_key: 'back' }, { 'X-API-Key': key });
      expect(back.status).toBe(201);
      expect((await send(f.urls[2]!, '/api/v1/keys', {})).status).toBe(201);
      console.log('replicas on PostgreSQL: started again → outcome 201, key 201 (no restart of the servers)');
    } finally {
      await f.close();
    }
  }, 60_000);

  it('a write that fails takes nothing of the daily limit', async () => {
    const store = new PgWriteStore(openCluster(await migrated(pg)));
    try {
      const key = (id: string, hash: string) => ({
        key_id: id,
        key_hash: hash.repeat(64),
        label: null,
        contact: null,
        created_at: T0,
        address_hash: 'addr',
      });
      expect(await store.addKey(key('key_1', 'a'), 2)).toBe(true);
      // Same key_hash: the insert fails, and the count it took rolls back with it.
      await expect(store.addKey(key('key_2', 'a'), 2)).rejects.toThrow(/duplicate key/);
      expect(await store.addKey(key('key_3', 'b'), 2)).toBe(true);
      expect(await store.addKey(key('key_4', 'c'), 2)).toBe(false);
      expect(await store.lookupKey('b'.repeat(64))).toBe('key_3');
      expect(await store.lookupKey('c'.repeat(64))).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('a database without the schema: writes are storage_unavailable, naming atlas init', async () => {
    const store = new PgWriteStore(openCluster(await pg.database()));
    try {
      const rec = { key_id: 'key_1', key_hash: 'a'.repeat(64), label: null, contact: null, created_at: T0, address_hash: 'addr' };
      await expect(store.addKey(rec, 3)).rejects.toMatchObject({ code: 'storage_unavailable', message: /run `atlas init`/ });
    } finally {
      await store.close();
    }
  });
});

describe('a PostgreSQL that never answers (a partition)', () => {
  it('reads still answer 200 (the limiter counts in memory); writes answer 503 storage_unavailable', async () => {
    // Accepts connections and says nothing: neither a refusal nor an answer.
    const sockets: Socket[] = [];
    const silent = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as AddressInfo).port;
    const f = await fleet(`postgres://atlas:secret@127.0.0.1:${port}/atlas`, (c) => {
      c.serve.rateLimits.anonymousPerMinute = 100;
    });
    try {
      expect((await send(f.urls[0]!, '/api/v1/services')).status).toBe(200);
      const write = await send(f.urls[1]!, '/api/v1/feedback', { kind: 'other' });
      expect(write).toMatchObject({ status: 503, body: { error: 'storage_unavailable' } });
      expect(write.body.message).not.toContain('secret');
    } finally {
      await f.close();
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
  }, 30_000);
});
