import type { Context } from '../../pipeline/core/context.ts';
import { ingestListings } from '../../pipeline/ingest/index.ts';
import type { Store } from '../../pipeline/store/index.ts';
import type { SimClock } from './sim-clock.ts';
import { startSlotProbe } from './slot-probe.ts';
import { runDemoStep, type DemoStepOptions, type DemoStepPlan, type DemoStepResult } from './step.ts';

const day = (d: Date | undefined) => (d ? d.toISOString().slice(0, 10) : null);

/**
 * Registries, documentation and reports run on the first cycle of each simulated UTC day (the first
 * cycle of a day fills the daily slots); compute runs on the last cycle
 * of each day (so schedule/1 interval changes apply from the next day on), on the final cycle, and
 * on every cycle from `computeHourlyFrom` on (the last day runs at the hourly cadence of a real
 * deployment, so interval changes of the last day apply within the hour, as they would in one).
 * Compute's and publish's slots of the whole back-fill are left out of the status windows
 * (BACKFILL_UNCOUNTED_JOBS in site/contract/run-windows.ts); the demo records the back-fill run.
 */
export function stepPlan(times: readonly Date[], i: number, computeHourlyFrom?: Date): DemoStepPlan {
  const today = day(times[i]);
  const hourly = computeHourlyFrom !== undefined && times[i]!.getTime() >= computeHourlyFrom.getTime();
  return {
    daily: i === 0 || day(times[i - 1]) !== today,
    compute: hourly || i === times.length - 1 || day(times[i + 1]) !== today,
  };
}

export interface BackfillResult {
  cycles: number;
  checks: number;
  failures: string[];
  ms: number;
  /** Wall time per step kind, summed over cycles. */
  stepMs: Record<string, number>;
}

/** Probe runs of hourly slots still waiting for timeouts, at most this many at once. */
const MAX_OPEN_SLOTS = 12;

/**
 * Run real cycles at the simulated `times` (oldest first): the listings once at the start, then one
 * demo step per time with the clock set to it. The fleet reads the same clock, so its scripted
 * events (price change, outage, documentation edits) happen at the simulated times. The call probes
 * of a cycle without compute run through startSlotProbe: the next cycle follows as soon as their
 * requests are out, so hanging endpoints' timeouts overlap instead of adding up. A cycle with compute
 * or reports first waits for every probe run still open (they read the checks so far); compute
 * cycles probe in turn, before computing.
 */
export async function backfill(
  ctx: Context,
  store: Store,
  clock: SimClock,
  times: readonly Date[],
  opts: DemoStepOptions & {
    onCycle?: (i: number, at: Date, r: DemoStepResult) => void;
    signal?: AbortSignal;
    computeHourlyFrom?: Date;
    /**
     * Move the fleet's clock to the shared clock's time and resolve once it has (a fleet in a child
     * process keeps a fixed clock of its own); called after every clock.set, before any request.
     */
    syncFleet?: () => Promise<void>;
  },
): Promise<BackfillResult> {
  const t0 = performance.now();
  const failures: string[] = [];
  const stepMs: Record<string, number> = {};
  let checks = 0;
  const open = new Set<Promise<void>>();
  const fail = (e: unknown) => {
    const f = `probe: ${(e as Error)?.message ?? String(e)}`;
    if (!failures.includes(f)) failures.push(f);
  };
  const drain = async () => {
    while (open.size) await Promise.all([...open]);
  };
  try {
    for (let i = 0; i < times.length; i++) {
      // Stop between cycles (Ctrl-C during start-up): a cycle is never cut in half.
      opts.signal?.throwIfAborted();
      const at = times[i]!;
      const plan = stepPlan(times, i, opts.computeHourlyFrom);
      if (plan.compute) {
        // Compute reads every check so far, this slot's included: wait for all, then run in turn.
        const t = performance.now();
        await drain();
        stepMs.wait = (stepMs.wait ?? 0) + Math.round(performance.now() - t);
      }
      clock.set(at);
      await opts.syncFleet?.();
      if (i === 0) await ingestListings(ctx, store, ctx.paths.listings);
      let r: DemoStepResult = { checked: 0, registries: false, failures: [], ms: {} };
      if (plan.daily || plan.compute) {
        // Nothing of earlier days is in flight here: the last cycle of a day computes, so it drained.
        r = await runDemoStep(ctx, store, { ...plan, probe: plan.compute }, opts);
        checks += r.checked;
        for (const [k, v] of Object.entries(r.ms)) stepMs[k] = (stepMs[k] ?? 0) + v;
        for (const f of r.failures) if (!failures.includes(f)) failures.push(f);
      }
      if (!plan.compute) {
        const t = performance.now();
        while (open.size >= MAX_OPEN_SLOTS) await Promise.race([...open]);
        const slot = startSlotProbe(ctx, store, clock, at, opts);
        const settled: Promise<void> = slot.done
          .then((n) => {
            checks += n;
          }, fail)
          .finally(() => open.delete(settled));
        open.add(settled);
        await slot.released;
        stepMs.probe = (stepMs.probe ?? 0) + Math.round(performance.now() - t);
      }
      opts.onCycle?.(i, at, r);
    }
  } finally {
    await drain();
  }
  return { cycles: times.length, checks, failures, ms: Math.round(performance.now() - t0), stepMs };
}
