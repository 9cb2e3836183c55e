import { StatsFigures } from '../../site/contract/stats.ts';
import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';
import { dataAsOf } from './status.ts';

/**
 * The figures of GET /api/v1/stats at `now` (the contract's StatsFigures: Stats without api_status):
 * checks that ran in (now - 24h, now], overall and by kind of pass rule (macro atlas_check_kind,
 * pipeline/store/rules.sql); checks that did not run are not counted.
 */
export async function computeStats(store: Store, now: Date): Promise<StatsFigures> {
  const [s] = await store.all<Record<string, number | string>>(`
    SELECT count(*) AS services,
      count(*) FILTER (WHERE tier = 'reviewed') AS reviewed,
      count(*) FILTER (WHERE tier = 'discovered') AS discovered,
      count(*) FILTER (WHERE type = 'api_endpoint') AS api_endpoint,
      count(*) FILTER (WHERE type = 'mcp_server') AS mcp_server,
      count(*) FILTER (WHERE type = 'task_marketplace') AS task_marketplace,
      (SELECT count(*) FROM directory_current d JOIN services x ON x.id = d.service_id WHERE d.in_directory) AS in_directory
    FROM services`);
  const [c] = await store.all<Record<string, number | string>>(
    `
    WITH k AS (SELECT atlas_check_kind(rule) AS kind, passed FROM checks
      WHERE checked_at > $1::TIMESTAMP - INTERVAL 24 HOUR AND checked_at <= $1::TIMESTAMP)
    SELECT count(*) AS checks, count(*) FILTER (WHERE passed) AS passed,
      count(*) FILTER (WHERE kind = 'reviewed') AS reviewed, count(*) FILTER (WHERE kind = 'reviewed' AND passed) AS reviewed_passed,
      count(*) FILTER (WHERE kind = 'x402') AS x402, count(*) FILTER (WHERE kind = 'x402' AND passed) AS x402_passed,
      count(*) FILTER (WHERE kind = 'mcp') AS mcp, count(*) FILTER (WHERE kind = 'mcp' AND passed) AS mcp_passed
    FROM k`,
    [timeParam(now)],
  );
  const n = (r: Record<string, number | string> | undefined, k: string) => Number(r?.[k] ?? 0);
  return StatsFigures.parse({
    generated_at: now.toISOString(),
    data_as_of: await dataAsOf(store, now),
    totals: {
      services: n(s, 'services'),
      in_directory: n(s, 'in_directory'),
      by_tier: { reviewed: n(s, 'reviewed'), discovered: n(s, 'discovered') },
      by_type: { api_endpoint: n(s, 'api_endpoint'), mcp_server: n(s, 'mcp_server'), task_marketplace: n(s, 'task_marketplace') },
    },
    checks_24h: n(c, 'checks'),
    passed_24h: n(c, 'passed'),
    checks_24h_by_kind: { reviewed: n(c, 'reviewed'), x402: n(c, 'x402'), mcp: n(c, 'mcp') },
    passed_24h_by_kind: { reviewed: n(c, 'reviewed_passed'), x402: n(c, 'x402_passed'), mcp: n(c, 'mcp_passed') },
    windows: { checks: '24h' },
  });
}
