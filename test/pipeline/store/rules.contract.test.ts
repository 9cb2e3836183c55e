import { describe, expect, it } from 'vitest';
import {
  CHECK_INTERVAL_HOURS,
  CHECK_INTERVAL_NAMES,
  CHECK_KINDS,
  NETWORKS_SOURCES,
  PASS_RULE_OF_KIND,
  PASS_RULES,
  SERVICE_TIERS,
} from '../../../site/contract/common.ts';
import { intervalLabel } from '../../../site/pages/format.ts';
import { withDb } from '../compute/helpers.ts';

/**
 * Values that the rules file (pipeline/store/rules.sql) writes in SQL and the contract
 * (site/contract/common.ts) publishes must be the same set: a name or source changed on one side
 * only would publish a value the contract rejects, or count it as "other" in a report.
 */
describe('rules file and contract agree', () => {
  it('atlas_interval_name names every interval of CHECK_INTERVAL_HOURS, and nothing else', async () => {
    await withDb(async (store) => {
      for (const name of CHECK_INTERVAL_NAMES) {
        const [row] = await store.all<{ n: string | null }>('SELECT atlas_interval_name($1::INTEGER) AS n', [CHECK_INTERVAL_HOURS[name]]);
        expect(row?.n).toBe(name);
        expect(intervalLabel(CHECK_INTERVAL_HOURS[name])).toBe(name);
      }
      const [other] = await store.all<{ n: string | null }>('SELECT atlas_interval_name(5) AS n');
      expect(other?.n).toBeNull();
    });
  });

  it('atlas_unknown_networks_source gives a contract networks source for every tier', async () => {
    await withDb(async (store) => {
      for (const tier of SERVICE_TIERS) {
        const [row] = await store.all<{ s: string }>('SELECT atlas_unknown_networks_source($1) AS s', [tier]);
        expect(NETWORKS_SOURCES as readonly string[]).toContain(row?.s);
      }
    });
  });

  it('atlas_check_kind reads each kind back from its pass rule (PASS_RULE_OF_KIND), every rule of PASS_RULES', async () => {
    await withDb(async (store) => {
      for (const kind of CHECK_KINDS) {
        const rule = PASS_RULE_OF_KIND[kind];
        expect(PASS_RULES as readonly string[]).toContain(rule);
        const [row] = await store.all<{ k: string }>('SELECT atlas_check_kind($1) AS k', [rule]);
        expect(row?.k).toBe(kind);
      }
    });
  });
});
