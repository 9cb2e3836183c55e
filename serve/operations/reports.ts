import { API_STATUS } from '../../site/contract/common.ts';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { mondayOf, weekId } from '../../pipeline/core/week.ts';
import { ReportIdSchema } from '../../site/contract/requests.ts';
import type { AppDeps } from '../deps.ts';
import { publishedResource } from './resources.ts';

/** GET /api/v1/reports: published weekly reports, newest first (as publish wrote them). */
export async function listReports(deps: AppDeps): Promise<Record<string, unknown>> {
  return publishedResource(deps, 'reportsIndex', 'the report list');
}

/**
 * GET /api/v1/reports/{id}: `YYYY-MM-DD` (the Monday starting the week) or `current`; else 404.
 * A frozen week answers with its published file. The Monday of the week running by the server's
 * clock answers like `current` (the provisional week-to-date figures, under the id asked for), as
 * the pipeline's own reader does (docs/notes/reports-docs-mcp.md, "Ids"); when the published
 * `current` belongs to another week (the pipeline has not published since the week turned), there
 * are no figures for the running week yet and the answer is 404.
 */
export async function getReport(deps: AppDeps, id: string): Promise<Record<string, unknown>> {
  if (!ReportIdSchema.safeParse(id).success)
    throw new AtlasError('not_found', `no report ${JSON.stringify(id.slice(0, 40))}: ids are YYYY-MM-DD (a Monday) or current`);
  const reports = deps.site.current().reports;
  const body = reports.get(id);
  if (body) return { ...body, api_status: API_STATUS };
  if (id !== 'current' && id === weekId(mondayOf(deps.clock()))) {
    const current = reports.get('current');
    if (current && current.week_start === id) return { ...current, id, api_status: API_STATUS };
    throw new AtlasError('not_found', `no report ${id}: the week-to-date figures of the running week are not published yet`);
  }
  throw new AtlasError('not_found', `no report ${id}`);
}
