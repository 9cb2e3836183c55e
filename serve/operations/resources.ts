import { AtlasError } from '../../pipeline/core/errors.ts';
import type { AppDeps } from '../deps.ts';
import type { SiteResources } from '../site/state.ts';

/**
 * Published resources served as they are (stats, status, roadmap, fields): computed by the
 * pipeline at publish, so their windows end at their own `generated_at`. A generation without
 * the file answers 404 (an older or partial publish), never 500.
 */
export function publishedResource(deps: AppDeps, name: keyof SiteResources, label: string): Record<string, unknown> {
  const body = deps.site.current().resources[name];
  if (!body) throw new AtlasError('not_found', `${label} is not published in this generation`);
  return { ...body, api_status: 'preview' };
}

export async function getStats(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'stats', 'stats');
}

export async function getStatus(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'status', 'status');
}

export async function getRoadmap(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'roadmap', 'the roadmap');
}

export async function getFields(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'fields', 'the field dictionary');
}
