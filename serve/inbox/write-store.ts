import { join } from 'node:path';
import type { Clock } from '../../pipeline/core/clock.ts';
import type { Logger } from '../../pipeline/core/log.ts';
import {
  type FeedbackRecord,
  INBOX_KINDS,
  type InboxKind,
  type InboxRecordByKind,
  type KeyRecord,
  logFileName,
  type OutcomeRecord,
  parseRecord,
} from '../../site/contract/inbox-records.ts';
import { JsonlAppender } from './appender.ts';
import { DailyCounter, utcDay } from './daily-counter.ts';
import { completeLines, type LogFile, listInbox, logFiles, readFrom } from './log-tail.ts';
import type { Writes } from './writes.ts';

/** The first report of a (key, idempotency key) as far as this replica knows, and the log it is in. */
interface OutcomeEntry {
  record: OutcomeRecord;
  /** Resolves once the record is on disk (a report of this replica still being written is pending). */
  done: Promise<OutcomeRecord>;
  file: string;
}

export interface FollowOptions {
  /** The server's clock: moves the daily counters to a new UTC day even when nothing is written. */
  clock: Clock;
  /** Poll period (default 500 ms): how long another replica's write takes, at most, to count here. */
  intervalMs?: number;
  /**
   * Calls `tick` every `intervalMs` until the returned stop function is called. Default: a timer
   * that does not keep the process alive. Tests pass a manual trigger (or call `poll()`).
   */
  schedule?: (tick: () => void, intervalMs: number) => () => void;
  /** Told about skipped lines, logs that got shorter, and polls that failed. */
  log?: Logger;
}

/** What the follower has done since `follow()` (or `poll()`) was first called. */
export interface FollowStats {
  polls: number;
  /** Complete records of other replicas applied to the indexes. */
  applied: number;
  /** Complete lines that are not a record of their log's kind: skipped, never retried. */
  skipped: number;
  failedPolls: number;
}

const everyInterval = (tick: () => void, ms: number) => {
  const t = setInterval(tick, ms);
  t.unref();
  return () => clearInterval(t);
};

/**
 * The server's write side: append logs plus the in-memory indexes built from them (key hashes,
 * idempotency keys, per-address daily counters). Every replica appends only to its own
 * `<kind>-<replica>.jsonl` in the shared inbox folder. At start it reads every replica's logs; with
 * `follow()` it then reads what the other replicas append, every `intervalMs`, so keys, repeated
 * reports and the daily limits agree across replicas within that delay (docs/notes/replicas.md,
 * which also states what can happen inside the delay). Records reach the indexes through one
 * function, `apply`, at start and when following.
 */
export class WriteStore implements Writes {
  private readonly keyIdByHash = new Map<string, string>();
  /** `${key_id}\0${idempotency_key}` → the first report. */
  private readonly outcomes = new Map<string, OutcomeEntry>();
  readonly keysPerAddress = new DailyCounter();
  readonly feedbackPerAddress = new DailyCounter();
  private readonly logs: Record<InboxKind, JsonlAppender>;
  /** Log file name → bytes applied (up to the end of its last complete line). */
  private readonly offsets = new Map<string, number>();
  readonly followed: FollowStats = { polls: 0, applied: 0, skipped: 0, failedPolls: 0 };
  private log: Logger | undefined;
  private stopFollowing: (() => void) | undefined;
  private polling: Promise<void> = Promise.resolve();
  private busy = false;

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

  /**
   * Build every index from every replica's logs in the folder (a missing folder is an empty inbox),
   * this replica's own included: limits and idempotency survive a restart. Bytes after a log's last
   * newline (another replica's write in progress) are left for the follower.
   */
  static async open(inboxDir: string, replicaId: string, now: Date): Promise<WriteStore> {
    const ws = new WriteStore(inboxDir, replicaId);
    const today = utcDay(now);
    ws.keysPerAddress.reset(today);
    ws.feedbackPerAddress.reset(today);
    for (const f of logFiles(await listInbox(inboxDir))) await ws.readLog(f, today);
    return ws;
  }

  /** `fn` sees every record appended to this replica's logs, with its write + fsync time in seconds. */
  observeWrites(fn: (kind: InboxKind, seconds: number) => void): void {
    for (const kind of Object.keys(this.logs) as InboxKind[]) this.logs[kind].onAppend = (s) => fn(kind, s);
  }

  /**
   * Follow the other replicas' logs: `poll()` on every tick of `opts.schedule` (every 500 ms by
   * default). Polling is the guarantee (no fs.watch: it misses changes made by other machines on a
   * network filesystem). A tick while a poll is still running is dropped. `close()` stops it.
   */
  follow(opts: FollowOptions): void {
    this.stopFollowing?.();
    this.log = opts.log;
    const tick = () => {
      if (this.busy) return;
      void this.poll(opts.clock()).catch(() => undefined);
    };
    this.stopFollowing = (opts.schedule ?? everyInterval)(tick, opts.intervalMs ?? 500);
  }

  /**
   * Read what the other replicas appended since the last poll (new replicas' logs from their
   * start) and apply every complete record; resolves when done. Calls are serialized. `now` moves
   * the daily counters to its UTC day.
   */
  poll(now: Date): Promise<void> {
    const run = async () => {
      this.busy = true;
      try {
        await this.pollOnce(now);
      } catch (e) {
        this.followed.failedPolls++;
        this.log?.warn('serve: following the other replicas’ inbox logs failed; retrying at the next poll', {
          error: (e as Error).message,
        });
        throw e;
      } finally {
        this.busy = false;
      }
    };
    const p = this.polling.then(run, run);
    this.polling = p.catch(() => undefined);
    return p;
  }

  private async pollOnce(now: Date): Promise<void> {
    const today = utcDay(now);
    this.keysPerAddress.advance(today);
    this.feedbackPerAddress.advance(today);
    // Each kind's logs are listed just before they are read (keys, then outcomes, then feedback),
    // so a log created before a key that this poll sees is read in this poll too (log-tail.ts).
    for (const kind of INBOX_KINDS) {
      for (const f of logFiles(await listInbox(this.inboxDir))) {
        if (f.kind !== kind || f.replica === this.replicaId) continue;
        const { applied, skipped } = await this.readLog(f, today);
        this.followed.applied += applied;
        this.followed.skipped += skipped;
        if (skipped) this.log?.warn('serve: skipped inbox lines that are not records', { file: f.name, skipped });
      }
    }
    this.followed.polls++;
  }

  /** Apply the complete lines appended to log `f` since its remembered offset, and move the offset. */
  private async readLog(f: LogFile, today: string): Promise<{ applied: number; skipped: number }> {
    const offset = this.offsets.get(f.name) ?? 0;
    const got = await readFrom(join(this.inboxDir, f.name), offset);
    if (!got) return { applied: 0, skipped: 0 };
    if (got.shrunk) {
      // Append-only logs never shrink; a log replaced by hand is read again from its start.
      // Keys and reports are idempotent; the daily counts can only grow (stricter, never looser).
      this.log?.warn('serve: an inbox log got shorter; reading it again from the start', { file: f.name, offset, size: got.size });
      this.offsets.set(f.name, 0);
      return this.readLog(f, today);
    }
    const { lines, consumed } = completeLines(got.bytes);
    this.offsets.set(f.name, offset + consumed);
    let skipped = 0;
    for (const line of lines) {
      const rec = parseRecord(f.kind, line);
      if (rec) this.apply(f.kind, rec, f.name, today);
      else skipped++;
    }
    return { applied: lines.length - skipped, skipped };
  }

  /** The one place a logged record enters the indexes (at start and when following). */
  private apply<K extends InboxKind>(kind: K, rec: InboxRecordByKind[K], file: string, today: string): void {
    if (kind === 'keys') {
      const k = rec as KeyRecord;
      this.keyIdByHash.set(k.key_hash, k.key_id);
      if (k.address_hash) this.keysPerAddress.record(dayOf(k.created_at, today), k.address_hash);
    } else if (kind === 'outcomes') {
      const o = rec as OutcomeRecord;
      const id = idemKey(o.key_id, o.idempotency_key);
      const entry = { record: o, done: Promise.resolve(o), file };
      const current = this.outcomes.get(id);
      if (!current || isEarlier(entry, current)) this.outcomes.set(id, entry);
    } else {
      const fb = rec as FeedbackRecord;
      if (fb.address_hash) this.feedbackPerAddress.record(dayOf(fb.received_at, today), fb.address_hash);
    }
  }

  keyIdFor(keyHash: string): string | undefined {
    return this.keyIdByHash.get(keyHash);
  }

  async lookupKey(keyHash: string): Promise<string | undefined> {
    return this.keyIdByHash.get(keyHash);
  }

  get keyCount(): number {
    return this.keyIdByHash.size;
  }

  /** The daily limit is this replica's count (plus what it has followed): see docs/notes/replicas.md. */
  async addKey(rec: KeyRecord, dailyLimit?: number): Promise<boolean> {
    const ok = await limited(this.keysPerAddress, rec.created_at, rec.address_hash, dailyLimit, () => this.logs.keys.append(rec));
    if (ok) this.keyIdByHash.set(rec.key_hash, rec.key_id);
    return ok;
  }

  async addFeedback(rec: FeedbackRecord, dailyLimit?: number): Promise<boolean> {
    return limited(this.feedbackPerAddress, rec.received_at, rec.address_hash, dailyLimit, () => this.logs.feedback.append(rec));
  }

  /** The first report (waiting for its write when it is still pending) with this idempotency key of this key. */
  async findOutcome(keyId: string, idempotencyKey: string): Promise<OutcomeRecord | undefined> {
    return this.outcomes.get(idemKey(keyId, idempotencyKey))?.done;
  }

  /**
   * Outcome reports are idempotent per (key, idempotency_key): the first call writes; later calls
   * (also concurrent ones) get the first report. Returns `{ record, duplicate }`. A failed write
   * frees the idempotency key again.
   */
  async addOutcome(rec: OutcomeRecord): Promise<{ record: OutcomeRecord; duplicate: boolean }> {
    const id = idemKey(rec.key_id, rec.idempotency_key);
    const existing = this.outcomes.get(id);
    if (existing) return { record: await existing.done, duplicate: true };
    const entry: OutcomeEntry = {
      record: rec,
      done: this.logs.outcomes.append(rec).then(() => rec),
      file: logFileName('outcomes', this.replicaId),
    };
    this.outcomes.set(id, entry);
    try {
      return { record: await entry.done, duplicate: false };
    } catch (e) {
      if (this.outcomes.get(id) === entry) this.outcomes.delete(id);
      throw e;
    }
  }

  async close(): Promise<void> {
    this.stopFollowing?.();
    this.stopFollowing = undefined;
    await this.polling;
    await Promise.all(Object.values(this.logs).map((l) => l.close()));
  }
}

/**
 * Take one unit of `counter` for `who` on the UTC day of `at` (synchronously, so two concurrent
 * requests cannot both take the last one), write, and give the unit back when the write fails.
 */
async function limited(
  counter: DailyCounter,
  at: string,
  who: string | null,
  limit: number | undefined,
  write: () => Promise<void>,
): Promise<boolean> {
  const day = utcDay(new Date(at));
  if (limit !== undefined && who !== null && !counter.tryTake(day, who, limit)) return false;
  try {
    await write();
  } catch (e) {
    if (limit !== undefined && who !== null) counter.give(day, who);
    throw e;
  }
  return true;
}

const idemKey = (keyId: string, idem: string) => `${keyId}\u0000${idem}`;

/**
 * Which of two reports with the same (key, idempotency key) is the first: the earlier
 * `received_at`, then the log file that sorts first. `atlas ingest inbox` keeps the same one
 * (pipeline/inbox/load.ts: earliest received, then file and line order), so after following, every
 * replica answers a repeat with the report the database keeps.
 */
function isEarlier(a: OutcomeEntry, b: OutcomeEntry): boolean {
  const ta = Date.parse(a.record.received_at);
  const tb = Date.parse(b.record.received_at);
  return ta !== tb ? ta < tb : a.file < b.file;
}

function dayOf(iso: string, fallback: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? fallback : utcDay(d);
}
