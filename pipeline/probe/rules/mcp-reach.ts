import { PASS_RULE_OF_KIND } from '../../../site/contract/common.ts';
import type { EdgeResult } from '../safe-fetch.ts';
import { commonVerdict, type Verdict } from '../verdict.ts';

/**
 * mcp-reach/3 (docs/design.md, pass rules): a plain GET passes when answered with 200, 400, 401, 403, 405 or 406.
 * Reachability only. The body is never read (a legacy SSE stream never ends), so no size failure.
 */
export const MCP_REACH_STATUSES: readonly number[] = [200, 400, 401, 403, 405, 406];

const RULE = PASS_RULE_OF_KIND.mcp;

export function mcpReachRule(res: EdgeResult): Verdict {
  const common = commonVerdict(RULE, res);
  if (common) return common;
  if (!res.ok) throw new Error('unreachable');
  return MCP_REACH_STATUSES.includes(res.status)
    ? { passed: true, reason: 'ok', rule: RULE, detail: null }
    : { passed: false, reason: 'status_not_allowed', rule: RULE, detail: `HTTP ${res.status}` };
}
