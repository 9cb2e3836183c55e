import type { EdgeResult } from '../safe-fetch.ts';
import { commonVerdict, type Verdict } from '../verdict.ts';

/**
 * reviewed/1 (docs/design.md, pass rules): passes when the HTTP status is one the listing expects. The status
 * decides alone, so a body cut at the cap is not a failure.
 */
export function reviewedRule(res: EdgeResult, expected: readonly number[]): Verdict {
  const common = commonVerdict('reviewed/1', res);
  if (common) return common;
  if (!res.ok) throw new Error('unreachable');
  return expected.includes(res.status)
    ? { passed: true, reason: 'ok', rule: 'reviewed/1', detail: null }
    : {
        passed: false,
        reason: 'status_not_expected',
        rule: 'reviewed/1',
        detail: `HTTP ${res.status}, expected ${expected.join('/') || '(none)'}`,
      };
}
