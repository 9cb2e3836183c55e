import { z } from 'zod';
import { ApiStatus, DateTime } from './common.ts';

const count = z.number().int().nonnegative();

/** Counts of checks by kind (each kind has its own pass rule: reviewed/1, x402-mainnet/1, mcp-reach/3). */
export const KindCounts = z.strictObject({ reviewed: count, x402: count, mcp: count });

/**
 * GET /api/v1/stats (spec 2.5): totals, and checks in the last 24 hours overall and by kind.
 * Checks that did not run are not counted. Mirrors `computeStats` (pipeline/compute/stats.ts) plus
 * `api_status`; publish validates the combination.
 */
export const Stats = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  totals: z.strictObject({
    services: count,
    in_directory: count,
    by_tier: z.strictObject({ reviewed: count, discovered: count }),
    by_type: z.strictObject({ api_endpoint: count, mcp_server: count, task_marketplace: count }),
  }),
  checks_24h: count,
  passed_24h: count,
  checks_24h_by_kind: KindCounts,
  passed_24h_by_kind: KindCounts,
  windows: z.strictObject({ checks: z.literal('24h') }),
});
export type Stats = z.infer<typeof Stats>;
