import type { Logger } from '../pipeline/core/log.ts';
import type { Mount } from './deps.ts';

/**
 * Optional parts built by other owners in parallel: the MCP endpoint (`serve/mcp/index.ts`,
 * `mountMcp`), the HTML pages (`serve/pages/index.ts`, `mountPages`) and the OpenAPI builder
 * (`buildOpenApi`, in site/contract or site/publish). They are imported dynamically so the server
 * works before they exist; a module that is missing is skipped quietly, one that fails to load is
 * skipped with a warning. (When all exist, static imports in cli/commands/serve.ts can replace this.)
 */
async function tryImport(specifier: string, log: Logger): Promise<Record<string, unknown> | null> {
  try {
    return (await import(specifier)) as Record<string, unknown>;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const msg = (e as Error).message ?? '';
    if ((code === 'ERR_MODULE_NOT_FOUND' || /Cannot find module/.test(msg)) && msg.includes(specifier.split('/').slice(-2).join('/')))
      return null;
    log.warn('serve: optional module failed to load; continuing without it', { module: specifier, error: msg });
    return null;
  }
}

export interface OptionalParts {
  mounts: Mount[];
  openapi?: () => unknown;
}

export async function loadOptionalParts(log: Logger): Promise<OptionalParts> {
  const out: OptionalParts = { mounts: [] };
  const mcp = await tryImport(new URL('./mcp/index.ts', import.meta.url).href, log);
  if (typeof mcp?.mountMcp === 'function') out.mounts.push(mcp.mountMcp as Mount);
  const pages = await tryImport(new URL('./pages/index.ts', import.meta.url).href, log);
  if (typeof pages?.mountPages === 'function') out.mounts.push(pages.mountPages as Mount);
  for (const rel of [
    '../site/contract/openapi.ts',
    '../site/publish/openapi.ts',
    '../site/contract/index.ts',
    '../site/publish/index.ts',
  ]) {
    const m = await tryImport(new URL(rel, import.meta.url).href, log);
    if (typeof m?.buildOpenApi === 'function') {
      const build = m.buildOpenApi as () => unknown;
      let cached: unknown;
      out.openapi = () => (cached ??= build());
      break;
    }
  }
  return out;
}
