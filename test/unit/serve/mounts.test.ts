import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../pipeline/core/log.ts';
import { loadOptionalParts } from '../../../serve/mounts.ts';
import { harness, type Harness } from './harness.ts';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe('mounted parts (MCP, pages, OpenAPI builder)', () => {
  it('are found and answer inside the same app, with X-API-Status', async () => {
    const parts = await loadOptionalParts(silentLogger);
    h = await harness({ services: [{ id: 'cand_a' }], mounts: parts.mounts });
    if (parts.openapi) h.deps.openapi = parts.openapi;
    const names = parts.mounts.map((m) => m.name);
    if (names.includes('mountPages')) {
      const page = await h.req('/');
      expect(page.headers.get('x-api-status')).toBe('preview');
      expect(page.headers.get('content-type')).toContain('text/html');
    }
    if (names.includes('mountMcp')) {
      const mcp = await h.req('/mcp');
      expect(mcp.headers.get('x-api-status')).toBe('preview');
    }
    const doc = await h.json('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.info.version).toBe('0.1.0-preview');
    if (parts.openapi) expect(Object.keys(doc.body.paths)).toContain('/api/v1/services');
    // The API routes still win over the mounted ones.
    expect((await h.json('/api/v1/services?scope=index')).body.total).toBe(1);
  });

  it('HEAD on a read answers with headers and no body', async () => {
    h = await harness({ services: [{ id: 'cand_a' }] });
    const r = await h.req('/api/v1/services', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-api-status')).toBe('preview');
    expect(await r.text()).toBe('');
  });
});
