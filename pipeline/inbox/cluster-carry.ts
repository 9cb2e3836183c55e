import type { Cluster } from '../core/postgres.ts';
import {
  type InboxKind,
  type InboxRecordByKind,
  type KeyRecord,
  type OutcomeRecord,
  recordColumns,
} from '../../site/contract/inbox-records.ts';

/** PostgreSQL types of a record's columns (migrations 010_writes, 011_outcome_receipt). */
const pgColumns = <K extends InboxKind>(kind: K): [keyof InboxRecordByKind[K], string][] =>
  recordColumns(kind).map((c) => [c.name, PG_TYPES[c.type]]);
const PG_TYPES = { time: 'timestamptz', json: 'jsonb', text: 'text' } as const;

/** One INSERT … SELECT FROM unnest(arrays) that skips rows conflicting with any unique constraint. */
function insertMany<R>(table: string, cols: [keyof R, string][], rows: R[]): { sql: string; params: unknown[][] } {
  return {
    sql: `INSERT INTO atlas.${table} (${cols.map(([c]) => String(c)).join(', ')})
          SELECT * FROM unnest(${cols.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')}) ON CONFLICT DO NOTHING`,
    params: cols.map(([c]) => rows.map((r) => r[c] ?? null)),
  };
}

/**
 * An install that moved to `cluster.postgres` keeps the inbox logs it wrote before: their keys and
 * outcome reports are copied into atlas.keys / atlas.outcomes (rows already there are left alone),
 * so replicas in cluster mode accept the old keys and answer a repeat of an old report with its
 * first receipt. Reports go in the loader's order (earliest received first), so where the logs hold
 * two reports of one pair, PostgreSQL keeps the one DuckDB keeps. Feedback needs nothing: it is
 * only loaded. Idempotent; returns the rows newly copied.
 */
export async function carryLogsToCluster(
  cluster: Cluster,
  keys: KeyRecord[],
  outcomes: OutcomeRecord[],
): Promise<{ keys: number; outcomes: number }> {
  if (!keys.length && !outcomes.length) return { keys: 0, outcomes: 0 };
  const ordered = [...outcomes].sort((a, b) => Date.parse(a.received_at) - Date.parse(b.received_at));
  return cluster.transaction(async (c) => {
    const k = insertMany('keys', pgColumns('keys'), keys);
    const o = insertMany('outcomes', pgColumns('outcomes'), ordered);
    const kr = await c.query(k.sql, k.params);
    const or = await c.query(o.sql, o.params);
    return { keys: kr.rowCount ?? 0, outcomes: or.rowCount ?? 0 };
  });
}
