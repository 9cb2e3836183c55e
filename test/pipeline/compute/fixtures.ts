/**
 * Typed fixture factories for compute tests: rows of services, operations, checks, payment_terms and
 * interval_changes (columns of 001_core.sql), inserted directly — no ingest or probe needed.
 * Long histories are generated inside DuckDB (generate_series) by insertCheckSeries.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBValue } from '@duckdb/node-api';
import type { CheckRecord, TermsRecord } from '../../../pipeline/probe/check-writer.ts';
import type { Store } from '../../../pipeline/store/store.ts';

export interface ServiceRow {
  id: string;
  tier: 'reviewed' | 'discovered';
  type: 'api_endpoint' | 'task_marketplace' | 'mcp_server';
  name: string;
  name_source: 'atlas' | 'registry';
  host: string;
  url: string;
  method: string;
  templated_url: boolean;
  listed: boolean;
  active: boolean;
  protocol: 'x402' | 'mcp' | 'none';
  first_seen_at: string | null;
  unlisted_at: string | null;
  approved_at: string | null;
  monitoring_since: string;
  registry_payers_30d: number | null;
  registry_price_usd: number | null;
  registry_networks: string[];
  operator_price_usd: number | null;
  operator_networks: string[];
  mcp_status: string | null;
  created_at: string;
  updated_at: string;
}

export interface OperationRow {
  service_id: string;
  id: string;
  kind: 'call' | 'documentation';
  is_primary: boolean;
  url: string;
  method: string;
  expected_statuses: number[] | null;
  pass_rule: string;
  interval_hours: number;
  enabled: boolean;
  /** The operation's own start of monitoring; left out, the column stays NULL (= the service's). */
  monitoring_since?: string | null;
}

/** The check columns the compute fixtures set: the stored row's shape (check-writer.ts), not a copy of it. */
export type CheckRow = Pick<
  CheckRecord,
  'service_id' | 'operation' | 'slot' | 'checked_at' | 'status' | 'passed' | 'reason' | 'rule' | 'latency_ms'
>;

/** The payment-terms columns the compute fixtures set: the stored record's shape (check-writer.ts) without its raw offers. */
export type TermsRow = Omit<TermsRecord, 'offers'>;

export interface IntervalChangeRow {
  service_id: string;
  operation: string;
  changed_at: string;
  from_hours: number | null;
  to_hours: number;
  rule: string;
  reason: string;
}

export const T0 = '2026-07-01T00:00:00.000Z';
export const BASE_USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';

/** ISO time `days` (fractional) after `from`. */
export const at = (from: string, days: number, hours = 0): string =>
  new Date(new Date(from).getTime() + days * 86_400_000 + hours * 3_600_000).toISOString();

export function makeService(o: Partial<ServiceRow> & { id: string }): ServiceRow {
  const discovered = o.tier !== 'reviewed';
  const since = o.monitoring_since ?? T0;
  return {
    tier: 'discovered',
    type: 'api_endpoint',
    name: o.id,
    name_source: discovered ? 'registry' : 'atlas',
    host: `${o.id}.example`,
    url: `https://${o.id}.example/api`,
    method: 'GET',
    templated_url: false,
    listed: true,
    active: true,
    protocol: 'x402',
    first_seen_at: discovered ? since : null,
    unlisted_at: null,
    approved_at: discovered ? null : since,
    monitoring_since: since,
    registry_payers_30d: null,
    registry_price_usd: null,
    registry_networks: [],
    operator_price_usd: null,
    operator_networks: [],
    mcp_status: null,
    created_at: since,
    updated_at: since,
    ...o,
  };
}

export function makeOperation(o: Partial<OperationRow> & { service_id: string }): OperationRow {
  return {
    id: 'primary',
    kind: 'call',
    is_primary: true,
    url: `https://${o.service_id}.example/api`,
    method: 'GET',
    expected_statuses: null,
    pass_rule: 'x402-mainnet/1',
    interval_hours: 24,
    enabled: true,
    ...o,
  };
}

export function makeCheck(o: Partial<CheckRow> & { service_id: string; checked_at: string }): CheckRow {
  return {
    operation: 'primary',
    slot: o.checked_at,
    status: o.passed === false ? 500 : 402,
    passed: true,
    reason: o.passed === false ? 'not_402' : 'ok',
    rule: 'x402-mainnet/1',
    latency_ms: 120,
    ...o,
  };
}

/** One offer set on Base USDC; override the arrays to build a change. terms_hash defaults to a digest of the arrays. */
export function makeTerms(o: Partial<TermsRow> & { service_id: string; observed_at: string }): TermsRow {
  const r: TermsRow = {
    operation: 'primary',
    slot: o.observed_at,
    x402_version: 2,
    terms_hash: '',
    networks: ['eip155:8453'],
    schemes: ['exact'],
    assets: [`eip155:8453|${BASE_USDC}`],
    pay_to_hashes: ['payto-a'],
    amounts: [`exact|eip155:8453|${BASE_USDC}=10000`],
    timeouts: [60],
    min_price_usd: 0.01,
    ...o,
  };
  if (!o.terms_hash)
    r.terms_hash = JSON.stringify([r.x402_version, r.networks, r.schemes, r.assets, r.pay_to_hashes, r.amounts, r.timeouts]);
  return r;
}

export function makeIntervalChange(
  o: Partial<IntervalChangeRow> & { service_id: string; changed_at: string; to_hours: number },
): IntervalChangeRow {
  return { operation: 'primary', from_hours: null, rule: 'schedule/1', reason: 'new_until_third_probe', ...o };
}

const ts = (v: string | null) => (v === null ? null : v.replace('T', ' ').replace('Z', ''));

function listSql(values: readonly (string | number)[], type: 'VARCHAR' | 'INTEGER'): string {
  if (!values.length) return `[]::${type}[]`;
  return `[${values.map((v) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`)).join(', ')}]::${type}[]`;
}

async function insertRows(
  store: Store,
  table: string,
  rows: Record<string, unknown>[],
  timeCols: string[],
  listCols: Record<string, 'VARCHAR' | 'INTEGER'> = {},
) {
  for (const row of rows) {
    const cols = Object.keys(row);
    const params: DuckDBValue[] = [];
    const exprs = cols.map((c) => {
      const v = row[c];
      if (c in listCols) return v === null ? 'NULL' : listSql(v as (string | number)[], listCols[c]!);
      params.push((timeCols.includes(c) ? ts(v as string | null) : v) as DuckDBValue);
      return timeCols.includes(c) ? `$${params.length}::TIMESTAMP` : `$${params.length}`;
    });
    await store.run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${exprs.join(', ')})`, params);
  }
}

export const insertServices = (store: Store, rows: ServiceRow[]) =>
  insertRows(
    store,
    'services',
    rows as unknown as Record<string, unknown>[],
    ['first_seen_at', 'unlisted_at', 'approved_at', 'monitoring_since', 'created_at', 'updated_at'],
    {
      registry_networks: 'VARCHAR',
      operator_networks: 'VARCHAR',
    },
  );
export const insertOperations = (store: Store, rows: OperationRow[]) =>
  insertRows(store, 'operations', rows as unknown as Record<string, unknown>[], ['monitoring_since'], { expected_statuses: 'INTEGER' });
export const insertChecks = (store: Store, rows: CheckRow[]) =>
  insertRows(store, 'checks', rows as unknown as Record<string, unknown>[], ['slot', 'checked_at']);
export const insertTerms = (store: Store, rows: TermsRow[]) =>
  insertRows(
    store,
    'payment_terms',
    rows.map((r) => ({ ...r, offers: '[]' })) as unknown as Record<string, unknown>[],
    ['slot', 'observed_at'],
    {
      networks: 'VARCHAR',
      schemes: 'VARCHAR',
      assets: 'VARCHAR',
      pay_to_hashes: 'VARCHAR',
      amounts: 'VARCHAR',
      timeouts: 'INTEGER',
    },
  );
export const insertIntervalChanges = (store: Store, rows: IntervalChangeRow[]) =>
  insertRows(store, 'interval_changes', rows as unknown as Record<string, unknown>[], ['changed_at']);

/**
 * Checks every `everyHours` from `from` (inclusive) to `to` (exclusive), generated in SQL. `passed`
 * may be a SQL boolean expression over `t` (the check time), e.g. "hour(t) <> 3".
 */
export async function insertCheckSeries(
  store: Store,
  o: {
    serviceId: string;
    operation?: string;
    from: string;
    to: string;
    everyHours: number;
    passed?: boolean | string;
    rule?: string;
    offsetMinutes?: number;
  },
): Promise<void> {
  const passed = o.passed === undefined ? 'true' : String(o.passed);
  const off = o.offsetMinutes ?? 0;
  await store.run(
    `INSERT INTO checks (service_id, operation, slot, checked_at, status, passed, reason, rule, latency_ms)
     SELECT $1, $2, t, t + INTERVAL ${off} MINUTE, CASE WHEN p THEN 402 ELSE 503 END, p, CASE WHEN p THEN 'ok' ELSE 'not_402' END, $5, 100
     FROM (SELECT t, (${passed}) AS p FROM generate_series($3::TIMESTAMP, $4::TIMESTAMP - INTERVAL 1 SECOND, INTERVAL ${o.everyHours} HOUR) g(t))`,
    [o.serviceId, o.operation ?? 'primary', ts(o.from)!, ts(o.to)!, o.rule ?? 'x402-mainnet/1'],
  );
}

/** A discovered x402 service with its primary operation and its first interval row, in one call. */
export async function addDiscovered(
  store: Store,
  o: Partial<ServiceRow> & { id: string },
  op: Partial<OperationRow> = {},
): Promise<ServiceRow> {
  const s = makeService(o);
  await insertServices(store, [s]);
  const operation = makeOperation({ service_id: s.id, ...(s.protocol === 'mcp' ? { pass_rule: 'mcp-reach/3' } : {}), ...op });
  await insertOperations(store, [operation]);
  await insertIntervalChanges(store, [
    makeIntervalChange({
      service_id: s.id,
      changed_at: s.monitoring_since,
      to_hours: operation.interval_hours,
      reason: 'new_until_third_probe',
    }),
  ]);
  return s;
}

/** A reviewed service with an hourly call and a daily documentation operation. */
export async function addReviewed(
  store: Store,
  o: Partial<ServiceRow> & { id: string },
  opts: { docs?: boolean } = {},
): Promise<ServiceRow> {
  const s = makeService({ tier: 'reviewed', ...o });
  await insertServices(store, [s]);
  const ops = [makeOperation({ service_id: s.id, pass_rule: 'reviewed/1', interval_hours: 1, expected_statuses: [402] })];
  if (opts.docs)
    ops.push(
      makeOperation({
        service_id: s.id,
        id: 'docs',
        kind: 'documentation',
        is_primary: false,
        pass_rule: 'reviewed/1',
        interval_hours: 24,
        expected_statuses: [200],
      }),
    );
  await insertOperations(store, ops);
  await insertIntervalChanges(
    store,
    ops.map((op) =>
      makeIntervalChange({
        service_id: s.id,
        operation: op.id,
        changed_at: s.monitoring_since,
        to_hours: op.interval_hours,
        reason: 'reviewed_fixed',
      }),
    ),
  );
  return s;
}

/** One operation of a listing file (the fields a listing declares; url and statuses are filled in). */
export interface ListingOp {
  id: string;
  kind: 'call' | 'documentation';
  primary?: boolean;
  interval: 'hourly' | 'daily';
}

/**
 * Writes `<slug>.json`, a valid reviewed listing (a task marketplace: no payment claims needed) with
 * the given operations, into `dir`, for tests that go through `atlas ingest listings`.
 */
export function writeListingFile(dir: string, o: { slug: string; approvedAt: string; operations: ListingOp[]; active?: boolean }): void {
  const listing = {
    id: `svc_${o.slug}`,
    name: `Listing ${o.slug}`,
    type: 'task_marketplace',
    operator: 'Example Operator',
    category: 'tasks',
    operations: o.operations.map((op) => ({
      id: op.id,
      kind: op.kind,
      primary: op.primary ?? false,
      url: `https://${o.slug}.example/${op.id}`,
      method: 'GET',
      expected_statuses: [200],
      interval: op.interval,
    })),
    approved_at: o.approvedAt,
    ...(o.active === false ? { active: false } : {}),
    sources: Object.fromEntries(
      ['operator', 'endpoint', 'documentation'].map((k) => [
        k,
        { source_url: `https://${o.slug}.example/about`, checked_at: o.approvedAt.slice(0, 10) },
      ]),
    ),
  };
  writeFileSync(join(dir, `${o.slug}.json`), JSON.stringify(listing, null, 2));
}
