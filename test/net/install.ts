import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Network safety for a vitest config (unit, integration and browser runs alike): every test process
 * and every process a test starts loads test/net/no-egress.mjs first (through NODE_OPTIONS, which
 * forks and spawns inherit), so a connect to anything but loopback is refused before a packet exists
 * and fails the test that made it (setup.ts) and the run (global.ts), whatever the code under test
 * does. Refusals in children reach the runner through one log file.
 */
export function loopbackOnly(): { setupFiles: string[]; globalSetup: string[] } {
  const guard = pathToFileURL(fileURLToPath(new URL('./no-egress.mjs', import.meta.url))).href;
  if (!process.env.NODE_OPTIONS?.includes(guard)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${guard}`.trim();
  process.env.ATLAS_NO_EGRESS_LOG ??= join(mkdtempSync(join(tmpdir(), 'atlas-no-egress-')), 'refused.jsonl');
  return { setupFiles: ['test/net/setup.ts'], globalSetup: ['test/net/global.ts'] };
}
