import { afterEach, describe, expect, it } from 'vitest';
import { mountDiscovery } from '../../serve/discovery/index.ts';
import { serverParts } from '../../serve/mounts.ts';
import { mountMcp } from '../../serve/mcp/index.ts';
import { mountPages } from '../../serve/pages/index.ts';
import { startServer, type RunningServer } from '../../serve/server.ts';
import { makeContext, tempDir } from '../helpers/context.ts';
import { writeGeneration } from './fixture.ts';
import { harness, T0, type Harness } from './harness.ts';

let h: Harness | undefined;
let server: RunningServer | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await h?.close();
  await server?.close();
  cleanup?.();
  h = undefined;
  server = undefined;
  cleanup = undefined;
});

describe('the server parts (MCP, pages, OpenAPI builder)', () => {
  it('are the MCP endpoint, the pages and discovery, always, with the contract OpenAPI builder', () => {
    const parts = serverParts();
    expect(parts.mounts).toEqual([mountMcp, mountPages, mountDiscovery]);
    const doc = parts.openapi() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/v1/services');
    // Built once: the same document on every request.
    expect(parts.openapi()).toBe(doc);
  });

  it('answer inside the same app, with X-API-Status; the API routes still win', async () => {
    const parts = serverParts();
    h = await harness({ services: [{ id: 'cand_a' }], mounts: parts.mounts });
    h.deps.openapi = parts.openapi;
    const page = await h.req('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('x-api-status')).toBe('preview');
    expect(page.headers.get('content-type')).toContain('text/html');
    const mcp = await h.req('/mcp');
    expect(mcp.status).toBe(405); // stateless endpoint: POST only
    expect(mcp.headers.get('x-api-status')).toBe('preview');
    // The fixture's published openapi.json has no paths; the builder's document has them all.
    const doc = await h.json('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.info.version).toBe('0.1.0-preview');
    expect(Object.keys(doc.body.paths)).toContain('/api/v1/services');
    expect((await h.json('/api/v1/services?scope=index')).body.total).toBe(1);
  });

  it('are mounted by startServer, the one start-up point (real HTTP on loopback)', async () => {
    const tmp = tempDir('atlas-serve-parts-');
    cleanup = tmp.cleanup;
    const ctx = makeContext(tmp.dir, { now: T0 });
    writeGeneration(ctx.paths.publicDir, { generation: 'g1', now: new Date(T0), services: [{ id: 'cand_a' }] });
    server = await startServer(ctx, { port: 0, host: '127.0.0.1', watchIntervalMs: 60_000, replicaId: 't' });
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    await page.text();
    const mcp = await fetch(`${server.url}/mcp`);
    expect(mcp.status).toBe(405);
    await mcp.text();
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain('/api/v1/services');
  });

  it('HEAD on a read answers with headers and no body', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const r = await h.req('/api/v1/services', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-api-status')).toBe('preview');
    expect(await r.text()).toBe('');
  });
});
