import { AtlasError } from '../../pipeline/core/errors.ts';
import { statsAtGeneration, statusAtAnswer } from '../../site/contract/answer-time.ts';
import { API_STATUS } from '../../site/contract/common.ts';
import type { AppDeps } from '../deps.ts';
import type { SiteResources } from '../site/state.ts';

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
 * publish instant) with `data_as_of`, the last compute before that publish
 * (site/contract/answer-time.ts statsAtGeneration).
 */
export async function getStats(deps: AppDeps): Promise<Record<string, unknown>> {
  return statsAtGeneration(publishedResource(deps, 'stats', 'stats'), deps.site.current());
}

/**
 * GET /api/v1/status, live: the run windows and evidence freshness recomputed against the server's
 * clock at answer time over the published run log and the loaded index (site/contract/answer-time.ts
 * statusAtAnswer), so a pipeline that stopped shows its missed slots and stale evidence; the slots
 * expected are those of the cycle cadence published with the run log.
 */
export async function getStatus(deps: AppDeps): Promise<Record<string, unknown>> {
  const body = publishedResource(deps, 'status', 'status');
  const site = deps.site.current();
  return statusAtAnswer(body, site, site.rows, deps.clock());
}

export async function getRoadmap(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'roadmap', 'the roadmap');
}

export async function getFields(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'fields', 'the field dictionary');
}
