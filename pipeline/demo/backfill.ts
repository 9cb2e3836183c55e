import type { Context } from '../core/context.ts';
import { ingestListings } from '../ingest/index.ts';
import type { Store } from '../store/index.ts';
import type { SimClock } from './sim-clock.ts';
import { runDemoStep, type DemoStepOptions, type DemoStepPlan, type DemoStepResult } from './step.ts';

const day = (d: Date | undefined) => (d ? d.toISOString().slice(0, 10) : null);

/**
 * Registries, documentation and reports run on the first cycle of each simulated UTC day (the first
 * cycle of a day fills the daily slots); compute runs on the last cycle
 * of each day (so schedule/1 interval changes apply from the next day on) and on the final cycle.
 */
export function stepPlan(times: readonly Date[], i: number): DemoStepPlan {
  const today = day(times[i]);
  return {
    daily: i === 0 || day(times[i - 1]) !== today,
    compute: i === times.length - 1 || day(times[i + 1]) !== today,
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

/**
 * Run real cycles at the simulated `times` (oldest first): the listings once at the start, then one
 * demo step per time with the clock set to it. The fleet reads the same clock, so its scripted
 * events (price change, outage, documentation edits) happen at the simulated times.
 */
export async function backfill(
  ctx: Context,
  store: Store,
  clock: SimClock,
  times: readonly Date[],
  opts: DemoStepOptions & { onCycle?: (i: number, at: Date, r: DemoStepResult) => void; signal?: AbortSignal },
): Promise<BackfillResult> {
  const t0 = performance.now();
  const failures: string[] = [];
  const stepMs: Record<string, number> = {};
  let checks = 0;
  for (let i = 0; i < times.length; i++) {
    // Stop between cycles (Ctrl-C during start-up): a cycle is never cut in half.
    opts.signal?.throwIfAborted();
    const at = times[i]!;
    clock.set(at);
    if (i === 0) await ingestListings(ctx, store, ctx.paths.listings);
    const r = await runDemoStep(ctx, store, stepPlan(times, i), opts);
    checks += r.checked;
    for (const [k, v] of Object.entries(r.ms)) stepMs[k] = (stepMs[k] ?? 0) + v;
    for (const f of r.failures) if (!failures.includes(f)) failures.push(f);
    opts.onCycle?.(i, at, r);
  }
  return { cycles: times.length, checks, failures, ms: Math.round(performance.now() - t0), stepMs };
}
