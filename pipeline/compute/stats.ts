import { z } from 'zod';
import type { Store } from '../store/store.ts';
import { timeParam } from './clock.ts';

const count = z.number().int().nonnegative();

export const StatsSchema = z.object({
  generated_at: z.string(),
  totals: z.object({
    services: count,
    in_directory: count,
    by_tier: z.object({ reviewed: count, discovered: count }),
    by_type: z.object({ api_endpoint: count, mcp_server: count, task_marketplace: count }),
  }),
  /** checks that ran in (now - 24h, now]; checks that did not run are not counted */
  checks_24h: count,
  passed_24h: count,
  /** by pass rule (macro atlas_check_kind, pipeline/store/rules.sql): reviewed/1 → reviewed, x402-mainnet/1 → x402, mcp-reach/3 → mcp */
  checks_24h_by_kind: z.object({ reviewed: count, x402: count, mcp: count }),
  passed_24h_by_kind: z.object({ reviewed: count, x402: count, mcp: count }),
  windows: z.object({ checks: z.literal('24h') }),
});
export type Stats = z.infer<typeof StatsSchema>;

export async function computeStats(store: Store, now: Date): Promise<Stats> {
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
  return StatsSchema.parse({
    generated_at: now.toISOString(),
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
