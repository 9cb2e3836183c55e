import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { createApp } from '../../serve/app.ts';
import { closeDeps, createDeps } from '../../serve/deps.ts';
import { serverParts } from '../../serve/mounts.ts';
import { ChangeList } from '../../site/contract/changes.ts';
import { ErrorBody } from '../../site/contract/error.ts';
import { Fields } from '../../site/contract/fields.ts';
import { Health } from '../../site/contract/health.ts';
import { ReportList } from '../../site/contract/reports.ts';
import { Roadmap } from '../../site/contract/roadmap.ts';
import { ServiceDetail } from '../../site/contract/service-detail.ts';
import { ServiceList } from '../../site/contract/service-list.ts';
import { Stats } from '../../site/contract/stats.ts';
import { Status } from '../../site/contract/status.ts';
import { runCliInProcess } from '../helpers/cli.ts';
import { tempDir, testClock } from '../helpers/context.ts';

/**
 * The server over a tree written by the real `atlas publish` (init → ingest listings → compute →
 * publish): every read endpoint answers, and every body validates against the contract schemas.
 * The commands run in this process (runCliInProcess): each has its own spawned-process test beside
 * its command (test/cli/), and the subject here is the tree they write.
 */
describe('serve over a real published tree', () => {
  it('answers every read endpoint with contract-valid bodies', async () => {
    const tmp = tempDir('atlas-serve-published-');
    const now = '2026-11-25T12:00:00Z';
    try {
      for (const args of [['init'], ['ingest', 'listings'], ['compute'], ['publish']]) {
        const r = await runCliInProcess(['--data', tmp.dir, '--now', now, ...args]);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      }
      const parts = serverParts();
      const clock = testClock(now);
      const deps = await createDeps({
        clock,
        config: defaultConfig(),
        secret: 'test-secret-0123456789abcdef',
        log: silentLogger,
        siteDir: join(tmp.dir, 'public'),
        inboxDir: join(tmp.dir, 'inbox'),
        replicaId: 't',
        mounts: parts.mounts,
        openapi: parts.openapi,
      });
      try {
        const app = createApp(deps);
        const get = async <T>(path: string, schema: z.ZodType<T>) => {
          const res = await app.request(path);
          const body = await res.json();
          expect(res.status, `${path}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
          expect(res.headers.get('x-api-status')).toBe('preview');
          const parsed = schema.safeParse(body);
          expect(parsed.success, `${path}: ${JSON.stringify(parsed.error?.issues?.slice(0, 3))}`).toBe(true);
          return body as T;
        };
        const list = await get('/api/v1/services?scope=index&limit=100', ServiceList);
        expect(list.total).toBeGreaterThan(0);
        for (const item of list.items) await get(`/api/v1/services/${item.id}`, ServiceDetail);
        await get('/api/v1/services', ServiceList);
        await get('/api/v1/services?scope=index&group=provider&sort=name', ServiceList);
        await get('/api/v1/stats', Stats);
        await get('/api/v1/status', Status);
        await get('/api/v1/roadmap', Roadmap);
        await get('/api/v1/fields', Fields);
        await get('/api/v1/reports', ReportList);
        await get('/api/v1/changes?days=90', ChangeList);
        await get('/healthz', Health);
        const doc = (await (await app.request('/openapi.json')).json()) as { info: { version: string } };
        expect(doc.info.version).toBe('0.1.0-preview');
        const missing = await app.request('/api/v1/reports/2026-11-16');
        expect(missing.status).toBe(404);
        expect(ErrorBody.safeParse(await missing.json()).success).toBe(true);
      } finally {
        await closeDeps(deps);
      }
    } finally {
      tmp.cleanup();
    }
  }, 60_000);
});
