import type { z } from 'zod';
import type { Cluster } from '../core/postgres.ts';
import { INBOX_KINDS, type InboxKind, type InboxRecordByKind, RECORD_SCHEMAS } from '../../site/contract/inbox-records.ts';

/** The replicas' writes committed since a watermark (pipeline side of serve/inbox/pg-write-store.ts). */
export interface ClusterRead {
  records: { [K in InboxKind]: InboxRecordByKind[K][] };
  /** The watermark to store once these records are in DuckDB. */
  xmin: bigint;
}

/**
 * Read every row of atlas.keys / outcomes / feedback written by a transaction at or above `since`
 * (outbox pattern). `xmin`, the oldest transaction still running, is taken BEFORE the reads: every
 * transaction below it has ended, so its rows (if committed) are visible to the reads that follow;
 * rows of transactions at or above it that are still running are not visible yet and are read at
 * the next run, which starts from `xmin`. A row may be read twice (committed, but at or above
 * `xmin`): the loader skips ids it already has. Sequence values are not commit order, so they are
 * never the watermark. Rows are parsed with the inbox record schemas.
 */
export async function readClusterWrites(cluster: Cluster, since: bigint): Promise<ClusterRead> {
  const snap = await cluster.query<{ xmin: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
  const xmin = BigInt(snap.rows[0]!.xmin);
  const records = {} as ClusterRead['records'];
  for (const kind of INBOX_KINDS) {
    const cols = Object.keys(RECORD_SCHEMAS[kind].shape);
    const r = await cluster.query(`SELECT ${cols.join(', ')} FROM atlas.${kind} WHERE xid >= $1::text::xid8 ORDER BY xid, seq`, [
      since.toString(),
    ]);
    records[kind] = r.rows.map((row) => recordFromRow(kind, row)) as never;
  }
  return { records, xmin };
}

/** timestamptz comes back as a Date: the records hold ISO strings. */
function recordFromRow<K extends InboxKind>(kind: K, row: Record<string, unknown>): InboxRecordByKind[K] {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = v instanceof Date ? v.toISOString() : v;
  return (RECORD_SCHEMAS[kind] as z.ZodObject).parse(out) as InboxRecordByKind[K];
}
