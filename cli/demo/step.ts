import type { Context } from '../../pipeline/core/context.ts';
import { isAtlasError } from '../../pipeline/core/errors.ts';
import { computeAll } from '../../pipeline/compute/index.ts';
import { createDocumentationSink } from '../../pipeline/docs/index.ts';
import { ingestMcp, ingestX402 } from '../../pipeline/ingest/index.ts';
import { runProbe } from '../../pipeline/probe/index.ts';
import { freezeDueReports } from '../../pipeline/reports/index.ts';
import type { Store } from '../../pipeline/store/index.ts';

export interface DemoStepOptions {
  probeTimeoutMs: number;
  probeConcurrency: number;
}

/** Which optional steps this cycle runs (the back-fill decides from the simulated calendar). */
export interface DemoStepPlan {
  /** First cycle of a simulated day: registries, documentation pages (daily) and weekly reports. */
  daily: boolean;
  /** Last cycle of a simulated day and the final one: compute (intervals, evidence, directory). */
  compute: boolean;
  /** Probe the calls due in this slot (default true; the back-fill runs them itself when it overlaps slots). */
  probe?: boolean;
}

export interface DemoStepResult {
  checked: number;
  registries: boolean;
  failures: string[];
  ms: Record<string, number>;
}

/**
 * One back-fill cycle at the clock's (simulated) time — the steps of `atlas cycle` except publish,
 * which the back-fill runs once at the end (a publish per simulated hour would dominate the start
 * time and nobody reads those generations): registries and compute when the plan says (once per
 * simulated day, and compute at the end), documentation pages and reports once a day (both are
 * daily or weekly), probe calls every time (real HTTP against the fleet; only what is due in that
 * slot). A failing step is reported and the others run,
 * as in a real cycle.
 */
export async function runDemoStep(ctx: Context, store: Store, plan: DemoStepPlan, opts: DemoStepOptions): Promise<DemoStepResult> {
  const failures: string[] = [];
  const ms: Record<string, number> = {};
  let checked = 0;
  const step = async (name: string, fn: () => Promise<void>) => {
    const t = performance.now();
    try {
      await fn();
    } catch (e) {
      failures.push(`${name}: ${isAtlasError(e) ? e.message : ((e as Error)?.message ?? String(e))}`);
    } finally {
      ms[name] = Math.round(performance.now() - t);
    }
  };
  const registries = plan.daily;
  if (registries) {
    for (const source of ctx.config.registries.filter((r) => r.enabled)) {
      await step(`ingest_${source.kind}`, async () => {
        if (source.kind === 'x402') await ingestX402(ctx, store, { source: source.source, registry: source.name });
        else await ingestMcp(ctx, store, { source: source.source, registry: source.name });
      });
    }
  }
  // Calls and documentation in two runs (as `atlas probe` and `atlas docs` do): the documentation
  // sink writes snapshots on the same connection, so it must not overlap the call writer's batches.
  if (plan.probe !== false)
    await step('probe', async () => {
      const r = await runProbe(ctx, store, {
        only: 'calls',
        allowPrivate: true,
        timeoutMs: opts.probeTimeoutMs,
        concurrency: opts.probeConcurrency,
      });
      checked += r.counts.stored;
    });
  if (plan.daily)
    await step('docs', async () => {
      const r = await runProbe(ctx, store, {
        only: 'documentation',
        onDocumentation: createDocumentationSink(ctx, store),
        allowPrivate: true,
        timeoutMs: opts.probeTimeoutMs,
        concurrency: 4,
      });
      checked += r.counts.stored;
    });
  if (plan.compute) {
    await step('compute', async () => {
      await computeAll(ctx, store, {});
    });
  }
  if (plan.daily)
    await step('reports', async () => {
      await freezeDueReports(ctx, store);
    });
  return { checked, registries, failures, ms };
}
