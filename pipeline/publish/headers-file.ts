import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { staticHeadersFile } from '../../site/contract/http-cache.ts';

/** The generation's headers file: Netlify and Cloudflare Pages read `_headers` at the root of the tree they serve. */
export const HEADERS_FILE = '_headers';

/**
 * Write `_headers` into a generation, so a CDN or static host serving the tree applies the server's
 * caching rules (site/contract/http-cache.ts). Written before the seal, so `checksums.json` lists it.
 */
export async function writeHeadersFile(genDir: string): Promise<void> {
  await writeFile(join(genDir, HEADERS_FILE), staticHeadersFile());
}
