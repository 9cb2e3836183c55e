import { z } from 'zod';
import { ApiStatus, CHECK_KINDS, Count as count, countsBy, DateTime, SERVICE_TIERS, SERVICE_TYPES } from './common.ts';

/** Counts of checks by kind (each kind has its own pass rule: reviewed/1, x402-mainnet/N, mcp-reach/3). */
export const KindCounts = countsBy(CHECK_KINDS);

/**
 * GET /api/v1/stats: totals, and checks in the last 24 hours overall and by kind.
 * Checks that did not run are not counted. `computeStats` (pipeline/compute/stats.ts) returns
 * `StatsFigures` (everything but `api_status`); publish adds `api_status` and validates the whole.
 */
export const Stats = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  data_as_of: DateTime.nullable(),
  totals: z.strictObject({
    services: count,
    in_directory: count,
    by_tier: countsBy(SERVICE_TIERS),
    by_type: countsBy(SERVICE_TYPES),
  }),
  checks_24h: count,
  passed_24h: count,
  checks_24h_by_kind: KindCounts,
  passed_24h_by_kind: KindCounts,
  windows: z.strictObject({ checks: z.literal('24h') }),
});
export type Stats = z.infer<typeof Stats>;

/** Stats without `api_status`: what compute returns and publish wraps. */
export const StatsFigures = Stats.omit({ api_status: true });
export type StatsFigures = z.infer<typeof StatsFigures>;
