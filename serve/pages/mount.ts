import type { Context, Hono } from 'hono';
import { publicBaseUrl } from '../../pipeline/core/config.ts';
import { isAtlasError } from '../../pipeline/core/errors.ts';
import type { ReportList, ServiceList, Stats, Status } from '../../site/contract/index.ts';
import {
  CSS,
  JS,
  formFromQuery,
  renderDirectoryPage,
  renderErrorPage,
  renderReportsPage,
  renderServicePage,
  renderStatusPage,
  type PageMeta,
  type ReportView,
} from '../../site/pages/index.ts';
import type { AppDeps } from '../deps.ts';
import { getReport, getService, getStats, getStatus, listReports, searchServices } from '../operations/index.ts';
import { htmlResponse } from './headers.ts';

const meta = (deps: AppDeps): PageMeta => ({ generatedAt: deps.clock(), live: true, baseUrl: publicBaseUrl(deps.config) });

/** Map an operation's error to an HTML error page (the JSON API maps the same codes to JSON). */
function errorPage(c: Context, deps: AppDeps, e: unknown): Response {
  if (isAtlasError(e)) {
    if (e.code === 'not_found') return htmlResponse(c, renderErrorPage({ title: 'Not found', message: e.message }, meta(deps)), 404);
    if (e.code === 'source_failed' || e.code === 'locked')
      return htmlResponse(
        c,
        renderErrorPage(
          { title: 'Not published yet', message: 'Atlas has not published its first results yet. Try again in a minute.' },
          meta(deps),
        ),
        503,
      );
    if (e.code === 'invalid_parameter' || e.code === 'invalid_input')
      return htmlResponse(c, renderErrorPage({ title: 'Bad request', message: e.message }, meta(deps)), 400);
  }
  deps.log.warn('pages: unexpected error', { error: (e as Error)?.message ?? String(e) });
  return htmlResponse(
    c,
    renderErrorPage({ title: 'Something went wrong', message: 'The page could not be built. The JSON API may still answer.' }, meta(deps)),
    500,
  );
}

/**
 * HTML routes (CONTRACTS.md "Server"): `/` (directory: server-side search from `searchServices`),
 * `/services/:id` (from `getService`, so freshness is against the server's clock), `/status`,
 * `/reports`, `/assets/atlas.css|js`. Every page calls the same operations as the JSON API.
 */
export function mountPages(app: Hono, deps: AppDeps): void {
  app.get('/assets/atlas.css', (c) => {
    return c.body(CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });
  app.get('/assets/atlas.js', (c) => {
    return c.body(JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });

  app.get('/', async (c) => {
    const form = formFromQuery(c.req.query());
    try {
      const list: ServiceList = await searchServices(deps, form);
      return htmlResponse(c, renderDirectoryPage({ list, form }, meta(deps)));
    } catch (e) {
      if (isAtlasError(e) && (e.code === 'invalid_parameter' || e.code === 'invalid_input')) {
        // Show the form again with the message, over the default search, so the user can fix it.
        try {
          const list = await searchServices(deps, {});
          return htmlResponse(c, renderDirectoryPage({ list, form, error: e.message }, meta(deps)), 400);
        } catch (e2) {
          return errorPage(c, deps, e2);
        }
      }
      return errorPage(c, deps, e);
    }
  });

  app.get('/index.html', (c) => c.redirect('/', 301));

  app.get('/services/:id', async (c) => {
    const id = c.req.param('id').replace(/\.html$/, '');
    try {
      const detail = await getService(deps, id);
      return htmlResponse(c, renderServicePage(detail, meta(deps)));
    } catch (e) {
      return errorPage(c, deps, e);
    }
  });

  app.get('/status', async (c) => {
    try {
      const status = (await getStatus(deps)) as unknown as Status;
      const stats = (await getStats(deps).catch(() => null)) as unknown as Stats | null;
      return htmlResponse(c, renderStatusPage({ status, stats }, meta(deps)));
    } catch (e) {
      return errorPage(c, deps, e);
    }
  });

  app.get('/reports', async (c) => {
    try {
      const list = (await listReports(deps).catch(() => null)) as unknown as ReportList | null;
      const current = (await getReport(deps, 'current').catch(() => null)) as unknown as ReportView | null;
      const weeks: ReportView[] = [];
      for (const item of list?.items ?? []) {
        const r = await getReport(deps, item.id).catch(() => null);
        if (r) weeks.push(r as unknown as ReportView);
      }
      return htmlResponse(c, renderReportsPage({ current, weeks }, meta(deps)));
    } catch (e) {
      return errorPage(c, deps, e);
    }
  });
}
