import { ALIASES, NETWORKS, isMainnet, toCaip2 } from '../../site/contract/networks.ts';
import type { Store } from '../store/store.ts';

export interface NetworkRow {
  id: string;
  caip2: string;
  mainnet: boolean;
}

/**
 * The `networks` lookup table: every id Atlas knows (CAIP-2, v1 name, alias) with isMainnet() from
 * site/contract/networks.ts (its ALIASES included), so SQL decides "mainnet" exactly as the code does. Unknown ids are absent
 * and therefore never mainnet.
 */
export function networkRows(): NetworkRow[] {
  const ids = new Set<string>();
  for (const n of NETWORKS) {
    ids.add(n.caip2);
    if (n.v1Name) ids.add(n.v1Name);
  }
  for (const id of ALIASES.keys()) ids.add(id);
  return [...ids].sort().map((id) => ({ id, caip2: toCaip2(id), mainnet: isMainnet(id) }));
}

/** The rows are bound as one JSON parameter (values are never pasted into the SQL). */
export async function refreshNetworks(store: Store): Promise<void> {
  const rows = networkRows();
  await store.run('DELETE FROM networks');
  await store.run(
    `INSERT INTO networks (id, caip2, mainnet)
     SELECT id, caip2, mainnet FROM (SELECT unnest(from_json($1, '[{"id":"VARCHAR","caip2":"VARCHAR","mainnet":"BOOLEAN"}]'), recursive := true))`,
    [JSON.stringify(rows)],
  );
}
