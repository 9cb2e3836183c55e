import { join } from 'node:path';
import { expect } from 'vitest';
import type { Store } from '../../pipeline/store/store.ts';
import { writeGeneration } from '../serve/fixture.ts';
import { type ServeProcess, startServeProcess } from '../serve/serve-process.ts';

/**
 * The replica side of the cluster chaos tests (chaos-replicas, chaos-cluster): real `atlas serve`
 * processes with `cluster.postgres` in their config, a seeded client sending keys, outcome reports
 * (a share of them repeats, sent to another replica) and feedback in concurrent bursts, and the
 * invariants checked in DuckDB after `atlas ingest inbox`:
 * - every id answered 201 is in DuckDB exactly once;
 * - no (key, idempotency_key) twice, and every answer for one pair carries the same report id;
 * - per address and day, never more keys or feedback messages than the limits.
 */
export interface DayLimits {
  keysPerAddressPerDay: number;
  feedbackPerAddressPerDay: number;
}

export const DAY_LIMITS: DayLimits = { keysPerAddressPerDay: 3, feedbackPerAddressPerDay: 4 };
/** The client's run: BURSTS bursts of BURST_SIZE concurrent requests. */
export const BURSTS = 24;
export const BURST_SIZE = 6;
const ADDRESSES = ['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'];

/** The `serve` block: the client's addresses trusted from X-Forwarded-For, minute limits out of the way. */
export function replicaServeConfig(limits: DayLimits = DAY_LIMITS) {
  return { trustProxy: true, rateLimits: { anonymousPerMinute: 100_000, keyedPerMinute: 100_000, ...limits } };
}

export interface ReplicaSet {
  /** The live replicas; a killed one is replaced here once it has started again. */
  servers: ServeProcess[];
  kills: number;
  /** SIGKILL replica i now; `restart(i)` starts it again (the client keeps sending meanwhile). */
  kill(i: number): void;
  restart(i: number): void;
  /** Every restart begun so far has settled. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** Three replicas serving one generation from `dataDir` (writes go to PostgreSQL per `config`). */
export async function startReplicas(dataDir: string, config: string, now: string, ids = ['a', 'b', 'c']): Promise<ReplicaSet> {
  writeGeneration(join(dataDir, 'public'), { generation: 'g1', now: new Date(now), services: [{ id: 'cand_a' }] });
  const start = (id: string) =>
    startServeProcess(['--data', dataDir, '--config', config, '--now', now, 'serve', '--port', '0', '--replica', id]);
  const servers = await Promise.all(ids.map(start));
  const restarts: Promise<unknown>[] = [];
  const set: ReplicaSet = {
    servers,
    kills: 0,
    kill(i) {
      servers[i]!.child.kill('SIGKILL');
      set.kills++;
    },
    restart(i) {
      restarts.push(start(ids[i]!).then((s) => (servers[i] = s)));
    },
    async settled() {
      await Promise.all(restarts);
    },
    async stop() {
      await Promise.allSettled(restarts);
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
  return set;
}

export interface Sent {
  kind: 'keys' | 'outcomes' | 'feedback';
  status: number | 'network';
  id?: string;
  pair?: string;
}

export interface ReplicaClient {
  sent: Sent[];
  /** `n` requests at once, each to a seeded replica from a seeded address. */
  burst(n: number): Promise<void>;
}

export function replicaClient(rnd: () => number, servers: ServeProcess[]): ReplicaClient {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const sent: Sent[] = [];
  const keys: string[] = [];
  const pairs: { key: string; idem: string }[] = [];
  const post = async (s: ServeProcess, path: string, body: unknown, address: string, key?: string) => {
    try {
      const res = await fetch(`${s.url}${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'X-Forwarded-For': address, ...(key ? { 'X-API-Key': key } : {}) },
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    } catch {
      return { status: 'network' as const, body: {} as Record<string, any> };
    }
  };
  const one = async (): Promise<void> => {
    const s = pick(servers);
    const address = pick(ADDRESSES);
    const r = rnd();
    if (r < 0.3 || keys.length === 0) {
      const a = await post(s, '/api/v1/keys', {}, address);
      if (a.status === 201) keys.push(a.body.key);
      sent.push({ kind: 'keys', status: a.status, id: a.body.key_id });
    } else if (r < 0.75) {
      const repeat = pairs.length > 0 && rnd() < 0.4;
      const p = repeat ? pick(pairs) : { key: pick(keys), idem: `i${sent.length}-${Math.floor(rnd() * 1e6)}` };
      if (!repeat) pairs.push(p);
      const a = await post(s, '/api/v1/outcomes', { outcome: pick(['success', 'failure']), idempotency_key: p.idem }, address, p.key);
      sent.push({ kind: 'outcomes', status: a.status, id: a.body.id, pair: `${p.key}\u0000${p.idem}` });
    } else {
      const a = await post(s, '/api/v1/feedback', { kind: 'other', note: `n${sent.length}` }, address);
      sent.push({ kind: 'feedback', status: a.status, id: a.body.id });
    }
  };
  return {
    sent,
    burst: async (n) => {
      await Promise.all(Array.from({ length: n }, () => one()));
    },
  };
}

/**
 * The replica invariants over the writer's DuckDB after `atlas ingest inbox` (expect() fails the
 * test); returns their counts as one printable phrase.
 */
export async function checkReplicaInvariants(store: Store, sent: Sent[], limits: DayLimits = DAY_LIMITS): Promise<string> {
  const count = async (sql: string) => Number((await store.all<{ n: bigint }>(sql))[0]!.n);
  const have = {
    keys: new Set((await store.all<{ id: string }>('SELECT key_id AS id FROM keys')).map((r) => r.id)),
    outcomes: new Set((await store.all<{ id: string }>('SELECT id FROM outcomes')).map((r) => r.id)),
    feedback: new Set((await store.all<{ id: string }>('SELECT id FROM feedback')).map((r) => r.id)),
  };
  const created = sent.filter((s) => s.status === 201);
  const missing = created.filter((s) => !have[s.kind].has(s.id!));
  expect(missing).toEqual([]);
  // Exactly once: ids are primary keys, and nothing is in DuckDB twice under another id.
  const duplicates = await count('SELECT count(*) - count(DISTINCT (key_id, idempotency_key)) AS n FROM outcomes');
  expect(duplicates).toBe(0);
  const answersPerPair = new Map<string, Set<string>>();
  for (const s of sent.filter((x) => x.kind === 'outcomes' && (x.status === 200 || x.status === 201)))
    answersPerPair.set(s.pair!, (answersPerPair.get(s.pair!) ?? new Set()).add(s.id!));
  expect([...answersPerPair.values()].filter((ids) => ids.size > 1)).toEqual([]);
  const maxKeys = await count(
    'SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*) AS n FROM keys GROUP BY address_hash, CAST(created_at AS DATE))',
  );
  const maxFeedback = await count(
    'SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*) AS n FROM feedback GROUP BY address_hash, CAST(received_at AS DATE))',
  );
  expect(maxKeys).toBeLessThanOrEqual(limits.keysPerAddressPerDay);
  expect(maxFeedback).toBeLessThanOrEqual(limits.feedbackPerAddressPerDay);
  const by = (st: number | 'network') => sent.filter((s) => s.status === st).length;
  const kind = (k: Sent['kind']) => created.filter((s) => s.kind === k).length;
  return (
    `${sent.length} requests; 201 ${created.length} (keys ${kind('keys')}, outcomes ${kind('outcomes')}, feedback ${kind('feedback')}), ` +
    `200 repeats ${by(200)}, 429 ${by(429)}, 503 ${by(503)}, network errors ${by('network')}; ` +
    `in DuckDB: keys ${have.keys.size}, outcomes ${have.outcomes.size}, feedback ${have.feedback.size}; 201s missing ${missing.length}; ` +
    `duplicate pairs ${duplicates}; max keys per address-day ${maxKeys}/${limits.keysPerAddressPerDay}, max feedback ${maxFeedback}/${limits.feedbackPerAddressPerDay}`
  );
}

/** A step of the run, in place of a plain burst: it gets the burst in flight and must await it. */
type Step = (burst: Promise<void>) => Promise<void>;

/**
 * The client's run: BURSTS bursts of BURST_SIZE. At a burst in `replicaKills` a seeded replica is
 * SIGKILLed mid-burst (the client keeps sending, to the dead one too) and started again; at a burst
 * in `steps`, that step runs with the burst in flight. Then every restart settles, one last burst
 * goes out, and the replicas stop.
 */
export async function runBursts(
  rnd: () => number,
  client: ReplicaClient,
  replicas: ReplicaSet,
  plan: { replicaKills: ReadonlySet<number>; steps: ReadonlyMap<number, Step> },
): Promise<void> {
  try {
    for (let b = 0; b < BURSTS; b++) {
      const burst = client.burst(BURST_SIZE);
      const step = plan.steps.get(b);
      if (plan.replicaKills.has(b)) {
        const victim = Math.floor(rnd() * replicas.servers.length);
        replicas.kill(victim);
        await burst;
        replicas.restart(victim);
      } else if (step) await step(burst);
      else await burst;
    }
    await replicas.settled();
    await client.burst(BURST_SIZE);
  } finally {
    await replicas.stop();
  }
}

/** The PostgreSQL restart step: stop it, `whileDown`, the burst and one more with it down, start it. */
export function restartStep(
  pg: { stop(): Promise<void>; start(): Promise<void> },
  client: ReplicaClient,
  whileDown?: () => Promise<void>,
): Step {
  return async (burst) => {
    await pg.stop();
    await whileDown?.();
    await burst;
    await client.burst(BURST_SIZE);
    await pg.start();
  };
}
