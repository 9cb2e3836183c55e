import { AtlasError } from '../../pipeline/core/errors.ts';
import type { KeyLimits } from '../../site/contract/writes.ts';
import { REFERRAL_VALID_DAYS } from '../auth/referral.ts';
import type { AppDeps } from '../deps.ts';
import { secondsToNextUtcDay, utcDay, type DailyCounter } from '../inbox/daily-counter.ts';

/** The numbers stated with a new key (config `serve.rateLimits`, defaults in docs/design.md). */
export function keyLimits(deps: AppDeps): KeyLimits {
  const r = deps.config.serve.rateLimits;
  return {
    anonymous_requests_per_minute: r.anonymousPerMinute,
    keyed_requests_per_minute: r.keyedPerMinute,
    keys_per_address_per_day: r.keysPerAddressPerDay,
    feedback_per_address_per_day: r.feedbackPerAddressPerDay,
    referral_valid_days: REFERRAL_VALID_DAYS,
  };
}

/**
 * Take one unit of a per-address daily limit (UTC calendar day) or throw 429 with Retry-After =
 * seconds to the next UTC midnight. Returns the release function for a write that then fails.
 * `serve.rateLimits.enabled = false` switches these off too (load tests).
 */
export function takeDaily(deps: AppDeps, counter: DailyCounter, who: string, limit: number, what: string): () => void {
  if (!deps.config.serve.rateLimits.enabled) return () => undefined;
  const now = deps.clock();
  const day = utcDay(now);
  if (!counter.tryTake(day, who, limit)) {
    const retryAfter = secondsToNextUtcDay(now);
    throw new AtlasError(
      'rate_limited',
      `daily limit reached: at most ${limit} ${what} per address per day (UTC); try again in ${retryAfter} s`,
      {
        retryAfter,
        limit,
        remaining: 0,
        reset: retryAfter,
      },
    );
  }
  return () => counter.give(day, who);
}
