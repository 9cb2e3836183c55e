import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../pipeline/store/store.ts';
import { runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';
import { writeGeneration } from '../../serve/fixture.ts';
import { type ServeProcess, startServeProcess, waitFor } from '../../serve/serve-process.ts';

const NOW = '2026-11-25T12:00:00Z';

/**
 * Replicas that agree (docs/notes/replicas.md), with real processes: three `atlas serve` over one
 * data folder, each with its own replica id and inbox logs, following the others'. Addresses come
 * from X-Forwarded-For (serve.trustProxy on), so each scenario has its own address.
 */
describe('atlas serve replicas over one data folder', () => {
  it('a key created on one is accepted by the others once they follow it; repeats answer the first report; the key limit holds across them', async () => {
    const tmp = tempDir('atlas-replicas-');
    const config = join(tmp.dir, 'atlas.config.json');
    writeFileSync(
      config,
      JSON.stringify({ serve: { trustProxy: true, rateLimits: { anonymousPerMinute: 100_000, keyedPerMinute: 100_000 } } }),
    );
    writeGeneration(join(tmp.dir, 'public'), { generation: 'g1', now: new Date(NOW), services: [{ id: 'cand_a' }] });
    const servers: ServeProcess[] = [];
    try {
      servers.push(
        ...(await Promise.all(
          ['a', 'b', 'c'].map((id) =>
            startServeProcess(['--data', tmp.dir, '--config', config, '--now', NOW, 'serve', '--port', '0', '--replica', id]),
          ),
        )),
      );
      const [a, b, c] = servers as [ServeProcess, ServeProcess, ServeProcess];
      const post = async (s: ServeProcess, path: string, body: unknown, address: string, key?: string) => {
        const res = await fetch(`${s.url}${path}`, {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'X-Forwarded-For': address, ...(key ? { 'X-API-Key': key } : {}) },
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const newKey = async (s: ServeProcess, address: string) => {
        const r = await post(s, '/api/v1/keys', {}, address);
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body as { key: string; key_id: string };
      };
      // Side-effect free: the key is checked before the body, so an empty report answers 401 while
      // the key is unknown and 400 once it is known.
      const knows = async (s: ServeProcess, key: string) => (await post(s, '/api/v1/outcomes', {}, '192.0.2.99', key)).status === 400;
      const knownOn = (servers: ServeProcess[], key: string) =>
        waitFor('key known on the other replicas', async () => (await Promise.all(servers.map((s) => knows(s, key)))).every(Boolean));

      // 1. A key created on A is accepted on B and C. How soon is the follow interval (500 ms by
      // default, asserted in test/serve/inbox/write-store.test.ts), not a wall-clock bound here.
      const k1 = await newKey(a, '192.0.2.1');
      expect(await knows(a, k1.key)).toBe(true);
      await knownOn([b, c], k1.key);

      // 2. A report on A; once B has followed A past it, the repeat on B answers 200 with A's receipt.
      // A poll reads the keys logs before the outcome logs, so a key created on A after the report
      // being known on B means B has read A's outcomes log past the report too.
      const report = { outcome: 'success', idempotency_key: 'same-report', service_id: 'cand_a' };
      const first = await post(a, '/api/v1/outcomes', report, '192.0.2.1', k1.key);
      expect(first.status).toBe(201);
      const marker = await newKey(a, '192.0.2.1');
      await knownOn([b], marker.key);
      // The poll that applied the marker may still be applying A's outcomes log when the marker is
      // answered; polls are serialized, so a second marker known on B means that poll has finished.
      const after = await newKey(a, '192.0.2.1');
      await knownOn([b], after.key);
      const repeat = await post(b, '/api/v1/outcomes', { ...report, outcome: 'failure' }, '192.0.2.1', k1.key);
      expect(repeat.status).toBe(200);
      expect(repeat.body).toEqual({ ...first.body, duplicate: true, message: expect.any(String) });

      // 3. Three keys a day per address, spread over the replicas: the fourth is refused on every one.
      for (const [s, others] of [
        [a, [b, c]],
        [b, [a, c]],
        [c, [a, b]],
      ] as const) {
        const k = await newKey(s, '192.0.2.2');
        await knownOn([...others], k.key);
      }
      for (const s of servers) expect((await post(s, '/api/v1/keys', {}, '192.0.2.2')).status).toBe(429);
      expect((await post(b, '/api/v1/keys', {}, '192.0.2.3')).status).toBe(201); // another address

      for (const s of servers) expect(await s.stop()).toBe(0);
      // Every replica wrote its own logs; the loader finds one report for the idempotency key.
      expect(readdirSync(join(tmp.dir, 'inbox')).sort()).toEqual(['keys-a.jsonl', 'keys-b.jsonl', 'keys-c.jsonl', 'outcomes-a.jsonl']);
      expect(
        readFileSync(join(tmp.dir, 'inbox', 'outcomes-a.jsonl'), 'utf8')
          .trim()
          .split('\n'),
      ).toHaveLength(1);
      const ingest = await runCli(['--data', tmp.dir, 'ingest', 'inbox']);
      expect(ingest.code, ingest.stderr).toBe(0);
      const store = await openStore(join(tmp.dir, 'atlas.duckdb'), { readOnly: true });
      try {
        expect(await store.all('SELECT id FROM outcomes')).toEqual([{ id: first.body.id }]);
        expect(await store.all('SELECT count(*)::INTEGER AS n FROM keys')).toEqual([{ n: 7 }]);
      } finally {
        store.close();
      }
    } finally {
      await Promise.all(servers.map((s) => s.stop(0)));
      tmp.cleanup();
    }
  }, 240_000); // several CLI processes; generous for a loaded CI machine
});
