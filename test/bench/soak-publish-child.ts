/**
 * The publisher of `npm run bench -- soak` (spawned by test/bench/soak.ts every 30 s): writes a new
 * generation of the fixture tree, switches `current` to it atomically, and removes all but the
 * newest three generations (as `atlas publish` keeps three). A child process, so writing thousands
 * of detail files never blocks the load generator's event loop. Prints the seconds it took.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generateSpecs, writeGeneration } from '../serve/fixture.ts';

const [siteDir, generation, size] = process.argv.slice(2);
if (!siteDir || !generation || !size) throw new Error('usage: soak-publish-child <site dir> <generation> <services>');
const t0 = performance.now();
writeGeneration(siteDir, { generation, now: new Date(), services: generateSpecs(Number(size)) });
const generations = readdirSync(join(siteDir, 'generations')).sort();
for (const g of generations.slice(0, -3)) rmSync(join(siteDir, 'generations', g), { recursive: true, force: true });
process.stdout.write(`${((performance.now() - t0) / 1000).toFixed(2)}\n`);
