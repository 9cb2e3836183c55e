import type { Cluster } from '../core/postgres.ts';
import type { KeyRecord, OutcomeRecord } from '../../site/contract/inbox-records.ts';

const KEY_COLUMNS: [keyof KeyRecord, string][] = [
  ['key_id', 'text'],
  ['key_hash', 'text'],
  ['label', 'text'],
  ['contact', 'text'],
  ['created_at', 'timestamptz'],
  ['address_hash', 'text'],
];
const OUTCOME_COLUMNS: [keyof OutcomeRecord, string][] = [
  ['id', 'text'],
  ['key_id', 'text'],
  ['idempotency_key', 'text'],
  ['service_id', 'text'],
  ['referral_id', 'text'],
  ['outcome', 'text'],
  ['failure_kind', 'text'],
  ['operation', 'text'],
  ['task_category', 'text'],
  ['reported_at', 'timestamptz'],
  ['received_at', 'timestamptz'],
  ['moderation', 'text'],
  ['receipt', 'jsonb'],
];

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
    const k = insertMany('keys', KEY_COLUMNS, keys);
    const o = insertMany('outcomes', OUTCOME_COLUMNS, ordered);
    const kr = await c.query(k.sql, k.params);
    const or = await c.query(o.sql, o.params);
    return { keys: kr.rowCount ?? 0, outcomes: or.rowCount ?? 0 };
  });
}
