import { type DeclaredValues, declaredValuesHash, NOTHING_DECLARED } from '../x402/declared.ts';
import type { Store } from '../store/store.ts';

/**
 * Keeping each source's declared payment terms over time (table declared_terms, migration 060; rule
 * declared-terms/1 in pipeline/store/rules.sql). The caller opens the transaction.
 *
 * Per (service, source): a read that finds the values of the latest row again moves its read_at; a
 * read that finds other values adds a row (since = read_at = this read). With `complete` (a whole
 * sweep of the source), a service whose latest row states something and that the read does not
 * contain gets a row stating nothing: the source stopped declaring (a catalog dropped it). A service
 * a source never declared anything for gets no row.
 */
export const DECLARED_SOURCE_KINDS = ['catalog', 'well_known', 'listing'] as const;
export type DeclaredSourceKind = (typeof DECLARED_SOURCE_KINDS)[number];

export interface DeclaredSource {
  kind: DeclaredSourceKind;
  /** The catalog's configured name, `well-known:<host>`, or the listing file. */
  name: string;
}

export interface DeclaredRow {
  service_id: string;
  values: DeclaredValues;
  /** Where each value was checked (listings), else omitted. */
  detail?: unknown;
}

/** The declared source of a discovery merge: seller documents are registries named `well-known:<host>`. */
export const catalogSource = (registry: string): DeclaredSource => ({
  kind: registry.startsWith('well-known:') ? 'well_known' : 'catalog',
  name: registry,
});

const STAGE = `CREATE OR REPLACE TEMP TABLE declared_stage (service_id VARCHAR, price_usd DOUBLE, max_price_usd DOUBLE,
  networks VARCHAR[], assets VARCHAR[], schemes VARCHAR[], pay_to_hashes VARCHAR[], source_detail JSON, values_hash VARCHAR)`;
const STRUCTURE = JSON.stringify([
  {
    service_id: 'VARCHAR',
    price_usd: 'DOUBLE',
    max_price_usd: 'DOUBLE',
    networks: ['VARCHAR'],
    assets: ['VARCHAR'],
    schemes: ['VARCHAR'],
    pay_to_hashes: ['VARCHAR'],
    source_detail: 'JSON',
    values_hash: 'VARCHAR',
  },
]);
const CHUNK = 500;

/** Records the declarations of one read of `source` at `now`; returns the rows added (new or changed declarations). */
export async function recordDeclared(
  store: Store,
  source: DeclaredSource,
  rows: readonly DeclaredRow[],
  now: string,
  complete: boolean,
): Promise<number> {
  await store.run(STAGE);
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK).map((r) => ({
      service_id: r.service_id,
      ...r.values,
      source_detail: r.detail ?? null,
      values_hash: declaredValuesHash(r.values, r.detail ?? null),
    }));
    await store.run(`INSERT INTO declared_stage BY NAME SELECT unnest(from_json($1::JSON, '${STRUCTURE}'), recursive := true)`, [
      JSON.stringify(chunk),
    ]);
  }
  const p = { kind: source.kind, source: source.name, now, nothing: declaredValuesHash(NOTHING_DECLARED) };
  await store.run(
    `CREATE OR REPLACE TEMP TABLE declared_latest AS
     SELECT service_id, since, values_hash FROM declared_terms WHERE source_kind = $kind AND source = $source
     QUALIFY row_number() OVER (PARTITION BY service_id ORDER BY since DESC) = 1`,
    { kind: p.kind, source: p.source },
  );
  await store.run(
    `UPDATE declared_terms SET read_at = $now::TIMESTAMP
     FROM declared_latest l JOIN declared_stage st ON st.service_id = l.service_id AND st.values_hash = l.values_hash
     WHERE declared_terms.service_id = l.service_id AND declared_terms.source_kind = $kind AND declared_terms.source = $source
       AND declared_terms.since = l.since`,
    { kind: p.kind, source: p.source, now },
  );
  const before = await countRows(store);
  await store.run(
    `INSERT INTO declared_terms (service_id, source_kind, source, since, read_at, price_usd, max_price_usd, networks, assets, schemes,
       pay_to_hashes, source_detail, values_hash)
     SELECT st.service_id, $kind, $source, $now::TIMESTAMP, $now::TIMESTAMP, st.price_usd, st.max_price_usd, st.networks, st.assets,
       st.schemes, st.pay_to_hashes, st.source_detail, st.values_hash
     FROM declared_stage st LEFT JOIN declared_latest l ON l.service_id = st.service_id
     WHERE EXISTS (SELECT 1 FROM services s WHERE s.id = st.service_id)
       AND (l.service_id IS NULL AND st.values_hash <> $nothing OR l.values_hash <> st.values_hash)`,
    p,
  );
  if (complete) {
    await store.run(
      `INSERT INTO declared_terms (service_id, source_kind, source, since, read_at, values_hash)
       SELECT l.service_id, $kind, $source, $now::TIMESTAMP, $now::TIMESTAMP, $nothing FROM declared_latest l
       WHERE l.values_hash <> $nothing AND l.service_id NOT IN (SELECT service_id FROM declared_stage)`,
      p,
    );
  }
  const added = (await countRows(store)) - before;
  await store.run('DROP TABLE IF EXISTS declared_latest');
  await store.run('DROP TABLE IF EXISTS declared_stage');
  return added;
}

async function countRows(store: Store): Promise<number> {
  const [r] = await store.all<{ n: number | bigint }>('SELECT count(*)::INTEGER AS n FROM declared_terms');
  return Number(r?.n ?? 0);
}
