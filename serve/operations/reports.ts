import { AtlasError } from '../../pipeline/core/errors.ts';
import { ReportIdSchema } from '../../site/contract/requests.ts';
import type { AppDeps } from '../deps.ts';
import { publishedResource } from './resources.ts';

/** GET /api/v1/reports: published weekly reports, newest first (as publish wrote them). */
export async function listReports(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'reportsIndex', 'the report list');
}

/** GET /api/v1/reports/{id}: `YYYY-MM-DD` (the Monday starting the week) or `current`; else 404. */
export async function getReport(deps: AppDeps, id: string): Promise<Record<string, unknown>> {
  if (!ReportIdSchema.safeParse(id).success)
    throw new AtlasError('not_found', `no report ${JSON.stringify(id.slice(0, 40))}: ids are YYYY-MM-DD (a Monday) or current`);
  const body = deps.site.current().reports.get(id);
  if (!body) throw new AtlasError('not_found', `no report ${id}`);
  return { ...body, api_status: 'preview' };
}
