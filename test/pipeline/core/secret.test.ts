import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../pipeline/core/paths.ts';
import { loadSecret } from '../../../pipeline/core/secret.ts';
import { tempDir } from '../../helpers/context.ts';

const run = promisify(execFile);
// Each child loads the secret of the same new data folder as it starts, as `atlas serve` does.
const CHILD = `import { loadSecret } from ${JSON.stringify(join(PROJECT_ROOT, 'pipeline', 'core', 'secret.ts'))}; process.stdout.write(loadSecret(process.argv[1], {}));`;

describe('the installation secret', () => {
  it('processes that create it at once all get the one secret on disk, and no temporary file is left', async () => {
    const t = tempDir('atlas-secret-');
    try {
      const path = join(t.dir, 'data', 'secret');
      const got = await Promise.all(
        Array.from({ length: 6 }, () =>
          run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, path], { cwd: PROJECT_ROOT }),
        ),
      );
      const onDisk = readFileSync(path, 'utf8').trim();
      expect(onDisk).toMatch(/^[0-9a-f]{64}$/);
      for (const g of got) expect(g.stdout).toBe(onDisk);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readdirSync(join(t.dir, 'data'))).toEqual(['secret']);
      expect(loadSecret(path, {})).toBe(onDisk);
      expect(loadSecret(path, { ATLAS_SECRET: 'x'.repeat(16) })).toBe('x'.repeat(16));
    } finally {
      t.cleanup();
    }
  }, 60_000);
});
