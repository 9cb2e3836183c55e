import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildServerJson, renderLlmsTxt } from '../discovery/index.ts';

/**
 * `llms.txt` and `server.json` at the root of a generation, so a static host serves the same
 * documents as `atlas serve` (serve/discovery/ answers them from the same functions and config).
 */
export async function writeDiscovery(genDir: string, opts: { baseUrl: string; registryName: string }): Promise<void> {
  await writeFile(join(genDir, 'llms.txt'), renderLlmsTxt(opts.baseUrl));
  await writeFile(join(genDir, 'server.json'), `${JSON.stringify(buildServerJson(opts), null, 2)}\n`);
}
