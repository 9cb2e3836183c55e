import type { Store } from '../store/store.ts';
import { dbTimeToIso } from '../store/store.ts';

/**
 * `sync_state` rows, one per source `'<kind>:<registry name>'`: the time of the last successful
 * sync (MCP `updated_since` reads it) and of the last complete sweep.
 */
export const syncKey = (kind: 'x402' | 'mcp', registry: string): string => `${kind}:${registry}`;

export async function readSyncState(
  store: Store,
  key: string,
): Promise<{ lastSyncAt: string | null; lastCompleteAt: string | null } | null> {
  const rows = await store.all<{ last_sync_at: string | null; last_complete_at: string | null }>(
    'SELECT last_sync_at, last_complete_at FROM sync_state WHERE source = $1',
    [key],
  );
  const r = rows[0];
  return r ? { lastSyncAt: dbTimeToIso(r.last_sync_at), lastCompleteAt: dbTimeToIso(r.last_complete_at) } : null;
}

export async function writeSyncState(
  store: Store,
  key: string,
  at: Date,
  complete: boolean,
  detail: Record<string, unknown>,
): Promise<void> {
  await store.run(
    `INSERT INTO sync_state (source, last_sync_at, last_complete_at, detail) VALUES ($1, $2::TIMESTAMP, CASE WHEN $3 THEN $2::TIMESTAMP END, $4::JSON)
     ON CONFLICT (source) DO UPDATE SET last_sync_at = excluded.last_sync_at,
       last_complete_at = coalesce(excluded.last_complete_at, sync_state.last_complete_at), detail = excluded.detail`,
    [key, at.toISOString(), complete, JSON.stringify(detail)],
  );
}
