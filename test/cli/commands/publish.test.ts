import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Manifest } from '../../../site/contract/index.ts';
import { runCli, runCliInProcess } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/context.ts';
import { parseWith } from '../../pipeline/publish/read-tree.ts';

describe('atlas publish', () => {
  it('migrates first and publishes into --out, recording the run', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const out = join(dir, 'site-out');
      const r = await runCli(['--data', dir, '--now', '2026-11-25T12:00:00Z', 'publish', '--out', out]);
      expect(r.stderr).not.toMatch(/^atlas:/m);
      expect(r.code).toBe(0);
      const gen = realpathSync(join(out, 'current'));
      const manifest = parseWith(Manifest, join(gen, 'manifest.json'));
      expect(manifest.counts.services).toBe(0);
      expect(existsSync(join(gen, 'api', 'v1', 'fields.json'))).toBe(true);
      expect(existsSync(join(dir, 'public'))).toBe(false);
      const runs = await runCliInProcess([
        '--data',
        dir,
        'sql',
        "SELECT kind, status FROM runs WHERE kind = 'publish'",
        '--format',
        'json',
      ]);
      expect(JSON.parse(runs.stdout)).toEqual([{ kind: 'publish', status: 'ok' }]);
    } finally {
      cleanup();
    }
  }, 60_000);
});
