import type { Context } from '../../pipeline/core/context.ts';
import { isAtlasError } from '../../pipeline/core/errors.ts';
import { runCycle } from '../../pipeline/cycle/index.ts';
import { withStore } from '../../pipeline/store/index.ts';

export interface LiveCycler {
  /** Run one cycle now (skipped when one is already running). */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The live part of the demo: a cycle at every boundary of the configured cycle cadence (the demo's is
 * hourly; plus 30 s) in real time, as cron would
 * run `atlas cycle`: ingest, probe what is due, compute, reports, publish. The database is opened
 * only while a cycle runs. `stop()` cancels the timer and waits for a running cycle to finish.
 */
export function startLiveCycles(
  ctx: Context,
  opts: {
    probeTimeoutMs: number;
    probeConcurrency: number;
    everyMs?: number;
    /** Run before each cycle (the demo moves the fleet's clock to now). */
    beforeCycle?: () => Promise<void>;
  },
): LiveCycler {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const every = opts.everyMs ?? ctx.config.cycle.everyMinutes * 60_000;

  const cycle = async () => {
    await opts.beforeCycle?.();
    await withStore(ctx.paths.db, async (store) => {
      const r = await runCycle(ctx, store, {
        probe: { allowPrivate: true, timeoutMs: opts.probeTimeoutMs, concurrency: opts.probeConcurrency },
        snapshot: false,
      });
      const failed = r.steps.filter((s) => s.status === 'failed');
      if (failed.length)
        ctx.log.warn('demo: cycle finished with failed steps', { failed: failed.map((s) => `${s.step}: ${s.error ?? ''}`) });
      else ctx.log.info('demo: cycle done', { at: ctx.clock().toISOString() });
    });
  };

  const runOnce = async () => {
    if (running || stopped) return;
    running = cycle()
      .catch((e) => ctx.log.warn('demo: cycle failed', { error: isAtlasError(e) ? e.message : (e as Error)?.message }))
      .finally(() => {
        running = null;
      });
    await running;
  };

  const schedule = () => {
    if (stopped) return;
    const now = ctx.clock().getTime();
    const next = (Math.floor(now / every) + 1) * every + Math.min(30_000, every / 10);
    timer = setTimeout(() => {
      void runOnce().finally(schedule);
    }, next - now);
  };
  schedule();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (running) await running;
    },
  };
}
