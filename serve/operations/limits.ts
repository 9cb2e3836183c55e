import { AtlasError } from '../../pipeline/core/errors.ts';
import type { KeyLimits } from '../../site/contract/writes.ts';
import { REFERRAL_VALID_DAYS } from '../auth/referral.ts';
import type { AppDeps } from '../deps.ts';
import { secondsToNextUtcDay } from '../inbox/daily-counter.ts';

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
 * The per-address daily limit of new keys or feedback messages (UTC calendar day), or undefined
 * when `serve.rateLimits.enabled` is false (load tests). The write store takes it in the write
 * itself (serve/inbox/writes.ts), so a failed write never consumes it.
 */
export function dailyLimit(deps: AppDeps, what: 'keys' | 'feedback'): number | undefined {
  const r = deps.config.serve.rateLimits;
  if (!r.enabled) return undefined;
  return what === 'keys' ? r.keysPerAddressPerDay : r.feedbackPerAddressPerDay;
}

/** The 429 of a reached daily limit, with Retry-After = seconds to the next UTC midnight. */
export function dailyLimitReached(deps: AppDeps, limit: number, what: string): AtlasError {
  const retryAfter = secondsToNextUtcDay(deps.clock());
  return new AtlasError(
    'rate_limited',
    `daily limit reached: at most ${limit} ${what} per address per day (UTC); try again in ${retryAfter} s`,
    { retryAfter, limit, remaining: 0, reset: retryAfter },
  );
}
