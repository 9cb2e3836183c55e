import { NETWORKS, isMainnet, toCaip2 } from '../x402/networks.ts';
import type { Store } from '../store/store.ts';

/** Non-standard ids seen in the wild (docs/reference.md, Networks and prices) that networks.ts maps to CAIP-2. */
const EXTRA_IDS = ['solana:mainnet', 'solana:devnet', 'solana:testnet'];

export interface NetworkRow {
  id: string;
  caip2: string;
  mainnet: boolean;
}

/**
 * The `networks` lookup table: every id Atlas knows (CAIP-2, v1 name, alias) with isMainnet() from
 * pipeline/x402/networks.ts, so SQL decides "mainnet" exactly as the code does. Unknown ids are absent
 * and therefore never mainnet.
 */
export function networkRows(): NetworkRow[] {
  const ids = new Set<string>();
  for (const n of NETWORKS) {
    ids.add(n.caip2);
    if (n.v1Name) ids.add(n.v1Name);
  }
  for (const id of EXTRA_IDS) ids.add(id);
  return [...ids].sort().map((id) => ({ id, caip2: toCaip2(id), mainnet: isMainnet(id) }));
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export async function refreshNetworks(store: Store): Promise<void> {
  const values = networkRows()
    .map((r) => `(${quote(r.id)}, ${quote(r.caip2)}, ${r.mainnet})`)
    .join(', ');
  await store.run('DELETE FROM networks');
  await store.run(`INSERT INTO networks (id, caip2, mainnet) VALUES ${values}`);
}
