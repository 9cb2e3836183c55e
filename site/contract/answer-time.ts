import { API_STATUS, scheduleTierServed } from './common.ts';
import { type Health, healthStatus } from './health.ts';
import type { RunLog } from './run-log.ts';
import { runWindows } from './run-windows.ts';
import type { RunRecord } from './runs.ts';
import { DAILY_DAYS, type ServiceDetail, type ServiceDetailFile } from './service-detail.ts';
import { SigningKeyInfo } from './signing.ts';
import { dailySeriesAt } from './daily-series.ts';
import { withDirectoryEvaluatedAt } from './directory-evaluated.ts';
import { type FreshnessState, freshnessAt } from './freshness.ts';
import type { IndexSearch } from './index-record.ts';
import { monitoringAsOfMs, withMonitoringDays } from './monitoring.ts';
import type { ServiceSummary, ServiceSummaryFile } from './summary.ts';
import { withTermsWindowStart } from './terms-window.ts';

/**
 * Answer-time completion: the one home of the step that turns a published file into the object the
 * API serves. A published file leaves out (or holds only the stable part of) every value that moves
 * merely because time passes or that depends on the server, so that an unchanged service's file is
 * shared, byte for byte, by later generations (docs/notes/incremental-publish.md). This module puts
 * them back, in two stages:
 *
 *   per generation (the generation's instants: its `generated_at`, last compute `data_as_of`, last
 *   full directory evaluation), done once when a generation is loaded or a file is first read:
 *     - `evidence.monitoring_days`, counted to data_as_of, else generated_at (monitoring.ts);
 *     - `payment_terms.window_start` once tracking has run 90 days (terms-window.ts);
 *     - detail only: `directory.evaluated_at` with the file-only `scope` dropped
 *       (directory-evaluated.ts), `daily_checks` re-windowed to generated_at's day (daily-series.ts),
 *       `generated_at` and `data_as_of` the generation's (a shared file holds its render's);
 *
 *   per answer (the answer instant and the server's base URL), on every response:
 *     - `evidence.freshness` against the answer instant (freshness.ts), from the index record's
 *       inputs (FreshnessInputs);
 *     - `evidence.schedule_tier` served until the contract's sunset (common.ts), else dropped;
 *     - `links` made absolute when a base URL is configured;
 *     - detail only: the `fresh` criterion and `in_directory` (every other criterion passed at
 *       publish, and fresh now).
 *
 * The resources that carry answer-time values are completed here too: stats (the generation's
 * `data_as_of`), status (run windows, `generated_at` and evidence freshness at the answer) and
 * health (its status by the contract's rule at the answer, `served_at`).
 *
 * Each stage keeps the member order of its input (the published order the search answer's
 * serialization is spliced into), never mutates its input, and depends on its arguments only.
 * completeSummary / completeDetail compose both stages: what a reader of the published files (a
 * static-host client, a test) gets for a given generation and answer instant.
 *
 * Pure and importing only the contract, so the server and the pipeline can both use it.
 */

/** A generation's instants (manifest `generated_at`, run log `data_as_of`, `directory_full_evaluation_at`). */
export interface GenerationInstants {
  generatedAt: string;
  dataAsOf: string | null;
  fullEvaluationAt: string | null;
}

/** An answer's instant and the server's public base URL (absent: links stay relative). */
export interface AnswerInstant {
  now: Date;
  baseUrl?: string | undefined;
}

/** What freshness and membership are recomputed from (a service's index record, `search`). */
export interface FreshnessInputs {
  lastCheckMs: number | null;
  intervalHours: number;
  criteriaExceptFresh: boolean;
}

/** The freshness inputs of an index record's search members. */
export function freshnessInputsOf(
  search: Pick<IndexSearch, 'last_check_at' | 'check_interval_hours' | 'criteria_except_fresh'>,
): FreshnessInputs {
  const last = search.last_check_at === null ? Number.NaN : Date.parse(search.last_check_at);
  return {
    lastCheckMs: Number.isFinite(last) ? last : null,
    intervalHours: search.check_interval_hours,
    criteriaExceptFresh: search.criteria_except_fresh,
  };
}

/** The instant a generation's evidence figures and terms window count to. */
export function generationAsOfMs(gen: Pick<GenerationInstants, 'generatedAt' | 'dataAsOf'>): number {
  return monitoringAsOfMs(gen.dataAsOf, gen.generatedAt);
}

/**
 * The members stage 1 replaces in a summary (an index record's, or a detail file's members shared
 * with it) at `asOfMs` (generationAsOfMs): `evidence` with `monitoring_days`, `payment_terms` with
 * `window_start`. A member that is not shaped as the file schema says is not returned (it stays as it
 * is, so that the contract check of the result rejects it). Every returned member is a member of
 * `file`, so assigning them keeps its member order.
 */
export function summaryMembersAsOf(
  file: Pick<ServiceSummaryFile, 'evidence' | 'payment_terms'>,
  asOfMs: number,
): Partial<Pick<ServiceSummary, 'evidence' | 'payment_terms'>> {
  const out: Partial<Pick<ServiceSummary, 'evidence' | 'payment_terms'>> = {};
  const e = file.evidence as { monitoring_since?: unknown } | null | undefined;
  if (e && typeof e.monitoring_since === 'string') out.evidence = withMonitoringDays(file.evidence, asOfMs);
  const t = file.payment_terms as { window_start?: unknown } | null | undefined;
  if (t && (t.window_start === null || typeof t.window_start === 'string'))
    out.payment_terms = withTermsWindowStart(file.payment_terms, asOfMs);
  return out;
}

/** Stage 1 of a summary at `asOfMs`: a copy of `file` with summaryMembersAsOf's members, in place. */
export function summaryAsOf<S extends Pick<ServiceSummaryFile, 'evidence' | 'payment_terms'>>(
  file: S,
  asOfMs: number,
): Omit<S, 'evidence' | 'payment_terms'> & Pick<ServiceSummary, 'evidence' | 'payment_terms'> {
  return { ...file, ...summaryMembersAsOf(file, asOfMs) } as Omit<S, 'evidence' | 'payment_terms'> &
    Pick<ServiceSummary, 'evidence' | 'payment_terms'>;
}

/** Stage 1 of a summary: the generation's completion of an index record's summary. */
export function summaryAtGeneration(file: ServiceSummaryFile, gen: GenerationInstants): ServiceSummary {
  return summaryAsOf(file, generationAsOfMs(gen)) as ServiceSummary;
}

/**
 * Stage 1 of a single-service file: the summary members as summaryAsOf, `directory.evaluated_at`,
 * the daily series ending with generated_at's day, and `generated_at` / `data_as_of` the
 * generation's, moved last (where the answer has always carried them).
 */
export function detailAtGeneration(file: ServiceDetailFile, gen: GenerationInstants): ServiceDetail {
  const out = summaryAsOf(file, generationAsOfMs(gen)) as Record<string, unknown>;
  if (file.directory) out.directory = withDirectoryEvaluatedAt(file.directory, gen.fullEvaluationAt);
  if (Array.isArray(file.daily_checks)) out.daily_checks = dailySeriesAt(file.daily_checks, Date.parse(gen.generatedAt), DAILY_DAYS);
  delete out.generated_at;
  delete out.data_as_of;
  out.generated_at = gen.generatedAt;
  out.data_as_of = gen.dataAsOf;
  return out as ServiceDetail;
}

/** Freshness of a service at `now` (the rule's one home is freshness.ts). */
export function freshnessAtAnswer(inputs: Pick<FreshnessInputs, 'lastCheckMs' | 'intervalHours'>, now: Date): FreshnessState {
  return freshnessAt(inputs.lastCheckMs, inputs.intervalHours, now.getTime());
}

/** Set or drop `schedule_tier` on an evidence object at `now` (a copy; position kept when present). */
export function withScheduleTier<E extends object>(evidence: E, now: Date): E {
  const out = { ...evidence } as Record<string, unknown>;
  if (scheduleTierServed(now)) out.schedule_tier = out.check_interval;
  else delete out.schedule_tier;
  return out as E;
}

/** What a link that is a path is prefixed with under `baseUrl`: the URL without trailing slashes ('' when unset). */
export function linkPrefix(baseUrl: string | undefined): string {
  return baseUrl ? baseUrl.replace(/\/+$/, '') : '';
}

/** Links as served: prefixed with linkPrefix when a base URL is set and the link is a path. */
export function linksAt(l: { page: string; api: string }, baseUrl: string | undefined): { page: string; api: string } {
  if (!baseUrl) return l;
  const b = linkPrefix(baseUrl);
  const abs = (p: string) => (p.startsWith('/') ? `${b}${p}` : p);
  return { page: abs(l.page), api: abs(l.api) };
}

/** Stage 2 of a summary: freshness, schedule_tier and links at the answer. */
export function summaryAtAnswer(summary: ServiceSummary, inputs: FreshnessInputs, answer: AnswerInstant): ServiceSummary {
  const evidence = withScheduleTier({ ...summary.evidence, freshness: freshnessAtAnswer(inputs, answer.now) }, answer.now);
  return { ...summary, evidence, links: linksAt(summary.links, answer.baseUrl) };
}

/** Stage 2 of a single-service object: as a summary's, plus the `fresh` criterion and membership. */
export function detailAtAnswer(detail: ServiceDetail, inputs: FreshnessInputs, answer: AnswerInstant): ServiceDetail {
  const freshness = freshnessAtAnswer(inputs, answer.now);
  const fresh = freshness === 'fresh';
  const inDirectory = inputs.criteriaExceptFresh && fresh;
  const evidence = withScheduleTier({ ...detail.evidence, freshness }, answer.now);
  const criteria = detail.directory.criteria.map((c) =>
    c.id === 'fresh' ? { ...c, passed: c.applies ? fresh : null, value: freshness } : c,
  );
  return {
    ...detail,
    evidence,
    links: linksAt(detail.links, answer.baseUrl),
    in_directory: inDirectory,
    directory: { ...detail.directory, in_directory: inDirectory, criteria },
  };
}

/** A published summary as served for `gen` at `answer` (both stages). */
export function completeSummary(
  file: ServiceSummaryFile,
  inputs: FreshnessInputs,
  gen: GenerationInstants,
  answer: AnswerInstant,
): ServiceSummary {
  return summaryAtAnswer(summaryAtGeneration(file, gen), inputs, answer);
}

/** A published single-service file as served for `gen` at `answer` (both stages; no referral_id). */
export function completeDetail(
  file: ServiceDetailFile,
  inputs: FreshnessInputs,
  gen: GenerationInstants,
  answer: AnswerInstant,
): ServiceDetail {
  return detailAtAnswer(detailAtGeneration(file, gen), inputs, answer);
}

/** Services by freshness at `now` (GET /api/v1/status `evidence_freshness`). */
export function freshnessCountsAt(
  services: readonly Pick<FreshnessInputs, 'lastCheckMs' | 'intervalHours'>[],
  now: Date,
): { fresh: number; stale: number; no_data: number; total: number } {
  const out = { fresh: 0, stale: 0, no_data: 0, total: services.length };
  for (const s of services) out[freshnessAtAnswer(s, now)] += 1;
  return out;
}

/** GET /api/v1/stats as served: the published figures (windows ending at their own generated_at), with the generation's `data_as_of` when the file has none. */
export function statsAtGeneration<B extends Record<string, unknown>>(body: B, gen: Pick<GenerationInstants, 'dataAsOf'>): B {
  return { ...body, data_as_of: body.data_as_of ?? gen.dataAsOf };
}

/**
 * GET /api/v1/status as served at `now`: the run windows (run-windows.ts) recomputed over the
 * published run log, so a pipeline that stopped shows its missed slots, `generated_at` the answer
 * instant (the end of every window), and evidence freshness counted over `services` at `now`. A
 * generation published without a run log keeps its published windows (frozen at its own
 * generated_at); freshness is recomputed either way.
 */
export function statusAtAnswer(
  body: Record<string, unknown>,
  gen: Pick<GenerationInstants, 'dataAsOf'> & { runLog: RunLog | null },
  services: readonly Pick<FreshnessInputs, 'lastCheckMs' | 'intervalHours'>[],
  now: Date,
): Record<string, unknown> {
  const evidence_freshness = freshnessCountsAt(services, now);
  const log = gen.runLog;
  if (!log) return { ...body, data_as_of: body.data_as_of ?? gen.dataAsOf, evidence_freshness };
  return {
    ...body,
    generated_at: now.toISOString(),
    data_as_of: log.data_as_of,
    ...runWindows({ operatingSince: log.operating_since, runs: log.runs, cycleEveryMinutes: log.cycle_every_minutes }, now),
    evidence_freshness,
  };
}

/**
 * GET /healthz as served at `now` from the published `healthz.json` (null before the first publish):
 * `status` by the contract's rule (health.ts) at `now`, the generation's id and `generated_at` (the
 * answer instant before any publish), `served_at` the answer instant, and the published signing key
 * when it is well formed (else null).
 */
export function healthAtAnswer(
  published: Record<string, unknown> | null,
  gen: { generation: string; generatedAt: string } | null,
  now: Date,
): Health {
  const latest = (published?.latest_monitoring_run as RunRecord | null | undefined) ?? null;
  const runs = (published?.latest_runs as RunRecord[] | undefined) ?? [];
  const key = SigningKeyInfo.safeParse(published?.signing_key);
  return {
    api_status: API_STATUS,
    status: healthStatus(latest, now),
    generation: gen?.generation ?? null,
    generated_at: gen?.generatedAt ?? now.toISOString(),
    served_at: now.toISOString(),
    latest_monitoring_run: latest,
    latest_runs: runs,
    signing_key: key.success ? key.data : null,
  };
}
