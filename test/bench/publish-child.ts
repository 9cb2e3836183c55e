/**
 * One `publish` in its own process, so its peak RSS is its own (test/bench/publish.ts):
 *   tsx test/bench/publish-child.ts <dataDir> <now ISO> <full|incremental> [pages|no-pages]
 * Prints one JSON line: wall ms, per-step ms, what was rendered and shared, peak RSS (MB).
 */
import { limitHeapGrowth } from '../../pipeline/core/heap-growth.ts';
import { publish } from '../../pipeline/publish/index.ts';
import { makeContext, openTestStore } from '../helpers/context.ts';

const [dataDir, nowIso, mode, pages] = process.argv.slice(2);
if (!dataDir || !nowIso || (mode !== 'full' && mode !== 'incremental')) {
  process.stderr.write('usage: publish-child.ts <dataDir> <now ISO> <full|incremental>\n');
  process.exit(2);
}
const now = new Date(nowIso);
limitHeapGrowth(); // as `atlas publish` does
const store = await openTestStore(dataDir, now);
try {
  const ctx = makeContext(dataDir, { now: nowIso });
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const r = await publish(ctx, store, { full: mode === 'full', pages: pages !== 'no-pages' });
  const ms = performance.now() - t0;
  const c = process.cpuUsage(cpu);
  process.stdout.write(
    `${JSON.stringify({
      ms: Math.round(ms),
      cpu_ms: Math.round((c.user + c.system) / 1000),
      steps: r.steps,
      generation: r.generation,
      dir: r.dir,
      incremental: r.incremental,
      counts: r.counts,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    })}\n`,
  );
} finally {
  store.close();
}
