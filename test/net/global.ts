import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Global teardown: the run fails if any process refused a non-loopback connect that no test
 * acknowledged as expected (see takeRefusals in setup.ts), even one no test's afterEach saw (a child
 * that outlived its test, a refusal between tests).
 */
const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

export default function setup(): () => void {
  return () => {
    const file = process.env.ATLAS_NO_EGRESS_LOG;
    if (!file) return;
    // The base log and each test process's own (`<base>.<pid>`, setup.ts), each with its acknowledgements.
    const logs = readdirSync(dirname(file))
      .filter((n) => n.startsWith(basename(file)) && !n.endsWith('.acknowledged'))
      .map((n) => join(dirname(file), n));
    const acknowledged = new Set(logs.flatMap((l) => lines(`${l}.acknowledged`)));
    const leaks = logs.flatMap(lines).filter((l) => !acknowledged.has((JSON.parse(l) as { id: string }).id));
    if (leaks.length) throw new Error(`tests tried to reach addresses off loopback (all refused):\n${leaks.join('\n')}`);
  };
}
