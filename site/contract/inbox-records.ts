import { z } from 'zod';

/**
 * The server's durable write log (docs/design.md, decision 2): one JSON object per line in
 * `<data>/inbox/<kind>-<replica id>.jsonl`, appended and fsynced before the HTTP answer.
 * Written by serve/inbox, read back by the server at start (to rebuild its indexes) and by
 * `atlas ingest inbox` (into the DuckDB tables keys / outcomes / feedback, idempotently by id).
 *
 * Privacy: addresses are stored only as keyed hashes (`keyedHash(secret, 'address', ip)`), key
 * values only as sha256 hashes. `contact` is stored because the requester gave it to be reached.
 */
export const INBOX_KINDS = ['keys', 'outcomes', 'feedback'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/** A time member: stored as TIMESTAMP by `atlas ingest inbox` (pipeline/inbox/load.ts reads this schema). */
export const Time = z.iso.datetime({ offset: true });

export const KeyRecordSchema = z.object({
  key_id: z.string().min(1),
  key_hash: z.string().regex(/^[0-9a-f]{64}$/),
  label: z.string().nullable(),
  contact: z.string().nullable(),
  created_at: Time,
  address_hash: z.string().nullable(),
});
export type KeyRecord = z.infer<typeof KeyRecordSchema>;

export const OutcomeRecordSchema = z.object({
  id: z.string().min(1),
  key_id: z.string().min(1),
  idempotency_key: z.string().min(1),
  service_id: z.string().nullable(),
  referral_id: z.string().nullable(),
  outcome: z.string(),
  failure_kind: z.string().nullable(),
  operation: z.string().nullable(),
  task_category: z.string().nullable(),
  reported_at: Time.nullable(),
  received_at: Time,
  /** Always 'pending' on receipt (docs/design.md, outcome reports); moderation happens in the pipeline. */
  moderation: z.literal('pending'),
  /**
   * The x402 receipt object of the report exactly as received (shape checked at POST with
   * X402Receipt, site/contract/outcome-receipt.ts), null without one. Absent from records written
   * before receipts were accepted. Never verified by the server.
   */
  receipt: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type OutcomeRecord = z.infer<typeof OutcomeRecordSchema>;

export const FeedbackRecordSchema = z.object({
  id: z.string().min(1),
  kind: z.string(),
  note: z.string().nullable(),
  about: z.string().nullable(),
  contact: z.string().nullable(),
  received_at: Time,
  address_hash: z.string().nullable(),
});
export type FeedbackRecord = z.infer<typeof FeedbackRecordSchema>;

export const RECORD_SCHEMAS = {
  keys: KeyRecordSchema,
  outcomes: OutcomeRecordSchema,
  feedback: FeedbackRecordSchema,
} as const satisfies Record<InboxKind, z.ZodObject>;

export interface InboxRecordByKind {
  keys: KeyRecord;
  outcomes: OutcomeRecord;
  feedback: FeedbackRecord;
}

/**
 * A member of a record schema as a stored column: `time` members (schema Time) are timestamps,
 * `json` members (an object, such as an outcome report's receipt) are JSON, the rest text.
 */
export interface RecordColumn<K extends InboxKind> {
  name: keyof InboxRecordByKind[K] & string;
  type: 'time' | 'json' | 'text';
}

/**
 * The columns of each kind, in the order of its record schema: the one list every store of the
 * records uses (the DuckDB tables, the PostgreSQL tables of the replicas), so a member added to a
 * schema reaches every store or fails their agreement tests.
 */
export function recordColumns<K extends InboxKind>(kind: K): RecordColumn<K>[] {
  return Object.entries(RECORD_SCHEMAS[kind].shape).map(([name, field]) => {
    let inner: z.ZodType = field;
    while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
    const type = inner === Time ? 'time' : inner instanceof z.ZodRecord || inner instanceof z.ZodObject ? 'json' : 'text';
    return { name: name as RecordColumn<K>['name'], type };
  });
}

/**
 * One log line as a record of `kind`, or null when it is not one (not JSON, or not the kind's
 * schema): the one parse shared by `atlas ingest inbox` and the server (at start and when it
 * follows other replicas' logs).
 */
export function parseRecord<K extends InboxKind>(kind: K, line: string): InboxRecordByKind[K] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  const r = RECORD_SCHEMAS[kind].safeParse(parsed);
  return r.success ? (r.data as InboxRecordByKind[K]) : null;
}

/** `<kind>-<replica id>.jsonl` for every kind of INBOX_KINDS; replica ids are limited to [A-Za-z0-9_.-]. */
export const LOG_FILE_RE = new RegExp(`^(${INBOX_KINDS.join('|')})-([A-Za-z0-9_.-]{1,64})\\.jsonl$`);

export function logFileName(kind: InboxKind, replicaId: string): string {
  return `${kind}-${replicaId}.jsonl`;
}

/** Make any string a valid replica id (hostnames, pod names). */
export function sanitizeReplicaId(raw: string): string {
  const s = raw.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 64);
  return s.length ? s : 'replica';
}
