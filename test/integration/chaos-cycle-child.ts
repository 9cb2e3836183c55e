/**
 * `atlas cycle` for the chaos test, in a process of its own that the test kills: the same context the
 * CLI builds (cli/context.ts: fixed clock from --now, config file, --data paths, the installation
 * secret) and the same call (cli/commands/cycle.ts), except that reviewed listings come from the
 * fleet's folder: the CLI always reads the project's data/listings, whose real hosts a test must
 * never reach.
 *   node --import tsx test/integration/chaos-cycle-child.ts <data dir> <config file> <listings dir> <iso now>
 * Prints `cycle` once start-up is over (the test times most kills from there). Exit 0 when every
 * step ran, 1 when a step failed (like `atlas cycle`).
 */
import { fixedClock, parseNow } from '../../pipeline/core/clock.ts';
import { loadConfig } from '../../pipeline/core/config.ts';
import type { Context } from '../../pipeline/core/context.ts';
import { createLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { loadSecret } from '../../pipeline/core/secret.ts';
import { runCycle } from '../../pipeline/cycle/index.ts';
import { withStore } from '../../pipeline/store/index.ts';

const [data, config, listings, now] = process.argv.slice(2);
if (!data || !config || !listings || !now) throw new Error('usage: chaos-cycle-child.ts <data> <config> <listings> <now>');
const paths = { ...resolvePaths(data), listings };
const ctx: Context = {
  clock: fixedClock(parseNow(now)),
  config: loadConfig(config),
  paths,
  log: createLogger({}),
  secret: loadSecret(paths.secret),
};
process.stdout.write('cycle\n'); // start-up is over: the test times its kill from here
const result = await withStore(ctx.paths.db, (s) => runCycle(ctx, s, {}));
for (const s of result.steps) ctx.log.info(`${s.step}: ${s.status}${s.error ? ` (${s.error})` : ''}`);
process.exitCode = result.failed ? 1 : 0;
