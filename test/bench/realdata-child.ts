/**
 * One dataset of `npm run bench -- realdata`, in its own process so its peak RSS is its own:
 * ingest (from the dump file as published) + compute + publish into a fresh data folder, then one
 * JSON line on stdout with the times of each step, CPU time and peak RSS.
 *
 *   node --import tsx test/bench/realdata-child.ts x402|mcp <file> <data dir> <now ISO>
 */
import { fixedClock } from '../../pipeline/core/clock.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import type { Context } from '../../pipeline/core/context.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { computeAll } from '../../pipeline/compute/index.ts';
import { ingestMcp, ingestX402 } from '../../pipeline/ingest/index.ts';
import { migrate, withStore } from '../../pipeline/store/index.ts';
import { publish } from '../../pipeline/publish/index.ts';

async function main(): Promise<void> {
  const [dataset, file, dataDir, now] = process.argv.slice(2);
  if ((dataset !== 'x402' && dataset !== 'mcp') || !file || !dataDir || !now)
    throw new Error('usage: realdata-child x402|mcp FILE DIR NOW');
  const ctx: Context = {
    clock: fixedClock(new Date(now)),
    paths: resolvePaths(dataDir),
    config: defaultConfig(),
    log: silentLogger,
    secret: 'bench-secret-0123456789abcdef',
  };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await withStore(ctx.paths.db, async (store) => {
    await migrate(store, ctx.clock());
    const t1 = performance.now();
    const ingest = dataset === 'x402' ? await ingestX402(ctx, store, { source: file }) : await ingestMcp(ctx, store, { source: file });
    const t2 = performance.now();
    await computeAll(ctx, store, { scope: 'full' });
    const t3 = performance.now();
    const pub = await publish(ctx, store);
    const t4 = performance.now();
    return {
      counts: ingest.counts,
      published: pub.counts,
      migrate_ms: Math.round(t1 - t0),
      ingest_ms: Math.round(t2 - t1),
      compute_ms: Math.round(t3 - t2),
      publish_ms: Math.round(t4 - t3),
    };
  });
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    `${JSON.stringify({
      dataset,
      ...out,
      total_ms: Math.round(performance.now() - t0),
      cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    })}\n`,
  );
}

main().catch((e) => {
  process.stderr.write(`realdata-child: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exitCode = 1;
});
