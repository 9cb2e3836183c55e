import { API_STATUS } from '../../site/contract/common.ts';
import { DAY_MS } from '../../pipeline/core/clock.ts';
import type { DeclaredDifferenceChange } from '../../site/contract/declared-terms.ts';
import type { ChangeEvent, ChangeList, ChangeRecord } from '../../site/contract/changes.ts';
import type { AppDeps } from '../deps.ts';
import { parseChangesQuery } from '../search/query.ts';

/**
 * GET /api/v1/changes (docs/api.md): the published 90-day feed filtered by look-back days (against the
 * server's clock), service id and needs_review; newest first. A generation without a feed answers
 * an empty list.
 */
export async function listChanges(deps: AppDeps, rawQuery: Record<string, unknown>): Promise<ChangeList> {
  const q = parseChangesQuery(rawQuery);
  const site = deps.site.current();
  const now = deps.clock();
  const windowStart = new Date(now.getTime() - q.days * DAY_MS);
  const all = (site.resources.changes?.items as ChangeRecord[] | undefined) ?? [];
  const items = all
    .filter((c) => Date.parse(c.detected_at) >= windowStart.getTime())
    .filter((c) => q.service_id === undefined || c.service_id === q.service_id)
    .filter((c) => q.needs_review === undefined || c.needs_review === q.needs_review)
    .sort((a, b) => (a.detected_at < b.detected_at ? 1 : a.detected_at > b.detected_at ? -1 : a.id < b.id ? -1 : 1));
  // Difference events (rule declared-terms/1): in the window when they began or ended in it; not
  // documentation changes, so a needs_review filter leaves them out.
  const inWindow = (t: string | null) => t !== null && Date.parse(t) >= windowStart.getTime() && Date.parse(t) <= now.getTime();
  const declared = ((site.resources.changes?.declared_differences as DeclaredDifferenceChange[] | undefined) ?? [])
    .filter((c) => inWindow(c.began_at) || inWindow(c.ended_at))
    .filter((c) => q.service_id === undefined || c.service_id === q.service_id)
    .filter(() => q.needs_review === undefined);
  // Dated payment-term events: the same days and service filters; needs_review does not apply to them.
  const events = ((site.resources.changes?.events as ChangeEvent[] | undefined) ?? [])
    .filter((e) => Date.parse(e.detected_at) >= windowStart.getTime())
    .filter((e) => q.service_id === undefined || e.service_id === q.service_id);
  const query: ChangeList['query'] = { days: q.days };
  if (q.service_id !== undefined) query.service_id = q.service_id;
  if (q.needs_review !== undefined) query.needs_review = q.needs_review;
  return {
    api_status: API_STATUS,
    generated_at: now.toISOString(),
    query,
    window_start: windowStart.toISOString(),
    total: items.length,
    items,
    declared_differences: declared,
    events,
  };
}
