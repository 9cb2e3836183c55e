import type { Hono } from 'hono';
import { AtlasError } from '../../pipeline/core/errors.ts';
import type { AppDeps } from '../deps.ts';
import { getHealth } from '../operations/index.ts';

/**
 * `/healthz` (no version prefix, docs/design.md, versioning) and `/openapi.json`: generated from the contract when
 * a builder is injected (`deps.openapi`), else the generation's published `openapi.json`.
 */
export function mountMeta(app: Hono, deps: AppDeps): void {
  app.get('/healthz', async (c) => c.json(await getHealth(deps)));
  app.get('/openapi.json', (c) => {
    if (deps.openapi) return c.json(deps.openapi());
    const doc = deps.site.current().resources.openapi;
    if (!doc) throw new AtlasError('not_found', 'openapi.json is not published in this generation');
    return c.json(doc);
  });
}
