import { PASS_RULE_OF_KIND } from '../../../site/contract/common.ts';
import type { EdgeResult } from '../safe-fetch.ts';
import { commonVerdict, type Verdict } from '../verdict.ts';

/**
 * reviewed/1 (docs/design.md, pass rules): passes when the HTTP status is one the listing expects. The status
 * decides alone, so a body cut at the cap is not a failure; the detail says so (a documentation page
 * cut there is not recorded as a snapshot, and this is where the reason shows).
 */
const RULE = PASS_RULE_OF_KIND.reviewed;

export function reviewedRule(res: EdgeResult, expected: readonly number[]): Verdict {
  const common = commonVerdict(RULE, res);
  if (common) return common;
  if (!res.ok) throw new Error('unreachable');
  return expected.includes(res.status)
    ? { passed: true, reason: 'ok', rule: RULE, detail: res.truncated ? `too_large: body cut at the ${res.bytes}-byte cap` : null }
    : {
        passed: false,
        reason: 'status_not_expected',
        rule: RULE,
        detail: `HTTP ${res.status}, expected ${expected.join('/') || '(none)'}`,
      };
}
