import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ServerJsonFile } from '../../site/contract/index.ts';
import { buildServerJson, renderLlmsTxt } from '../../site/discovery/index.ts';
import { validated } from './write.ts';

/**
 * `llms.txt` and `server.json` at the root of a generation, so a static host serves the same
 * documents as `atlas serve` (serve/discovery/ answers them from the same functions and config).
 * `server.json` is checked against its published-file schema and written as built.
 */
export async function writeDiscovery(genDir: string, opts: { baseUrl: string; registryName: string }): Promise<void> {
  await writeFile(join(genDir, 'llms.txt'), renderLlmsTxt(opts.baseUrl));
  const doc = buildServerJson(opts);
  validated(ServerJsonFile, doc, 'server.json');
  await writeFile(join(genDir, 'server.json'), `${JSON.stringify(doc, null, 2)}\n`);
}
