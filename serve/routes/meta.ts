import type { Hono } from 'hono';
import type { AppDeps } from '../deps.ts';
import { getHealth } from '../operations/index.ts';

/**
 * `/healthz` (no version prefix, docs/design.md, versioning) and `/openapi.json`: generated from the
 * contract by the injected builder (`deps.openapi`, required: the server never falls back to
 * another copy of the document, docs/CONTRACTS.md "No silent fallbacks").
 */
export function mountMeta(app: Hono, deps: AppDeps): void {
  app.get('/healthz', async (c) => c.json(await getHealth(deps)));
  app.get('/openapi.json', (c) => c.json(deps.openapi()));
}
