import { existsSync, readFileSync } from 'node:fs';

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
    const acknowledged = new Set(lines(`${file}.acknowledged`));
    const leaks = lines(file).filter((l) => !acknowledged.has((JSON.parse(l) as { id: string }).id));
    if (leaks.length) throw new Error(`tests tried to reach addresses off loopback (all refused):\n${leaks.join('\n')}`);
  };
}
