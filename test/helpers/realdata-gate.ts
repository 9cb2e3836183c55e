import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { realdataDir } from '../../pipeline/fleet/real-402.ts';

/**
 * Whether the real public data a suite needs is on this machine.
 *
 * The data (`../shared/realdata` next to the repository, or `ATLAS_REALDATA`) is third-party and
 * never committed, so a fresh clone does not have it. There the suites that need it are skipped and
 * this prints one line saying which suite, why, and how to run it. CI sets
 * `ATLAS_REQUIRE_REALDATA=1` (.ci/run): then a missing file throws, so the suite fails instead of
 * skipping and a broken CI setup cannot pass silently.
 */
export const REQUIRE_REALDATA_ENV = 'ATLAS_REQUIRE_REALDATA';

export interface RealdataGate {
  present: boolean;
  /** The line printed when the suite is skipped (empty when present). */
  message: string;
}

export function realdataGate(
  suite: string,
  files: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = (line) => console.log(line),
): RealdataGate {
  const dir = realdataDir(env);
  const missing = files.filter((f) => !existsSync(join(dir, f)));
  if (missing.length === 0) return { present: true, message: '' };
  const why = `${missing.map((f) => join(dir, f)).join(', ')} not found`;
  if (env[REQUIRE_REALDATA_ENV] === '1')
    throw new Error(
      `${suite}: real data required (${REQUIRE_REALDATA_ENV}=1) but ${why}; put it at ../shared/realdata or set ATLAS_REALDATA`,
    );
  const message =
    `skipped ${suite}: real data ${why}; to run it, put the shared real data at ../shared/realdata next to the repository ` +
    `or point ATLAS_REALDATA at it (CI sets ${REQUIRE_REALDATA_ENV}=1 to make its absence a failure)`;
  print(message);
  return { present: false, message };
}
