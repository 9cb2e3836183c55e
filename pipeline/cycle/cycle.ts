import type { Context } from '../core/context.ts';
import { isAtlasError } from '../core/errors.ts';
import { computeAll, isFullEvaluationDue } from '../compute/index.ts';
import { createDocumentationSink } from '../docs/index.ts';
import { ingestInbox } from '../inbox/index.ts';
import { ingestListings, ingestMcp, ingestX402 } from '../ingest/index.ts';
import { runModeration } from '../moderation/index.ts';
import { PROBE_JOBS, runProbe } from '../probe/index.ts';
import { runQueuedProbe } from '../probe/queue/index.ts';
import { freezeDueReports } from '../reports/index.ts';
import { lastRunAt, migrate, refreshSnapshot, type Run, runArchive, type Store, withRun } from '../store/index.ts';
import { publish, type PublishResult } from '../publish/index.ts';
import { verifyGeneration } from '../verify/index.ts';
import { CADENCE_MS, isDue } from './due.ts';

export interface CycleOptions {
  /** Force every step (registries, full compute, publish, snapshot) regardless of cadence. */
  force?: boolean;
  /** Probe options passed through (tests and the demo). */
  probe?: { allowPrivate?: boolean; timeoutMs?: number; concurrency?: number };
  /** Skip registry sources (the demo and tests pass their own). */
  skipRegistries?: boolean;
  /** Write the researchers' snapshot when due (default true). */
  snapshot?: boolean;
  /** Services `atlas verify` recomputes after a publish (a sample seeded by the generation; default 50). */
  verifySample?: number;
  /** Publish options passed through (tests: `pages: false`; the server renders /status itself). */
  publish?: { pages?: boolean };
}

/** Services verified after each publish unless the caller says otherwise. */
export const CYCLE_VERIFY_SAMPLE = 50;

export interface StepResult {
  step: string;
  status: 'ok' | 'skipped' | 'failed';
  detail?: unknown;
  error?: string;
}

export interface CycleResult {
  steps: StepResult[];
  failed: number;
}

/**
 * One cycle: everything due, in order — ingest (listings, registries from config, the server's
 * inbox), moderation of the outcome reports not decided yet, probe (the call slots due) and docs
 * (the documentation pages due) as runs of their own kinds, compute (changed services; all hourly), the check archive (daily), reports, publish (every
 * cycle: the server counts the status windows over the run log it publishes; an incremental publish
 * renders only what changed), then verify (a sample of the published services and every frozen
 * report recomputed from the raw tables, pipeline/verify; a mismatch is logged as a warning and
 * counted in the cycle's run, it does not fail the cycle), and the researchers' snapshot hourly.
 * A step that fails is recorded and the cycle goes on (a registry that cannot be reached must not
 * stop the probes); the cycle's own run row is `partial` then.
 */
export async function runCycle(ctx: Context, store: Store, opts: CycleOptions = {}): Promise<CycleResult> {
  const now = ctx.clock();
  await migrate(store, now);
  return withRun(store, 'cycle', { clock: ctx.clock, startedAt: now, args: { force: !!opts.force } }, (run) =>
    cycleSteps(ctx, store, opts, now, run),
  );
}

async function cycleSteps(ctx: Context, store: Store, opts: CycleOptions, now: Date, run: Run): Promise<CycleResult> {
  const steps: StepResult[] = [];

  const step = async (name: string, due: boolean, fn: () => Promise<unknown>): Promise<void> => {
    if (!due) {
      steps.push({ step: name, status: 'skipped' });
      return;
    }
    const t0 = performance.now(); // the step's duration, for the run's metrics textfile only
    try {
      const detail = await fn();
      steps.push({ step: name, status: 'ok', detail });
    } catch (e) {
      const message = isAtlasError(e) ? e.message : `unexpected: ${(e as Error)?.message ?? String(e)}`;
      ctx.log.warn(`cycle: ${name} failed: ${message}`);
      steps.push({ step: name, status: 'failed', error: message });
    } finally {
      run.steps[name] = Math.round(performance.now() - t0);
    }
  };

  await step('ingest_listings', opts.force || isDue(await lastRunAt(store, 'ingest_listings'), now, CADENCE_MS.ingest_listings), async () =>
    ingestListings(ctx, store, ctx.paths.listings),
  );

  if (!opts.skipRegistries) {
    for (const source of ctx.config.registries.filter((r) => r.enabled)) {
      const kind = source.kind === 'x402' ? 'ingest_x402' : 'ingest_mcp';
      const due = opts.force || isDue(await lastRunAt(store, kind, source.name), now, CADENCE_MS.ingest_registries);
      await step(`${kind}:${source.name}`, due, async () =>
        source.kind === 'x402'
          ? ingestX402(ctx, store, { source: source.source, registry: source.name })
          : ingestMcp(ctx, store, { source: source.source, registry: source.name }),
      );
    }
  }

  await step('ingest_inbox', true, async () => ingestInbox(ctx, store));

  // Right after the inbox: every report it brought is decided by the rules (moderation/1) in the
  // same cycle, so this cycle's publish carries the decisions.
  await step('moderate', true, async () => runModeration(ctx, store));

  // Calls, then documentation pages: one run per probe job, each recorded under its own kind
  // (PROBE_JOBS), every cycle; each finds what is due itself. A failing job does not stop the other.
  // With cluster.postgres set, the calls go through the probe queue instead (pipeline/probe/queue):
  // this step loads what workers wrote back and enqueues what is due now.
  for (const job of PROBE_JOBS) {
    await step(job.kind, true, async () =>
      job.kind === 'probe' && ctx.config.cluster.postgres !== undefined
        ? runQueuedProbe(ctx, store, { ...(opts.probe ?? {}) })
        : runProbe(ctx, store, {
            ...(opts.probe ?? {}),
            only: job.only,
            ...(job.kind === 'docs' ? { onDocumentation: createDocumentationSink(ctx, store) } : {}),
          }),
    );
  }

  await step('compute', true, async () => {
    const full = opts.force || (await isFullEvaluationDue(store, ctx.clock()));
    const r = await computeAll(ctx, store, { scope: full ? 'full' : 'changed' });
    return r;
  });

  // Once a day: checks older than the archive cut move to Parquet (view checks_all still reads
  // them). Published figures never read that far back, so it does not make publish due.
  const archiveDue = opts.force || isDue(await lastRunAt(store, 'archive'), now, CADENCE_MS.archive);
  await step('archive', archiveDue, async () => {
    const r = await runArchive(store, ctx.clock);
    return { archived_rows: r.archived_rows, files: r.files.length };
  });

  await step('reports', true, async () => freezeDueReports(ctx, store));

  // Every cycle publishes: the published run log must hold this cycle's runs, or the server (which
  // re-evaluates the status windows over it) would count their slots as missed until the next
  // publish. It also publishes whatever an earlier cycle stored and was killed before publishing.
  let published: PublishResult | null = null;
  await step('publish', true, async () => {
    published = await publish(ctx, store, { ...(opts.publish ?? {}) });
    return published;
  });

  let verified: { verified: number; mismatches: number } | null = null;
  const generation = published as PublishResult | null;
  await step('verify', generation !== null, async () => {
    const r = await verifyGeneration(store, generation!.dir, { sample: opts.verifySample ?? CYCLE_VERIFY_SAMPLE });
    verified = { verified: r.checked.services, mismatches: r.mismatches.length };
    if (r.mismatches.length) {
      const first = r.mismatches
        .slice(0, 5)
        .map((m) => `${m.id} ${m.field}`)
        .join('; ');
      ctx.log.warn(`cycle: verify found ${r.mismatches.length} mismatch(es) in generation ${r.generation}: ${first}`);
    }
    return { generation: r.generation, checked: r.checked, mismatches: r.mismatches.length };
  });

  if (opts.snapshot !== false) {
    const snapDue = opts.force || isDue(await lastRunAt(store, 'snapshot'), ctx.clock(), CADENCE_MS.snapshot);
    await step('snapshot', snapDue, async () => {
      return withRun(store, 'snapshot', { clock: ctx.clock }, async (snap) => {
        const r = await refreshSnapshot(store, ctx.paths.snapshot);
        snap.counts = { bytes: r.bytes };
        return r;
      });
    });
  }

  const failed = steps.filter((s) => s.status === 'failed').length;
  run.status = failed ? 'partial' : 'ok';
  run.counts = { ...Object.fromEntries(steps.map((s) => [s.step, s.status])), ...(verified ?? {}) };
  run.error = failed
    ? steps
        .filter((s) => s.error)
        .map((s) => `${s.step}: ${s.error}`)
        .join('; ')
    : null;
  return { steps, failed };
}
