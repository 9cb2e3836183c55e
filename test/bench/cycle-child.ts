import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock } from '../../pipeline/core/clock.ts';
import { limitHeapGrowth } from '../../pipeline/core/heap-growth.ts';
import { defaultConfig } from '../../pipeline/core/config.ts';
import { silentLogger } from '../../pipeline/core/log.ts';
import { resolvePaths } from '../../pipeline/core/paths.ts';
import { METRICS_DIR } from '../../pipeline/core/textfile-metrics.ts';
import { runCycle } from '../../pipeline/cycle/index.ts';
import { openStore } from '../../pipeline/store/index.ts';

/**
 * One `atlas cycle` under measurement, in a process of its own as cron would start it, so the
 * peak RSS it reports (`process.resourceUsage().maxRSS`) is that cycle's alone.
 * Args: dataDir nowIso concurrency timeoutMs spreadMinutes. Prints one JSON line:
 * { ms, maxRssBytes, steps: [{ step, status, ms, probed?, scope?, compute_steps?, error? }] }.
 */
const [dir, nowIso, concurrency, timeoutMs, spread] = process.argv.slice(2) as [string, string, string, string, string];
const cfg = defaultConfig();
cfg.probe.allowPrivate = true;
cfg.probe.resolve = { '*.fleet.test': '127.0.0.1' };
cfg.registries = [];
cfg.probe.spreadMinutes = Number(spread ?? 0);
const ctx = {
  clock: fixedClock(new Date(nowIso)),
  paths: resolvePaths(dir),
  config: cfg,
  log: silentLogger,
  secret: 'bench-secret-0123456789',
};
limitHeapGrowth(); // as `atlas cycle` does
const t0 = performance.now();
const store = await openStore(ctx.paths.db);
try {
  const r = await runCycle(ctx, store, {
    skipRegistries: true,
    probe: { allowPrivate: true, concurrency: Number(concurrency), timeoutMs: Number(timeoutMs) },
  });
  // Step durations as the cycle records them for node_exporter (<data>/metrics/atlas_cycle.prom).
  const prom = readFileSync(join(dir, METRICS_DIR, 'atlas_cycle.prom'), 'utf8');
  const stepMs = (step: string) => {
    const m = new RegExp(`atlas_run_step_duration_seconds\\{[^}]*step="${step}"[^}]*\\} (\\S+)`).exec(prom);
    return m ? Math.round(Number(m[1]) * 1000) : null;
  };
  const steps = r.steps.map((s) => {
    const d = (s.detail ?? {}) as Record<string, unknown>;
    const what =
      s.step === 'probe'
        ? { probed: (d.counts as { probed?: number } | undefined)?.probed ?? 0 }
        : s.step === 'compute'
          ? { scope: d.scope, evaluated: d.directory_evaluated, interval_changes: d.interval_changes, compute_steps: d.steps_ms }
          : s.step === 'publish'
            ? { services: (d.counts as { services?: number } | undefined)?.services, pages: d.pages }
            : {};
    return { step: s.step, status: s.status, ms: stepMs(s.step), ...what, ...(s.error ? { error: s.error } : {}) };
  });
  process.stdout.write(`${JSON.stringify({ ms: performance.now() - t0, maxRssBytes: process.resourceUsage().maxRSS * 1024, steps })}\n`);
} finally {
  store.close();
}
