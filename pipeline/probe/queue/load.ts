import type { Store } from '../../store/store.ts';
import type { Cluster } from '../../cluster/postgres.ts';
import { AtlasError, formatIssues } from '../../core/errors.ts';
import { type BatchEntry, BatchEntrySchema } from '../batches/format.ts';
import { insertCheckRecords } from '../check-writer.ts';
import { storedCounts } from '../runs.ts';

/**
 * The writer's load of what workers wrote back (atlas.probe_checks) into DuckDB, each row once:
 *
 * - The upper bound is `pg_snapshot_xmin` of a snapshot taken BEFORE the read: every transaction
 *   with a smaller id has ended, so no row below it can still appear. (A row's sequence number is
 *   not commit order; its transaction id, compared with that bound, is.) Rows from the watermark up
 *   to the bound are read in pages and inserted through the one check insert (insertCheckRecords:
 *   the anti-join on (service_id, operation, slot), terms only with their inserted check), then the
 *   watermark moves to the bound.
 * - Safe to kill at any point: DuckDB commits each page, the watermark moves only afterwards, and a
 *   page read again inserts nothing (one row per slot).
 * - The runs the loaded checks belong to (the writer's enqueueing runs) get the stored-side counts a
 *   local run records (storedCounts over `checks`), `probed` being the checks workers wrote back.
 */
export interface QueueLoadSummary {
  rows: number;
  inserted: number;
  terms: number;
  runs: number;
  watermark: string;
}

const PAGE = 5000;
/** Loaded rows are kept this long in PostgreSQL (for inspection), then pruned. */
const KEEP = '2 days';

export async function loadQueuedChecks(store: Store, cluster: Cluster, opts: { pageSize?: number } = {}): Promise<QueueLoadSummary> {
  const hi = (await cluster.query<{ hi: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS hi')).rows[0]!.hi;
  const lo = (await cluster.query<{ lo: string }>('SELECT watermark::text AS lo FROM atlas.probe_load WHERE id = 1')).rows[0]!.lo;
  const s: QueueLoadSummary = { rows: 0, inserted: 0, terms: 0, runs: 0, watermark: lo };
  const runIds = new Set<string>();
  let after: [string, string] | null = null;
  for (;;) {
    type Row = { xid: string; seq: string; check_row: unknown; terms_row: unknown };
    const page: { rows: Row[] } = await cluster.query<{ xid: string; seq: string; check_row: unknown; terms_row: unknown }>(
      `SELECT xid::text AS xid, seq::text AS seq, check_row, terms_row FROM atlas.probe_checks
       WHERE xid >= $1::xid8 AND xid < $2::xid8 AND (xid, seq) > ($3::xid8, $4::bigint)
       ORDER BY xid, seq LIMIT $5`,
      [lo, hi, after?.[0] ?? '0', after?.[1] ?? '0', opts.pageSize ?? PAGE],
    );
    if (!page.rows.length) break;
    const entries = page.rows.map((r) => entryOf(r.check_row, r.terms_row));
    const done = await insertCheckRecords(store, entries);
    s.rows += entries.length;
    s.inserted += done.checks;
    s.terms += done.terms;
    for (const e of entries) runIds.add(e.check.run_id);
    const last = page.rows[page.rows.length - 1]!;
    after = [last.xid, last.seq];
  }
  s.runs = await updateRunCounts(store, cluster, [...runIds]);
  await cluster.query('UPDATE atlas.probe_load SET watermark = $1::xid8, loaded_at = now() WHERE id = 1 AND watermark < $1::xid8', [hi]);
  s.watermark = hi;
  await cluster.query(`DELETE FROM atlas.probe_checks WHERE xid < $1::xid8 AND written_at < now() - interval '${KEEP}'`, [hi]);
  await cluster.query(`DELETE FROM atlas.probe_queued WHERE queued_at < now() - interval '${KEEP}'`);
  return s;
}

function entryOf(check: unknown, terms: unknown): BatchEntry {
  const e = BatchEntrySchema.safeParse({ check, terms: terms ?? null });
  if (!e.success) throw new AtlasError('invalid_input', `a check written back to the probe queue: ${formatIssues(e.error.issues)}`);
  return e.data as BatchEntry;
}

/** Give each run the counts a local run stores; returns how many runs were updated. */
async function updateRunCounts(store: Store, cluster: Cluster, runIds: string[]): Promise<number> {
  if (!runIds.length) return 0;
  const probed = await cluster.query<{ run_id: string; n: number }>(
    'SELECT run_id, count(*)::integer AS n FROM atlas.probe_checks WHERE run_id = ANY($1::text[]) GROUP BY run_id',
    [runIds],
  );
  const probedOf = new Map(probed.rows.map((r) => [r.run_id, r.n]));
  let n = 0;
  for (const id of runIds) {
    const row = await store.all<{ counts: string | null }>('SELECT counts::VARCHAR AS counts FROM runs WHERE id = $1', [id]);
    if (!row.length) continue; // a run of another database (a test, a restored copy): its checks still load
    const before = row[0]!.counts ? (JSON.parse(row[0]!.counts) as Record<string, unknown>) : {};
    const stored = await storedCounts(store, id);
    const probedN = Math.max(probedOf.get(id) ?? 0, stored.stored);
    const counts = { ...before, ...stored, probed: probedN, skipped_existing_slot: Math.max(0, probedN - stored.stored) };
    await store.run('UPDATE runs SET counts = $2::JSON WHERE id = $1', [id, JSON.stringify(counts)]);
    n++;
  }
  return n;
}
