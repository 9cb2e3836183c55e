import type { DuckDBValue } from '@duckdb/node-api';
import type { Context } from '../core/context.ts';
import type { Store } from '../store/store.ts';
import { openCluster } from '../core/postgres.ts';
import { carryLogsToCluster } from './cluster-carry.ts';
import { readClusterWrites } from './cluster-read.ts';
import { readInbox } from './read.ts';
import { checkReceipts, type ReceiptCheckSummary } from './receipt-checks.ts';
import { INBOX_KINDS, type InboxKind, type InboxRecordByKind, recordColumns } from '../../site/contract/inbox-records.ts';

/**
 * `atlas ingest inbox`: load the server's append logs (every replica's file), and with
 * `cluster.postgres` the replicas' rows in PostgreSQL, into the DuckDB tables `keys`, `outcomes`
 * and `feedback`. Idempotent: rows are keyed by id, so re-running (every cycle
 * re-reads the whole logs) inserts only what is new. Outcome reports are also de-duplicated by
 * (key_id, idempotency_key) across replicas, keeping the earliest received.
 * Outcome reports never touch evidence tables: they land in `outcomes` with moderation 'pending'.
 * The receipt a report carries is verified in the same transaction (receipt-checks.ts).
 */
export interface InboxLoadSummary {
  keys: KindSummary;
  outcomes: KindSummary;
  feedback: KindSummary;
  /** Receipts of outcome reports verified in this run (rule outcome-receipt/1, receipt-checks.ts). */
  receipts: ReceiptCheckSummary;
}
export interface KindSummary {
  read: number;
  inserted: number;
  skipped: number;
}

/** Columns of each kind's DuckDB table (a receipt's JSON is staged as its text). */
const DUCK_TYPES = { time: 'TIMESTAMP', json: 'VARCHAR', text: 'VARCHAR' } as const;
const COLUMNS = Object.fromEntries(
  INBOX_KINDS.map((k) => [k, recordColumns(k).map((c) => ({ name: String(c.name), type: DUCK_TYPES[c.type] }))]),
) as Record<InboxKind, { name: string; type: string }[]>;

const ID_COLUMN: Record<InboxKind, string> = { keys: 'key_id', outcomes: 'id', feedback: 'id' };
const BATCH = 200;

/** Time values are ISO strings with an offset; DuckDB TIMESTAMP holds UTC. */
function toDb(type: string, v: unknown): DuckDBValue {
  if (v === null || v === undefined) return null;
  if (type === 'TIMESTAMP') return new Date(String(v)).toISOString().replace('T', ' ').replace('Z', '');
  // An object member (an outcome report's receipt) is stored as its JSON text.
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Insert the records of one kind that are new (by id; outcomes also by (key_id, idempotency_key)). */
async function loadRecords<K extends InboxKind>(
  store: Store,
  kind: K,
  records: InboxRecordByKind[K][],
  skipped: number,
): Promise<KindSummary> {
  const cols = COLUMNS[kind];
  const stage = `inbox_stage_${kind}`;
  await store.run(`CREATE OR REPLACE TEMP TABLE ${stage} (${cols.map((c) => `${c.name} ${c.type}`).join(', ')}, seq INTEGER)`);
  try {
    for (let i = 0; i < records.length; i += BATCH) {
      const batch = records.slice(i, i + BATCH);
      const params: DuckDBValue[] = [];
      const rows = batch.map((r, j) => {
        const rec = r as unknown as Record<string, unknown>;
        const placeholders = cols.map((c) => {
          params.push(toDb(c.type, rec[c.name]));
          return `$${params.length}${c.type === 'TIMESTAMP' ? '::TIMESTAMP' : ''}`;
        });
        params.push(i + j);
        placeholders.push(`$${params.length}`);
        return `(${placeholders.join(', ')})`;
      });
      await store.run(`INSERT INTO ${stage} VALUES ${rows.join(', ')}`, params);
    }
    const id = ID_COLUMN[kind];
    const names = cols.map((c) => c.name).join(', ');
    // First occurrence of an id wins (a record is never rewritten); outcomes also skip a second
    // report with the same (key_id, idempotency_key) from another replica.
    const dedupe =
      kind === 'outcomes'
        ? `AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.key_id = s.key_id AND o.idempotency_key = s.idempotency_key)
           QUALIFY row_number() OVER (PARTITION BY s.key_id, s.idempotency_key ORDER BY s.received_at, s.seq) = 1`
        : `QUALIFY row_number() OVER (PARTITION BY s.${id} ORDER BY s.seq) = 1`;
    const before = await store.all<{ n: string | number }>(`SELECT count(*) AS n FROM ${kind}`);
    await store.run(
      `INSERT INTO ${kind} (${names})
       SELECT ${cols.map((c) => `s.${c.name}`).join(', ')} FROM ${stage} s
       WHERE s.${id} NOT IN (SELECT ${id} FROM ${kind})
       ${dedupe}`,
    );
    const after = await store.all<{ n: string | number }>(`SELECT count(*) AS n FROM ${kind}`);
    return { read: records.length, inserted: Number(after[0]?.n ?? 0) - Number(before[0]?.n ?? 0), skipped };
  } finally {
    await store.run(`DROP TABLE IF EXISTS ${stage}`);
  }
}

export interface IngestInboxOptions {
  /**
   * Called after PostgreSQL was read and before the DuckDB transaction commits (tests inject a
   * failure there: nothing must be lost or loaded twice by the re-run).
   */
  beforeCommit?: () => Promise<void>;
}

/**
 * One machine: the inbox logs. With `cluster.postgres` set, the logs (an install that moved over
 * may still have some; re-reading them is idempotent; their keys and reports are first copied into
 * PostgreSQL for the replicas, cluster-carry.ts) and then the rows the replicas committed to
 * PostgreSQL since the watermark (cluster-read.ts), in one DuckDB transaction with the new
 * watermark: a run killed at any point leaves DuckDB as it was, and the next run reads again.
 */
export async function ingestInbox(ctx: Context, store: Store, opts: IngestInboxOptions = {}): Promise<InboxLoadSummary> {
  const url = ctx.config.cluster.postgres;
  if (!url) return store.transaction(() => loadAll(ctx, store, fileRecords(ctx.paths.inbox)));
  const cluster = openCluster(url, { max: 1, applicationName: 'atlas ingest inbox' });
  try {
    const logs = fileRecords(ctx.paths.inbox);
    const carried = await carryLogsToCluster(cluster, logs.keys.records, logs.outcomes.records);
    if (carried.keys || carried.outcomes) ctx.log.info('ingest inbox: copied the inbox logs’ keys and reports into PostgreSQL', carried);
    const rows = await store.all<{ xmin: bigint | number }>('SELECT xmin FROM cluster_inbox_watermark WHERE id = 1');
    const since = BigInt(rows[0]?.xmin ?? 0);
    const read = await readClusterWrites(cluster, since);
    return await store.transaction(async () => {
      const files = logs;
      for (const kind of INBOX_KINDS) files[kind].records.push(...(read.records[kind] as never[]));
      const summary = await loadAll(ctx, store, files);
      await store.run(
        `INSERT INTO cluster_inbox_watermark VALUES (1, $1, $2::TIMESTAMP)
         ON CONFLICT (id) DO UPDATE SET xmin = excluded.xmin, loaded_at = excluded.loaded_at`,
        [read.xmin, toDb('TIMESTAMP', ctx.clock().toISOString())],
      );
      await opts.beforeCommit?.();
      return summary;
    });
  } finally {
    await cluster.close();
  }
}

type KindRecords = { [K in InboxKind]: { records: InboxRecordByKind[K][]; skipped: number } };

function fileRecords(inboxDir: string): KindRecords {
  return {
    keys: readInbox(inboxDir, 'keys'),
    outcomes: readInbox(inboxDir, 'outcomes'),
    feedback: readInbox(inboxDir, 'feedback'),
  };
}

async function loadAll(ctx: Context, store: Store, r: KindRecords): Promise<InboxLoadSummary> {
  return {
    keys: await loadRecords(store, 'keys', r.keys.records, r.keys.skipped),
    outcomes: await loadRecords(store, 'outcomes', r.outcomes.records, r.outcomes.skipped),
    feedback: await loadRecords(store, 'feedback', r.feedback.records, r.feedback.skipped),
    receipts: await checkReceipts(store, ctx.secret, ctx.clock()),
  };
}
