import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../pipeline/core/config.ts';
import { computeAll } from '../../../pipeline/compute/index.ts';
import { buildServerJson, renderLlmsTxt } from '../../../site/discovery/index.ts';
import { publish } from '../../../pipeline/publish/index.ts';
import { makeContext, openTestStore, tempDir } from '../../helpers/context.ts';
import { currentDir } from './read-tree.ts';
import { seedRaw } from './seed.ts';

const NOW = new Date('2026-11-25T12:00:00Z');

describe('publish writes the discovery documents', () => {
  it('llms.txt and server.json at the root of the tree, for the configured base URL; badge snippets in the pages', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openTestStore(dir, NOW);
    try {
      await seedRaw(store, NOW, 3, 12);
      const base = defaultConfig();
      const ctx = makeContext(dir, {
        now: NOW.toISOString(),
        config: { serve: { ...base.serve, baseUrl: 'https://atlas.example/', registryName: 'io.github.example/atlas' } },
      });
      await computeAll(ctx, store, { scope: 'full' });
      const r = await publish(ctx, store);
      const gen = currentDir(ctx.paths.publicDir);
      expect(readFileSync(join(gen, 'llms.txt'), 'utf8')).toBe(renderLlmsTxt('https://atlas.example'));
      expect(JSON.parse(readFileSync(join(gen, 'server.json'), 'utf8'))).toEqual(
        buildServerJson({ baseUrl: 'https://atlas.example', registryName: 'io.github.example/atlas' }),
      );
      // Both are sealed with the rest of the generation.
      const checksums = readFileSync(join(gen, 'checksums.json'), 'utf8');
      expect(checksums).toContain('"llms.txt"');
      expect(checksums).toContain('"server.json"');
      expect(r.steps.discovery).toBeGreaterThanOrEqual(0);
      // A static service page loads its badge from the base URL, as an embed would.
      const file = readdirSync(join(gen, 'services')).find((f) => f.endsWith('.html'))!;
      const id = file.replace(/\.html$/, '');
      const page = readFileSync(join(gen, 'services', file), 'utf8');
      expect(page).toContain(`<img class="atlas-badge" src="https://atlas.example/badges/${id}.svg"`);
    } finally {
      await store.close();
      cleanup();
    }
  }, 60_000);
});
