import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../pipeline/core/config.ts';
import { ingestInbox } from '../../../pipeline/inbox/load.ts';
import type { KeyRecord } from '../../../site/contract/inbox-records.ts';
import { addressHash } from '../../../serve/auth/address.ts';
import { hashKey } from '../../../serve/auth/keys.ts';
import type { AppDeps } from '../../../serve/deps.ts';
import { DailyCounter } from '../../../serve/inbox/daily-counter.ts';
import { completeLines, logFiles } from '../../../serve/inbox/log-tail.ts';
import { WriteStore } from '../../../serve/inbox/write-store.ts';
import { makeContext, openTestStore } from '../../helpers/context.ts';
import { type Harness, harness, SECRET, T0 } from '../harness.ts';

/**
 * Replicas that agree (docs/notes/replicas.md): several servers over one inbox folder, each
 * appending to its own logs and following the others'. The follower is driven by `poll()` (or a
 * manual trigger), never by waiting.
 */
interface Replica {
  h: Harness;
  readonly deps: AppDeps;
  post: Harness['post'];
  poll(): Promise<void>;
}

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** Servers with these replica ids over one folder and one clock (the first one owns the folder). */
async function replicas(ids: string[], config?: (c: Config) => void): Promise<Replica[]> {
  const out: Replica[] = [];
  for (const id of ids) {
    const first = out[0]?.h;
    const h = await harness({
      services: [{ id: 'cand_a' }],
      replicaId: id,
      ...(config ? { config } : {}),
      ...(first ? { shared: { dir: first.dir, clock: first.clock } } : {}),
    });
    cleanups.push(() => h.close());
    out.push({
      h,
      get deps() {
        return h.deps;
      },
      post: h.post,
      poll: () => (h.deps.writes as WriteStore).poll(h.clock()),
    });
  }
  return out;
}

const keyLine = (over: Partial<KeyRecord> = {}): string =>
  `${JSON.stringify({
    key_id: 'key_0000000000000001',
    key_hash: 'a'.repeat(64),
    label: null,
    contact: null,
    created_at: T0,
    address_hash: null,
    ...over,
  } satisfies KeyRecord)}\n`;

describe('log tail (serve/inbox/log-tail.ts)', () => {
  it('takes complete lines only and orders logs keys, outcomes, feedback', () => {
    expect(completeLines(Buffer.from('{"a":1}\n\n{"b":2}\n{"c"'))).toEqual({ lines: ['{"a":1}', '{"b":2}'], consumed: 17 });
    expect(completeLines(Buffer.from('{"torn'))).toEqual({ lines: [], consumed: 0 });
    // A read that ends inside a multi-byte character leaves it for the next read: only whole lines are decoded.
    const bytes = Buffer.from('{"n":"é"}\n{"n":"é"}\n');
    const cut = completeLines(bytes.subarray(0, bytes.length - 4));
    expect(cut).toEqual({ lines: ['{"n":"é"}'], consumed: Buffer.byteLength('{"n":"é"}\n') });
    expect(completeLines(bytes.subarray(cut.consumed)).lines).toEqual(['{"n":"é"}']);
    expect(
      logFiles(['feedback-a.jsonl', 'outcomes-b.jsonl', 'keys-b.jsonl', 'keys-a.jsonl', 'notes.txt', 'keys-a.jsonl.tmp']).map(
        (f) => f.name,
      ),
    ).toEqual(['keys-a.jsonl', 'keys-b.jsonl', 'outcomes-b.jsonl', 'feedback-a.jsonl']);
  });
});

describe('daily counter across replicas and days', () => {
  it('keeps a later day’s records (a replica whose clock runs ahead) until this replica gets there', () => {
    const c = new DailyCounter();
    c.reset('2026-11-25');
    c.record('2026-11-26', 'a'); // written by a replica already past midnight
    c.record('2026-11-24', 'a'); // yesterday: never counts
    expect(c.count('2026-11-25', 'a')).toBe(0);
    expect(c.tryTake('2026-11-25', 'a', 1)).toBe(true);
    expect(c.tryTake('2026-11-25', 'a', 1)).toBe(false);
    c.advance('2026-11-26');
    expect(c.count('2026-11-26', 'a')).toBe(1);
    expect(c.tryTake('2026-11-26', 'a', 1)).toBe(false);
    c.advance('2026-11-25'); // never back
    expect(c.count('2026-11-26', 'a')).toBe(1);
  });
});

describe('replicas follow each other (WriteStore.follow / poll)', () => {
  it('a key created on A is accepted on B after B polls; a repeated report answers the first on either', async () => {
    const [a, b] = (await replicas(['a', 'b'])) as [Replica, Replica];
    const k = (await a.post('/api/v1/keys', {})).body;
    const report = { outcome: 'success', idempotency_key: 'i1', service_id: 'cand_a' };
    expect((await b.post('/api/v1/outcomes', report, { 'X-API-Key': k.key })).status).toBe(401);
    await b.poll();
    const first = await b.post('/api/v1/outcomes', report, { 'X-API-Key': k.key });
    expect(first.status).toBe(201);
    await a.poll();
    const again = await a.post('/api/v1/outcomes', { ...report, outcome: 'failure' }, { 'X-API-Key': k.key });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, outcome: 'success', received_at: first.body.received_at, duplicate: true });
    expect((b.deps.writes as WriteStore).followed).toMatchObject({ polls: 1, applied: 1, skipped: 0, failedPolls: 0 });
    // B never reads its own logs back: its own report is not applied a second time.
    await b.poll();
    expect((b.deps.writes as WriteStore).followed).toMatchObject({ polls: 2, applied: 1 });
  });

  it('the per-address daily limits hold across replicas once they have polled', async () => {
    const [a, b, c] = (await replicas(['a', 'b', 'c'], (cfg) => {
      cfg.serve.rateLimits.feedbackPerAddressPerDay = 2;
    })) as [Replica, Replica, Replica];
    const pollAll = () => Promise.all([a.poll(), b.poll(), c.poll()]);
    expect((await a.post('/api/v1/keys', {})).status).toBe(201);
    await pollAll();
    expect((await b.post('/api/v1/keys', {})).status).toBe(201);
    await pollAll();
    expect((await c.post('/api/v1/keys', {})).status).toBe(201);
    await pollAll();
    for (const r of [a, b, c]) expect((await r.post('/api/v1/keys', {})).status).toBe(429);
    expect((await c.post('/api/v1/keys', {}, {}, '198.51.100.8')).status).toBe(201); // another address

    expect((await a.post('/api/v1/feedback', { kind: 'other' })).status).toBe(201);
    expect((await b.post('/api/v1/feedback', { kind: 'other' })).status).toBe(201);
    // Inside the delay B has not seen A's message: the limit is exceeded by at most what the other
    // replicas accepted before the poll (docs/notes/replicas.md).
    expect((await b.post('/api/v1/feedback', { kind: 'other' })).status).toBe(201);
    await pollAll();
    for (const r of [a, b, c]) expect((await r.post('/api/v1/feedback', { kind: 'other' })).status).toBe(429);
  });

  it('a torn last line waits for its newline; a malformed complete line is skipped and counted, never blocks', async () => {
    const [b] = (await replicas(['b'])) as [Replica];
    mkdirSync(b.h.inboxDir, { recursive: true });
    const log = join(b.h.inboxDir, 'keys-a.jsonl');
    const line = keyLine();
    writeFileSync(log, line.slice(0, 40));
    await b.poll();
    expect((b.deps.writes as WriteStore).keyCount).toBe(0);
    appendFileSync(log, line.slice(40));
    await b.poll();
    expect((b.deps.writes as WriteStore).keyIdFor('a'.repeat(64))).toBe('key_0000000000000001');
    appendFileSync(log, `not json\n{"key_id":"x"}\n${keyLine({ key_id: 'key_2', key_hash: 'b'.repeat(64) })}`);
    await b.poll();
    expect((b.deps.writes as WriteStore).keyIdFor('b'.repeat(64))).toBe('key_2');
    expect((b.deps.writes as WriteStore).followed).toMatchObject({ applied: 2, skipped: 2 });
    // A log replaced by a shorter one is read again from its start (idempotent for keys).
    writeFileSync(log, keyLine({ key_id: 'key_3', key_hash: 'c'.repeat(64) }));
    await b.poll();
    expect((b.deps.writes as WriteStore).keyIdFor('c'.repeat(64))).toBe('key_3');
  });

  it('a torn line left at start is picked up by the follower when its newline arrives', async () => {
    const [a] = (await replicas(['a'])) as [Replica];
    mkdirSync(a.h.inboxDir, { recursive: true });
    const log = join(a.h.inboxDir, 'keys-z.jsonl');
    writeFileSync(log, keyLine().slice(0, 30));
    const ws = await WriteStore.open(a.h.inboxDir, 'b', a.h.clock());
    cleanups.push(() => ws.close());
    appendFileSync(log, keyLine().slice(30));
    await ws.poll(a.h.clock());
    expect(ws.keyIdFor('a'.repeat(64))).toBe('key_0000000000000001');
  });

  it('two replicas that accept the same idempotency key inside the delay converge on the earliest, as the loader does', async () => {
    const [a, b] = (await replicas(['a', 'b'])) as [Replica, Replica];
    const f = { dir: a.h.dir, clock: a.h.clock, inbox: a.h.inboxDir };
    const k = (await a.post('/api/v1/keys', {})).body;
    await b.poll();
    const report = { outcome: 'success', idempotency_key: 'race' };
    f.clock.advance(1000);
    const onB = await b.post('/api/v1/outcomes', report, { 'X-API-Key': k.key });
    f.clock.advance(1000);
    const onA = await a.post('/api/v1/outcomes', report, { 'X-API-Key': k.key });
    expect([onA.status, onB.status]).toEqual([201, 201]); // both appended: the race inside the delay
    await Promise.all([a.poll(), b.poll()]);
    for (const r of [a, b]) {
      const again = await r.post('/api/v1/outcomes', report, { 'X-API-Key': k.key });
      expect(again).toMatchObject({ status: 200, body: { id: onB.body.id, duplicate: true } });
    }
    const store = await openTestStore(f.dir);
    try {
      await ingestInbox(makeContext(f.dir), store);
      expect(await store.all("SELECT id FROM outcomes WHERE idempotency_key = 'race'")).toEqual([{ id: onB.body.id }]);
    } finally {
      store.close();
    }
    // Same instant: the log file that sorts first wins, on the servers and in the loader alike.
    const ws = await WriteStore.open(f.inbox, 'z', f.clock());
    cleanups.push(() => ws.close());
    const tie = readFileSync(join(f.inbox, 'outcomes-b.jsonl'), 'utf8').trim();
    appendFileSync(join(f.inbox, 'outcomes-0.jsonl'), `${tie.replace(onB.body.id, 'out_tie')}\n`);
    await ws.poll(f.clock());
    expect((await ws.findOutcome(k.key_id, 'race'))?.id).toBe('out_tie');
  });

  it('follow() without an interval polls every 500 ms: the convergence delay docs/notes/replicas.md states', async () => {
    const [a] = (await replicas(['a'])) as [Replica];
    const ws = await WriteStore.open(a.h.inboxDir, 'b', a.h.clock());
    let every: number | undefined;
    ws.follow({
      clock: a.h.clock,
      schedule: (_fn, ms) => {
        every = ms;
        return () => undefined;
      },
    });
    await ws.close();
    expect(every).toBe(500);
  });

  it('follow() polls on each tick of the injected trigger and stops on close', async () => {
    const [a] = (await replicas(['a'])) as [Replica];
    const f = { clock: a.h.clock };
    const ws = await WriteStore.open(a.h.inboxDir, 'b', f.clock());
    let tick: (() => void) | undefined;
    let stopped = false;
    ws.follow({
      clock: f.clock,
      intervalMs: 123,
      schedule: (fn, ms) => {
        expect(ms).toBe(123);
        tick = fn;
        return () => {
          stopped = true;
        };
      },
    });
    const k = (await a.post('/api/v1/keys', {})).body;
    expect(ws.followed.polls).toBe(0);
    tick!();
    await ws.poll(f.clock()); // queued after the tick's poll
    expect(ws.followed.polls).toBe(2);
    expect(ws.keyIdFor(hashKey(k.key))).toBe(k.key_id);
    const who = addressHash(SECRET, '198.51.100.7');
    expect(ws.keysPerAddress.count('2026-11-25', who)).toBe(1);
    // A new UTC day by the injected clock drops yesterday's counts even without a write.
    f.clock.set('2026-11-26T00:00:01Z');
    tick!();
    await ws.close();
    expect(stopped).toBe(true);
    expect(ws.keysPerAddress.count('2026-11-25', who)).toBe(0);
  });
});
