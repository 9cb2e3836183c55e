import type { EdgeResult } from './safe-fetch.ts';
import type { PassRule, Reason } from './reasons.ts';

/** The outcome of a pass rule: pure data, stored as checks.passed / reason / rule / detail. */
export interface Verdict {
  passed: boolean;
  reason: Reason;
  rule: PassRule;
  detail: string | null;
}

/**
 * Outcomes every rule shares (CONTRACTS.md): no response → the edge's reason; a 3xx → `redirect`
 * (never followed); a 429 → `rate_limited`. Returns null when the rule itself must decide.
 */
export function commonVerdict(rule: PassRule, res: EdgeResult): Verdict | null {
  if (!res.ok) return { passed: false, reason: res.reason, rule, detail: res.detail };
  if (res.status >= 300 && res.status < 400) {
    const loc = res.headers.location;
    return { passed: false, reason: 'redirect', rule, detail: `HTTP ${res.status}${loc ? ` to ${loc.slice(0, 200)}` : ''} (not followed)` };
  }
  if (res.status === 429) return { passed: false, reason: 'rate_limited', rule, detail: 'HTTP 429' };
  return null;
}
