import { API_STATUS } from '../../site/contract/common.ts';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { runWindows } from '../../site/contract/run-windows.ts';
import type { AppDeps } from '../deps.ts';
import { rowFreshness } from '../search/present.ts';
import type { SiteResources, SiteState } from '../site/state.ts';

/**
 * Published resources served as they are (roadmap, fields; stats with `data_as_of`): computed by
 * the pipeline at publish, so their windows end at their own `generated_at`. A generation without
 * the file answers 404 (an older or partial publish), never 500.
 */
export function publishedResource(deps: AppDeps, name: keyof SiteResources, label: string): Record<string, unknown> {
  const body = deps.site.current().resources[name];
  if (!body) throw new AtlasError('not_found', `${label} is not published in this generation`);
  return { ...body, api_status: API_STATUS };
}

/**
 * GET /api/v1/stats: the published figures (their 24-hour window ends at their `generated_at`, the
 * publish instant) with `data_as_of`, the last compute before that publish.
 */
export async function getStats(deps: AppDeps): Promise<Record<string, unknown>> {
  const body = publishedResource(deps, 'stats', 'stats');
  return { ...body, data_as_of: body.data_as_of ?? deps.site.current().dataAsOf };
}

/** Tracked services (index scope) by freshness against `now`: the rule of site/contract/freshness.ts. */
export function freshnessCounts(site: SiteState, now: Date): { fresh: number; stale: number; no_data: number; total: number } {
  const out = { fresh: 0, stale: 0, no_data: 0, total: site.rows.length };
  for (const row of site.rows) out[rowFreshness(row, now)] += 1;
  return out;
}

/**
 * GET /api/v1/status, live: the run windows (site/contract/run-windows.ts) and evidence freshness
 * are recomputed against the server's clock at answer time, over the published run log and the
 * loaded index, so a pipeline that stopped shows its missed slots and stale evidence; the slots expected
 * are those of the cycle cadence published with the run log. `generated_at`
 * is the answer's instant, the end of every window. A generation published without a run log keeps
 * its published run windows (frozen at its own `generated_at`); freshness is recomputed either way.
 */
export async function getStatus(deps: AppDeps): Promise<Record<string, unknown>> {
  const body = publishedResource(deps, 'status', 'status');
  const site = deps.site.current();
  const now = deps.clock();
  const evidence_freshness = freshnessCounts(site, now);
  if (!site.runLog) return { ...body, data_as_of: body.data_as_of ?? site.dataAsOf, evidence_freshness };
  return {
    ...body,
    generated_at: now.toISOString(),
    data_as_of: site.runLog.data_as_of,
    ...runWindows(
      { operatingSince: site.runLog.operating_since, runs: site.runLog.runs, cycleEveryMinutes: site.runLog.cycle_every_minutes },
      now,
    ),
    evidence_freshness,
  };
}

export async function getRoadmap(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'roadmap', 'the roadmap');
}

export async function getFields(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'fields', 'the field dictionary');
}
