import { HOUR_MS } from '../../pipeline/core/clock.ts';
import type { Freshness } from '../../site/contract/common.ts';

export type { Freshness };

/**
 * Spec 2.3 rule 5, recomputed against the server's clock (DESIGN.md: a stalled pipeline shows as
 * `stale` instead of frozen `fresh`): `fresh` when the latest check is no older than two scheduled
 * intervals, `stale` when older, `no_data` when never checked. A check "in the future" of the
 * server's clock (clock skew) counts as fresh.
 */
export function freshnessAt(lastCheckMs: number | null, intervalHours: number, nowMs: number): Freshness {
  if (lastCheckMs === null) return 'no_data';
  return nowMs - lastCheckMs <= 2 * intervalHours * HOUR_MS ? 'fresh' : 'stale';
}
