import { describe, expect, it } from 'vitest';
import { addDiscovered, at, insertCheckSeries, insertTerms, makeTerms, T0 } from './fixtures.ts';
import { computeAt, withDb } from './helpers.ts';

/** The output tables publish reads (docs/CONTRACTS.md "Compute outputs"): names and types. */
const EXPECTED: Record<string, Record<string, string>> = {
  evidence: {
    service_id: 'VARCHAR',
    operations: 'INTEGER',
    check_interval_hours: 'INTEGER',
    check_interval: 'VARCHAR',
    check_interval_rule: 'VARCHAR',
    monitoring_since: 'TIMESTAMP',
    monitoring_days: 'DOUBLE',
    limited_evidence: 'BOOLEAN',
    checks_30d: 'INTEGER',
    passed_30d: 'INTEGER',
    missed_30d: 'INTEGER',
    pass_rate: 'DOUBLE',
    freshness: 'VARCHAR',
    last_check_at: 'TIMESTAMP',
    last_check: 'JSON',
    latest_passed: 'BOOLEAN',
    computed_at: 'TIMESTAMP',
  },
  terms_summary: {
    service_id: 'VARCHAR',
    current_since: 'TIMESTAMP',
    changes_30d: 'INTEGER',
    changes_90d: 'INTEGER',
    pay_to_changes_90d: 'INTEGER',
    last_change_at: 'TIMESTAMP',
    last_change_kinds: 'VARCHAR[]',
    window_start: 'TIMESTAMP',
    limited: 'BOOLEAN',
    latest_networks: 'VARCHAR[]',
    latest_mainnet: 'BOOLEAN',
    latest_observed_at: 'TIMESTAMP',
    computed_at: 'TIMESTAMP',
  },
  terms_changes: { service_id: 'VARCHAR', changed_at: 'TIMESTAMP', kinds: 'VARCHAR[]' },
  service_derived: {
    service_id: 'VARCHAR',
    price_usd: 'DOUBLE',
    max_price_usd: 'DOUBLE',
    price_source: 'VARCHAR',
    networks: 'VARCHAR[]',
    networks_source: 'VARCHAR',
    mainnet: 'BOOLEAN',
    provider_endpoints: 'INTEGER',
    templated_url: 'BOOLEAN',
    computed_at: 'TIMESTAMP',
  },
  directory_current: {
    service_id: 'VARCHAR',
    evaluated_at: 'TIMESTAMP',
    in_directory: 'BOOLEAN',
    rule: 'VARCHAR',
    scope: 'VARCHAR',
    criteria: 'JSON',
    since: 'TIMESTAMP',
  },
};

describe('compute output contract', () => {
  it('the tables exist with the contract columns and types, before and after a run', async () => {
    await withDb(async (store, dir) => {
      const types = async (table: string) =>
        Object.fromEntries(
          (
            await store.all<{ column_name: string; data_type: string }>(
              `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`,
            )
          ).map((r) => [r.column_name, r.data_type]),
        );
      for (const [table, cols] of Object.entries(EXPECTED)) expect(await types(table), `${table} after migrate`).toEqual(cols);
      await addDiscovered(store, { id: 'cand_c' });
      await insertCheckSeries(store, { serviceId: 'cand_c', from: T0, to: at(T0, 4), everyHours: 24 });
      await insertTerms(store, [
        makeTerms({ service_id: 'cand_c', observed_at: T0 }),
        makeTerms({ service_id: 'cand_c', observed_at: at(T0, 1), pay_to_hashes: ['b'] }),
      ]);
      await computeAt(store, dir, at(T0, 4));
      for (const [table, cols] of Object.entries(EXPECTED)) expect(await types(table), `${table} after compute`).toEqual(cols);
      for (const table of Object.keys(EXPECTED)) {
        const [r] = await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
        expect(Number(r!.n), table).toBe(1);
      }
    });
  }, 60_000);

  it('leaves no temporary tables behind: the views read live data after a run', async () => {
    await withDb(async (store, dir) => {
      await addDiscovered(store, { id: 'cand_v' });
      await insertCheckSeries(store, { serviceId: 'cand_v', from: T0, to: at(T0, 4), everyHours: 24 });
      await insertTerms(store, [makeTerms({ service_id: 'cand_v', observed_at: T0 })]);
      await computeAt(store, dir, at(T0, 4));
      const temps = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE temporary');
      expect(Number(temps[0]!.n)).toBe(0);
      await insertCheckSeries(store, { serviceId: 'cand_v', from: at(T0, 4), to: at(T0, 6), everyHours: 24 });
      await insertTerms(store, [makeTerms({ service_id: 'cand_v', observed_at: at(T0, 5), pay_to_hashes: ['z'] })]);
      const [a] = await store.all<{ probes: string }>("SELECT probes FROM check_aggregates WHERE service_id = 'cand_v'");
      expect(Number(a!.probes)).toBe(5); // atlas_now is still the last compute instant (day 4): day 5 is not yet counted
      await store.run("SET VARIABLE atlas_now = TIMESTAMP '2026-07-07 00:00:00'");
      const [b] = await store.all<{ probes: string }>("SELECT probes FROM check_aggregates WHERE service_id = 'cand_v'");
      expect(Number(b!.probes)).toBe(6);
      const [t] = await store.all<{ changes_30d: number }>("SELECT changes_30d FROM terms_90d WHERE service_id = 'cand_v'");
      expect(Number(t!.changes_30d)).toBe(1);
    });
  }, 60_000);
});
