import type { FeedbackRecord, InboxKind, KeyRecord, OutcomeRecord } from '../../site/contract/inbox-records.ts';
import type { FollowOptions } from './write-store.ts';

/**
 * The server's write side as the operations see it (create-key, report-outcome, send-feedback, the
 * key lookups of the limiter and the referral). Two implementations: the append logs of one data
 * folder (`WriteStore`, serve/inbox/write-store.ts: one machine, or replicas over a shared folder)
 * and PostgreSQL (`PgWriteStore`, serve/inbox/pg-write-store.ts: `cluster.postgres` set). createDeps
 * (serve/deps.ts) picks one by config. Records keep the shapes of site/contract/inbox-records.ts.
 *
 * Contract of both: a promise that resolves means the write is durable (a 201 means committed);
 * a daily limit (`dailyLimit`, per address per UTC day of the record's own timestamp) is taken only
 * by a write that succeeds; `false` means the limit was reached and nothing was written.
 */
export interface Writes {
  /** The key id of a key's sha256, undefined when unknown. Rejects (storage_unavailable) when the store is unreachable. */
  lookupKey(keyHash: string): Promise<string | undefined>;
  /** Write a key; `false` (nothing written) when its address has reached `dailyLimit` today. */
  addKey(rec: KeyRecord, dailyLimit?: number): Promise<boolean>;
  /** Write a feedback message; `false` (nothing written) when its address has reached `dailyLimit` today. */
  addFeedback(rec: FeedbackRecord, dailyLimit?: number): Promise<boolean>;
  /** The first report with this idempotency key of this key, if any. */
  findOutcome(keyId: string, idempotencyKey: string): Promise<OutcomeRecord | undefined>;
  /** Write a report unless its (key, idempotency key) has one; then answer that first one (`duplicate`). */
  addOutcome(rec: OutcomeRecord): Promise<{ record: OutcomeRecord; duplicate: boolean }>;
  /** `fn` sees every write of this replica with its duration in seconds (the inbox write metrics). */
  observeWrites(fn: (kind: InboxKind, seconds: number) => void): void;
  /** Background work while the server runs (following the other replicas' logs; pruning old counters). */
  follow(opts: FollowOptions): void;
  close(): Promise<void>;
}

/**
 * A key id for read paths (the limiter's identity, a single service's referral id): a store that is
 * unreachable must not take reads down, so an unknown or unreachable lookup is "no key".
 */
export async function knownKeyId(writes: Writes, keyHash: string): Promise<string | undefined> {
  try {
    return await writes.lookupKey(keyHash);
  } catch {
    return undefined;
  }
}
