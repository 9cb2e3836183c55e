/**
 * `evidence.monitoring_days` at an instant: the one TypeScript copy of the rule, for the server,
 * which evaluates it when it answers. The SQL copy is macro atlas_monitoring_days in
 * pipeline/store/rules.sql; a generated-case test checks that both give the same answer.
 *
 *   days = (at − monitoring_since) / 24 h, never below 0, rounded to 3 decimals.
 *
 * The instant is the generation's `data_as_of` (the compute its evidence comes from), or its
 * `generated_at` when no compute has run: the figure counts the days of monitoring history behind
 * the evidence, so it stops growing when the pipeline stops, like the 30-day counts.
 *
 * Published files leave the figure out (a value that moves merely because time passes would make
 * every service's file differ between generations, docs/notes/incremental-publish.md): the index
 * records and the single-service files carry `monitoring_since` and the server adds the days.
 * `limited_evidence` stays in the files: it flips once in a service's life (30 days after
 * monitoring_since), so keeping it costs one re-render per service, and its only home stays the SQL
 * macro atlas_limited_evidence.
 *
 * Pure and dependency-free, so the pipeline and the server can both import it.
 */

const DAY_S = 86_400;

/** Days from `sinceMs` to `atMs` (epoch milliseconds), never below 0, to 3 decimals. NaN in, 0 out. */
export function monitoringDaysAt(sinceMs: number, atMs: number): number {
  // Same arithmetic as the macro: epoch seconds (DOUBLE) subtracted, divided by a day, rounded.
  const seconds = atMs / 1000 - sinceMs / 1000;
  if (!(seconds > 0)) return 0;
  return Math.round((seconds / DAY_S) * 1000) / 1000;
}

/** The instant the days are counted to: the generation's last compute, else its publish instant. */
export function monitoringAsOfMs(dataAsOf: string | null | undefined, generatedAt: string): number {
  const t = dataAsOf ? Date.parse(dataAsOf) : Number.NaN;
  return Number.isFinite(t) ? t : Date.parse(generatedAt);
}

/**
 * A published evidence object with `monitoring_days` at `atMs`, placed right after
 * `monitoring_since` (the contract's member order). A value the object already carries (a file
 * from an older generation) is replaced by the same rule's value.
 */
export function withMonitoringDays<E extends { monitoring_since: string }>(
  evidence: E,
  atMs: number,
): Omit<E, 'monitoring_days'> & { monitoring_days: number } {
  const days = monitoringDaysAt(Date.parse(evidence.monitoring_since), atMs);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(evidence)) {
    if (k === 'monitoring_days') continue;
    out[k] = v;
    if (k === 'monitoring_since') out.monitoring_days = days;
  }
  return out as Omit<E, 'monitoring_days'> & { monitoring_days: number };
}
