import { join } from 'node:path';
import { readInbox } from '../../pipeline/inbox/read.ts';
import { logFileName, type FeedbackRecord, type InboxKind, type KeyRecord, type OutcomeRecord } from '../../pipeline/inbox/records.ts';
import { JsonlAppender } from './appender.ts';
import { DailyCounter, utcDay } from './daily-counter.ts';

/**
 * The server's write side: append logs plus the in-memory indexes rebuilt from them at start
 * (key hashes, idempotency keys, per-address daily counters). Every replica reads all replicas'
 * logs at start (a shared inbox folder gives the same limits after a restart) and appends only to
 * its own `<kind>-<replica>.jsonl`. While running, a replica knows only its own new writes: limits
 * are per replica between restarts (documented).
 */
export class WriteStore {
  private readonly keyIdByHash = new Map<string, string>();
  /** `${key_id}\0${idempotency_key}` → the first report (or its pending write). */
  private readonly outcomes = new Map<string, Promise<OutcomeRecord>>();
  readonly keysPerAddress = new DailyCounter();
  readonly feedbackPerAddress = new DailyCounter();
  private readonly logs: Record<InboxKind, JsonlAppender>;

  private constructor(
    readonly inboxDir: string,
    readonly replicaId: string,
  ) {
    this.logs = {
      keys: new JsonlAppender(join(inboxDir, logFileName('keys', replicaId))),
      outcomes: new JsonlAppender(join(inboxDir, logFileName('outcomes', replicaId))),
      feedback: new JsonlAppender(join(inboxDir, logFileName('feedback', replicaId))),
    };
  }

  /** Rebuild every index from every log in the folder (a missing folder is an empty inbox). */
  static open(inboxDir: string, replicaId: string, now: Date): WriteStore {
    const ws = new WriteStore(inboxDir, replicaId);
    const today = utcDay(now);
    ws.keysPerAddress.reset(today);
    ws.feedbackPerAddress.reset(today);
    for (const k of readInbox(inboxDir, 'keys').records) {
      ws.keyIdByHash.set(k.key_hash, k.key_id);
      if (k.address_hash) ws.keysPerAddress.record(dayOf(k.created_at, today), k.address_hash);
    }
    for (const o of readInbox(inboxDir, 'outcomes').records) {
      const id = idemKey(o.key_id, o.idempotency_key);
      if (!ws.outcomes.has(id)) ws.outcomes.set(id, Promise.resolve(o));
    }
    for (const f of readInbox(inboxDir, 'feedback').records) {
      if (f.address_hash) ws.feedbackPerAddress.record(dayOf(f.received_at, today), f.address_hash);
    }
    return ws;
  }

  /** `fn` sees every record appended to this replica's logs, with its write + fsync time in seconds. */
  observeAppends(fn: (kind: InboxKind, seconds: number) => void): void {
    for (const kind of Object.keys(this.logs) as InboxKind[]) this.logs[kind].onAppend = (s) => fn(kind, s);
  }

  keyIdFor(keyHash: string): string | undefined {
    return this.keyIdByHash.get(keyHash);
  }

  get keyCount(): number {
    return this.keyIdByHash.size;
  }

  async addKey(rec: KeyRecord): Promise<void> {
    await this.logs.keys.append(rec);
    this.keyIdByHash.set(rec.key_hash, rec.key_id);
  }

  async addFeedback(rec: FeedbackRecord): Promise<void> {
    await this.logs.feedback.append(rec);
  }

  /** The first report (or its pending write) with this idempotency key of this key. */
  findOutcome(keyId: string, idempotencyKey: string): Promise<OutcomeRecord> | undefined {
    return this.outcomes.get(idemKey(keyId, idempotencyKey));
  }

  /**
   * Outcome reports are idempotent per (key, idempotency_key): the first call writes; later calls
   * (also concurrent ones) get the first report. Returns `{ record, duplicate }`. A failed write
   * frees the idempotency key again.
   */
  async addOutcome(rec: OutcomeRecord): Promise<{ record: OutcomeRecord; duplicate: boolean }> {
    const id = idemKey(rec.key_id, rec.idempotency_key);
    const existing = this.outcomes.get(id);
    if (existing) return { record: await existing, duplicate: true };
    const p = this.logs.outcomes.append(rec).then(() => rec);
    this.outcomes.set(id, p);
    try {
      return { record: await p, duplicate: false };
    } catch (e) {
      this.outcomes.delete(id);
      throw e;
    }
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.logs).map((l) => l.close()));
  }
}

const idemKey = (keyId: string, idem: string) => `${keyId}\u0000${idem}`;

function dayOf(iso: string, fallback: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? fallback : utcDay(d);
}
