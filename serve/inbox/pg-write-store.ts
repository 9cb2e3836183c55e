import type { Logger } from '../../pipeline/core/log.ts';
import type { Cluster } from '../../pipeline/core/postgres.ts';
import {
  type FeedbackRecord,
  type InboxKind,
  type KeyRecord,
  type OutcomeRecord,
  OutcomeRecordSchema,
  recordColumns,
} from '../../site/contract/inbox-records.ts';
import { utcDay } from './daily-counter.ts';
import type { FollowOptions } from './write-store.ts';
import type { Writes } from './writes.ts';

const names = <K extends InboxKind>(kind: K) => recordColumns(kind).map((c) => c.name);
const OUTCOME_COLUMNS = names('outcomes');
const KEY_COLUMNS = names('keys');
const FEEDBACK_COLUMNS = names('feedback');
const TIME_COLUMNS = recordColumns('outcomes')
  .filter((c) => c.type === 'time')
  .map((c) => c.name);

const insertSql = (table: string, cols: readonly string[], tail = '') =>
  `INSERT INTO atlas.${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})${tail}`;
const INSERT_KEY = insertSql('keys', KEY_COLUMNS);
const INSERT_FEEDBACK = insertSql('feedback', FEEDBACK_COLUMNS);
const INSERT_OUTCOME = insertSql('outcomes', OUTCOME_COLUMNS, ' ON CONFLICT (key_id, idempotency_key) DO NOTHING RETURNING id');
const SELECT_OUTCOME = `SELECT ${OUTCOME_COLUMNS.join(', ')} FROM atlas.outcomes WHERE key_id = $1 AND idempotency_key = $2`;

/**
 * A row insert guarded by one unit of a per-address daily count, in ONE statement (one transaction,
 * one round trip): the count is taken only while below the limit ($3), and the row is inserted only
 * when it was. The row lock of the upsert makes concurrent writes of every replica for one address
 * take turns, each seeing the count its predecessor committed; a failed insert rolls the count back
 * with it. No row returned: the limit is reached and nothing was written.
 */
const limitedInsert = (table: string, cols: readonly string[]) =>
  `WITH take AS (
     INSERT INTO atlas.daily_counts AS d (what, day, address_hash, n) VALUES ($1, $2::date, $4, 1)
     ON CONFLICT (what, day, address_hash) DO UPDATE SET n = d.n + 1 WHERE d.n < $3 RETURNING n)
   INSERT INTO atlas.${table} (${cols.join(', ')})
   SELECT ${cols.map((_, i) => `$${i + 5}`).join(', ')} WHERE EXISTS (SELECT 1 FROM take) RETURNING 1`;
const LIMITED_KEY = limitedInsert('keys', KEY_COLUMNS);
const LIMITED_FEEDBACK = limitedInsert('feedback', FEEDBACK_COLUMNS);

/**
 * The write store of the replicas when `cluster.postgres` is set (docs/notes/cluster.md): every
 * write is one PostgreSQL transaction, so any replica sees every other replica's writes at once.
 * - a key or feedback message and its daily count commit together (limitedInsert): a failed write
 *   never consumes the limit, and R replicas never hand out more than the limit;
 * - a report is unique per (key, idempotency key) by a constraint: the first insert wins and every
 *   later one, on any replica, reads that first report (no window);
 * - key lookups go to PostgreSQL, with a positive cache (keys are never deleted).
 * An unreachable server rejects with AtlasError `storage_unavailable` (503); the next write
 * connects again, so writes resume without a restart. Records read back are parsed with the
 * inbox record schemas.
 */
export class PgWriteStore implements Writes {
  private readonly keyIds = new Map<string, string>();
  private observe: ((kind: InboxKind, seconds: number) => void) | undefined;
  private stopPruning: (() => void) | undefined;

  constructor(private readonly cluster: Cluster) {}

  async lookupKey(keyHash: string): Promise<string | undefined> {
    const cached = this.keyIds.get(keyHash);
    if (cached) return cached;
    const r = await this.cluster.query<{ key_id: string }>('SELECT key_id FROM atlas.keys WHERE key_hash = $1', [keyHash]);
    const id = r.rows[0]?.key_id;
    if (id) this.keyIds.set(keyHash, id);
    return id;
  }

  async addKey(rec: KeyRecord, dailyLimit?: number): Promise<boolean> {
    const values = KEY_COLUMNS.map((k) => rec[k]);
    const ok = await this.timed('keys', () =>
      this.insert('keys', INSERT_KEY, LIMITED_KEY, values, rec.created_at, rec.address_hash, dailyLimit),
    );
    if (ok) this.keyIds.set(rec.key_hash, rec.key_id);
    return ok;
  }

  async addFeedback(rec: FeedbackRecord, dailyLimit?: number): Promise<boolean> {
    const values = FEEDBACK_COLUMNS.map((k) => rec[k]);
    return this.timed('feedback', () =>
      this.insert('feedback', INSERT_FEEDBACK, LIMITED_FEEDBACK, values, rec.received_at, rec.address_hash, dailyLimit),
    );
  }

  /** The row alone (no limit: limits off, or no address), or guarded by the daily count of the record's own UTC day. */
  private async insert(
    what: 'keys' | 'feedback',
    plain: string,
    guarded: string,
    values: unknown[],
    at: string,
    who: string | null,
    limit: number | undefined,
  ): Promise<boolean> {
    if (limit === undefined || who === null) {
      await this.cluster.query(plain, values);
      return true;
    }
    if (limit <= 0) return false;
    const r = await this.cluster.query(guarded, [what, utcDay(new Date(at)), limit, who, ...values]);
    return (r.rowCount ?? 0) > 0;
  }

  async findOutcome(keyId: string, idempotencyKey: string): Promise<OutcomeRecord | undefined> {
    const r = await this.cluster.query(SELECT_OUTCOME, [keyId, idempotencyKey]);
    return r.rows[0] ? outcomeFromRow(r.rows[0]) : undefined;
  }

  /**
   * INSERT … ON CONFLICT DO NOTHING waits for a concurrent insert of the same pair to commit or roll
   * back; when it inserted nothing, the first report is committed and the next statement reads it.
   */
  async addOutcome(rec: OutcomeRecord): Promise<{ record: OutcomeRecord; duplicate: boolean }> {
    return this.timed('outcomes', async () => {
      const ins = await this.cluster.query(
        INSERT_OUTCOME,
        OUTCOME_COLUMNS.map((k) => rec[k] ?? null),
      );
      if (ins.rowCount) return { record: rec, duplicate: false };
      const first = await this.findOutcome(rec.key_id, rec.idempotency_key);
      if (!first) throw new Error(`outcome report (${rec.key_id}, ${rec.idempotency_key}) conflicted but is not there`);
      return { record: first, duplicate: true };
    });
  }

  observeWrites(fn: (kind: InboxKind, seconds: number) => void): void {
    this.observe = fn;
  }

  /**
   * Nothing to follow (every replica reads the same tables); while the server runs, counts of days
   * before yesterday and request windows older than the previous minute are deleted every
   * `intervalMs` (default one minute). A failed prune is retried at the next tick.
   */
  follow(opts: FollowOptions): void {
    this.stopPruning?.();
    const tick = () => void this.prune(opts.clock(), opts.log).catch(() => undefined);
    this.stopPruning = (opts.schedule ?? everyInterval)(tick, opts.intervalMs ?? 60_000);
  }

  async prune(now: Date, log?: Logger): Promise<void> {
    try {
      const yesterday = utcDay(new Date(now.getTime() - 86_400_000));
      await this.cluster.query('DELETE FROM atlas.daily_counts WHERE day < $1', [yesterday]);
      await this.cluster.query('DELETE FROM atlas.request_windows WHERE minute < $1', [Math.floor(now.getTime() / 60_000) - 1]);
    } catch (e) {
      log?.warn('serve: pruning old counters in PostgreSQL failed; retrying at the next tick', { error: (e as Error).message });
      throw e;
    }
  }

  async close(): Promise<void> {
    this.stopPruning?.();
    this.stopPruning = undefined;
    await this.cluster.close();
  }

  private async timed<T>(kind: InboxKind, fn: () => Promise<T>): Promise<T> {
    const t0 = process.hrtime.bigint();
    const out = await fn();
    this.observe?.(kind, Number(process.hrtime.bigint() - t0) / 1e9);
    return out;
  }
}

const everyInterval = (tick: () => void, ms: number) => {
  const t = setInterval(tick, ms);
  t.unref();
  return () => clearInterval(t);
};

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string | Date).toISOString());

/** A row of atlas.outcomes as the inbox record (timestamptz comes back as a Date). */
function outcomeFromRow(row: Record<string, unknown>): OutcomeRecord {
  const out: Record<string, unknown> = { ...row };
  for (const c of TIME_COLUMNS) out[c] = iso(row[c]);
  return OutcomeRecordSchema.parse(out);
}
