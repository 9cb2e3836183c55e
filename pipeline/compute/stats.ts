import {
  CHECK_KINDS,
  type CheckKind,
  SERVICE_TIERS,
  SERVICE_TYPES,
  type ServiceTier,
  type ServiceType,
} from '../../site/contract/common.ts';
import { StatsFigures } from '../../site/contract/stats.ts';
import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';
import { dataAsOf } from './status.ts';

/** One count per key of `keys`, from rows keyed by `key` (a key absent from the rows counts 0; a row whose key is not in `keys` is ignored). */
function tally<K extends string>(keys: readonly K[], rows: Record<string, unknown>[], key: string, value: string): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const r of rows) {
    const k = String(r[key]);
    if ((keys as readonly string[]).includes(k)) out[k as K] = Number(r[value] ?? 0);
  }
  return out;
}

/**
 * The figures of GET /api/v1/stats at `now` (the contract's StatsFigures: Stats without api_status):
 * checks that ran in (now - 24h, now], overall and by kind of pass rule (macro atlas_check_kind,
 * pipeline/store/rules.sql); checks that did not run are not counted. Tiers, types and kinds are grouped in
 * SQL and tallied over the contract's SERVICE_TIERS, SERVICE_TYPES and CHECK_KINDS, so a value added there is counted
 * without a change here.
 */
export async function computeStats(store: Store, now: Date): Promise<StatsFigures> {
  const [s] = await store.all<Record<string, number | string>>(`
    SELECT count(*) AS services,
      (SELECT count(*) FROM directory_current d JOIN services x ON x.id = d.service_id WHERE d.in_directory) AS in_directory
    FROM services`);
  const byTier = await store.all<Record<string, unknown>>('SELECT tier, count(*) AS n FROM services GROUP BY tier');
  const byType = await store.all<Record<string, unknown>>('SELECT type, count(*) AS n FROM services GROUP BY type');
  const byKind = await store.all<Record<string, unknown>>(
    `
    SELECT atlas_check_kind(rule) AS kind, count(*) AS checks, count(*) FILTER (WHERE passed) AS passed
    FROM checks
    WHERE checked_at > $1::TIMESTAMP - INTERVAL 24 HOUR AND checked_at <= $1::TIMESTAMP
    GROUP BY 1`,
    [timeParam(now)],
  );
  const n = (r: Record<string, number | string> | undefined, k: string) => Number(r?.[k] ?? 0);
  const sum = (k: string) => byKind.reduce((a, r) => a + Number(r[k] ?? 0), 0);
  return StatsFigures.parse({
    generated_at: now.toISOString(),
    data_as_of: await dataAsOf(store, now),
    totals: {
      services: n(s, 'services'),
      in_directory: n(s, 'in_directory'),
      by_tier: tally<ServiceTier>(SERVICE_TIERS, byTier, 'tier', 'n'),
      by_type: tally<ServiceType>(SERVICE_TYPES, byType, 'type', 'n'),
    },
    checks_24h: sum('checks'),
    passed_24h: sum('passed'),
    checks_24h_by_kind: tally<CheckKind>(CHECK_KINDS, byKind, 'kind', 'checks'),
    passed_24h_by_kind: tally<CheckKind>(CHECK_KINDS, byKind, 'kind', 'passed'),
    windows: { checks: '24h' },
  });
}
