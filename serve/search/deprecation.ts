import { withScheduleTier as withTierAt } from '../../site/contract/answer-time.ts';
import { SCHEDULE_TIER_SUNSET_AT, scheduleTierServed } from '../../site/contract/common.ts';

/**
 * `evidence.schedule_tier` is the old name of `evidence.check_interval`, served until the contract's
 * SCHEDULE_TIER_SUNSET day and then dropped. Responses that carry it send `Deprecation` (RFC 9745, structured
 * date of when the name was deprecated) and `Sunset` (RFC 8594, HTTP-date). Both read the injected
 * clock: at or after the sunset instant the field disappears and so do the headers.
 */
export const SCHEDULE_TIER_SUNSET = SCHEDULE_TIER_SUNSET_AT;
/** Our published choice: the name counts as deprecated since the preview's first contract (0.1.0-preview). */
export const SCHEDULE_TIER_DEPRECATED = new Date('2026-11-01T00:00:00Z');

/** The contract's comparison (site/contract/common.ts), re-exported for the routes. */
export { scheduleTierServed };

export function deprecationHeaders(): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(SCHEDULE_TIER_DEPRECATED.getTime() / 1000)}`,
    Sunset: SCHEDULE_TIER_SUNSET.toUTCString(),
  };
}

/**
 * Set or drop `schedule_tier` on an evidence object (a copy; published objects are shared): serve's
 * name for the rule, which lives with the rest of answer-time completion (site/contract/answer-time.ts).
 * @public
 */
export function withScheduleTier(evidence: Record<string, unknown>, now: Date): Record<string, unknown> {
  return withTierAt(evidence, now);
}
