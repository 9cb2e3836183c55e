import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../pipeline/store/store.ts';
import { runCli } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';
import { writeGeneration } from '../../serve/fixture.ts';
import { type ServeProcess, startServeProcess } from '../../serve/serve-process.ts';

/** `atlas serve --port 0` on a real socket: prints the URL, answers, shuts down cleanly on SIGTERM. */
describe('atlas serve / atlas ingest inbox (CLI)', () => {
  it('serves the published tree, takes a write, exits 0 on SIGTERM; ingest inbox loads the write', async () => {
    const tmp = tempDir('atlas-cli-serve-');
    let server: ServeProcess | undefined;
    try {
      server = await startServeProcess(['--data', tmp.dir, '--now', '2026-11-25T12:00:00Z', 'serve', '--port', '0'], {
        env: { ATLAS_REPLICA_ID: 'cli-test' },
      });
      const url = server.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      writeGeneration(join(tmp.dir, 'public'), {
        generation: 'g1',
        now: new Date('2026-11-25T12:00:00Z'),
        services: [{ id: 'cand_a' }, { id: 'svc_b' }],
      });
      // The tree was written after start: the watcher picks it up and logs the swap.
      expect(await server.logged(/loaded generation/)).toContain('g1');
      const r = await fetch(`${url}/api/v1/services?scope=index`);
      expect(r.status).toBe(200);
      expect(((await r.json()) as { total: number }).total).toBe(2);
      const fb = await fetch(`${url}/api/v1/feedback`, {
        method: 'POST',
        body: JSON.stringify({ kind: 'missing_service', about: 'x.example' }),
      });
      expect(fb.status).toBe(201);
      expect(fb.headers.get('x-api-status')).toBe('preview');
      expect(await server.stop()).toBe(0);

      const ingest = await runCli(['--data', tmp.dir, 'ingest', 'inbox']);
      expect(ingest.code, ingest.stderr).toBe(0);
      const store = await openStore(join(tmp.dir, 'atlas.duckdb'), { readOnly: true });
      try {
        expect(await store.all('SELECT kind, about FROM feedback')).toEqual([{ kind: 'missing_service', about: 'x.example' }]);
      } finally {
        store.close();
      }
    } finally {
      await server?.stop(0);
      tmp.cleanup();
    }
  }, 240_000); // several CLI processes; generous for a loaded CI machine
});
