import { DirectoryScope as DirectoryScopeSchema } from '../../site/contract/common.ts';
import { z } from 'zod';
import type { Context } from '../core/context.ts';
import { jobSlotStart } from '../../site/contract/run-windows.ts';
import { refreshCheckDaily } from '../store/history.ts';
import { type Run, withRun } from '../store/runs.ts';
import type { Store } from '../store/store.ts';
import { setComputeNow } from './clock.ts';
import { materializeDeclared } from './declared.ts';
import { materializeCatalogStanding } from './catalog-standing.ts';
import { materializeDerived } from './derived.ts';
import { evaluateDirectory, isFullEvaluationDue, LISTING_CRITERIA_RULE, type DirectoryScope } from './directory.ts';
import { materializeEvidence } from './evidence.ts';
import { refreshNetworks } from './networks.ts';
import { applySchedule } from './schedule.ts';
import { materializeTerms } from './terms.ts';
import { stepTimer } from '../core/step-timer.ts';

export const ComputeOptionsSchema = z.object({
  /** full: every service's directory membership; changed: services checked or placed since their last
   *  evaluation. Omitted: full when a full evaluation is due (last one an hour old or none), else changed. */
  scope: DirectoryScopeSchema.optional(),
});
export type ComputeOptions = z.infer<typeof ComputeOptionsSchema>;

export const ComputeSummarySchema = z.object({
  run_id: z.string(),
  computed_at: z.string(),
  scope: DirectoryScopeSchema,
  rule: z.literal(LISTING_CRITERIA_RULE),
  interval_changes: z.number().int(),
  evidence_rows: z.number().int(),
  terms_services: z.number().int(),
  terms_changes: z.number().int(),
  derived_rows: z.number().int(),
  /** declared-against-observed difference events up to now, and of those the ones still open (rule declared-terms/1) */
  declared_differences: z.number().int(),
  declared_differences_open: z.number().int(),
  /** discovered services a catalog listed, with their catalog standing (service_catalog_standing) */
  catalog_standing_rows: z.number().int(),
  directory_evaluated: z.number().int(),
  directory_in: z.number().int(),
  /** services whose membership or criteria changed: the rows this run added to `directory` */
  directory_transitions: z.number().int(),
  /** check_daily rows rewritten (full runs; 0 on a changed-only run) */
  check_daily_rows: z.number().int(),
  duration_ms: z.number(),
  /** wall time of each step, for logs and the benchmark */
  steps_ms: z.record(z.string(), z.number()),
});
export type ComputeSummary = z.infer<typeof ComputeSummarySchema>;

/**
 * `atlas compute`: every computed field at one instant (ctx.clock()), in one transaction, so publish
 * never reads half a result. Order: schedule/1 (intervals in force) → evidence → payment terms →
 * derived fields → directory membership → (full runs, hourly) the days touched since the last run
 * in check_daily. Records a `runs` row of kind compute.
 */
export async function computeAll(ctx: Context, store: Store, opts: ComputeOptions = {}): Promise<ComputeSummary> {
  const now = ctx.clock();
  const t0 = performance.now();
  const scope: DirectoryScope = opts.scope ?? ((await isFullEvaluationDue(store, now)) ? 'full' : 'changed');
  return withRun(
    store,
    'compute',
    { clock: ctx.clock, startedAt: now, scheduledAt: jobSlotStart('compute', now, ctx.config.cycle.everyMinutes), args: { scope } },
    (run) => computeRun(ctx, store, now, scope, t0, run),
  );
}

async function computeRun(ctx: Context, store: Store, now: Date, scope: DirectoryScope, t0: number, run: Run): Promise<ComputeSummary> {
  const id = run.id;
  try {
    const { steps, step } = stepTimer();
    run.steps = steps; // the run's metrics textfile, also when a step fails
    let beforeCommit = 0;
    // Results are keyed by service, never read in insertion order: let DuckDB write them in parallel.
    await store.run('SET preserve_insertion_order = false');
    const summary = await store.transaction(async () => {
      await setComputeNow(store, now);
      await refreshNetworks(store);
      // One scan of the check table for this run: the temporary table shadows the view
      // check_aggregates (pipeline/store/rules.sql) for this connection, so schedule_targets and evidence_30d
      // both read it. Dropped before the transaction ends.
      await step('check_aggregates', () =>
        store.run('CREATE OR REPLACE TEMP TABLE check_aggregates AS SELECT * FROM main.check_aggregates'),
      );
      let intervalChanges: number;
      let evidenceRows: number;
      try {
        intervalChanges = await step('schedule', () => applySchedule(store, now));
        evidenceRows = await step('evidence', () => materializeEvidence(store, now));
      } finally {
        await store.run('DROP TABLE IF EXISTS temp.check_aggregates');
      }
      const terms = await step('terms', () => materializeTerms(store, now));
      const derivedRows = await step('derived', () => materializeDerived(store, now));
      const declared = await step('declared', () => materializeDeclared(store, now));
      const catalogRows = await step('catalog_standing', () => materializeCatalogStanding(store, now));
      const dir = await step('directory', () => evaluateDirectory(store, now, scope));
      const dailyRows = scope === 'full' ? await step('check_daily', () => refreshCheckDaily(store, now)) : 0;
      beforeCommit = performance.now();
      return {
        run_id: id,
        computed_at: now.toISOString(),
        scope,
        rule: LISTING_CRITERIA_RULE,
        interval_changes: intervalChanges,
        evidence_rows: evidenceRows,
        terms_services: terms.services,
        terms_changes: terms.changes,
        derived_rows: derivedRows,
        declared_differences: declared.differences,
        declared_differences_open: declared.open,
        catalog_standing_rows: catalogRows,
        directory_evaluated: dir.evaluated,
        directory_in: dir.inDirectory,
        directory_transitions: dir.transitions,
        check_daily_rows: dailyRows,
        duration_ms: 0,
        steps_ms: steps,
      } satisfies ComputeSummary;
    });
    steps.commit = Math.round(performance.now() - beforeCommit);
    await store.run('RESET preserve_insertion_order');
    summary.duration_ms = Math.round(performance.now() - t0);
    const { run_id: _r, computed_at: _c, duration_ms: _d, steps_ms: _s, ...counts } = summary;
    run.counts = counts;
    ctx.log.info('compute done', {
      scope,
      services: summary.evidence_rows,
      in_directory: summary.directory_in,
      interval_changes: summary.interval_changes,
      ms: summary.duration_ms,
    });
    return summary;
  } catch (e) {
    await store.run('RESET preserve_insertion_order').catch(() => undefined);
    throw e; // withRun records the run as failed with this message
  }
}
