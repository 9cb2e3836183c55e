import { PASS_RULE_OF_KIND } from '../../site/contract/common.ts';
import pLimit from 'p-limit';
import { z } from 'zod';
import type { Context } from '../core/context.ts';
import { AtlasError, formatIssues } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import { type CheckRow, CheckWriter } from './check-writer.ts';
import { type DueOperation, selectDue, type OnlyKind } from './due.ts';
import { hostOf, runPerHost } from './host-scheduler.ts';
import { probeRunKind } from './jobs.ts';
import { probeOne, type ProbeOutcome } from './probe-one.ts';
import { createProgress } from './progress.ts';
import { storedCounts, type RunCounts } from './runs.ts';
import { withRun } from '../store/runs.ts';
import type { Resolver } from './guarded-lookup.ts';
import { createProbeAgent, safeFetch, type Fetcher } from './safe-fetch.ts';
import { validateShard, type Shard } from './shard.ts';
import type { Terms } from '../x402/terms.ts';

/**
 * `runProbe` (CONTRACTS.md "Probe engine"): select what is due, probe it with bounded concurrency
 * (global p-limit, at most `perHost` in flight per hostname), judge each response with its pass rule,
 * and store one check per (service, operation, slot) through the batched writer. One `runs` row per run.
 * Slots come from the run's start time (`ctx.clock()` once), so a run that crosses an hour still
 * fills the slots it was started for.
 */
export type DocumentationSink = (input: {
  serviceId: string;
  operation: string;
  url: string;
  checkedAt: Date;
  status: number | null;
  passed: boolean;
  /** null when there was no response or the page exceeded the body cap (a partial page is not a snapshot). */
  body: Buffer | null;
  contentType: string | null;
}) => Promise<void>;

export interface ProbeOptions {
  all?: boolean;
  concurrency?: number;
  timeoutMs?: number;
  allowPrivate?: boolean;
  shard?: Shard;
  only?: OnlyKind;
  onDocumentation?: DocumentationSink;
  fetcher?: Fetcher;
  /** DNS replacement (tests). */
  resolver?: Resolver;
  /** Writer batching (defaults 1000 rows / 1000 ms: a SIGKILL loses at most ~1 s of results). */
  batchSize?: number;
  flushMs?: number;
  /** Live progress line on stderr (the CLI passes process.stderr.isTTY). */
  tty?: boolean;
}

/** Where a run's results go: the database (CheckWriter) or a batch file (batches/writer.ts). */
export interface CheckSink {
  /** Resolves once the row is kept (committed, or written to the batch file). */
  add(check: CheckRow, terms: Terms | null): Promise<void>;
  /** Keep what is left; call in finally. */
  close(): Promise<void>;
}

const OptionsSchema = z.object({
  concurrency: z.number().int().min(1).max(1024).optional(),
  timeoutMs: z.number().int().min(100).max(120_000).optional(),
  only: z.enum(['calls', 'documentation', 'all']).optional(),
  batchSize: z.number().int().min(1).max(100_000).optional(),
  flushMs: z.number().int().min(1).max(60_000).optional(),
});

export interface ProbeRunSummary {
  runId: string;
  kind: 'probe' | 'docs';
  startedAt: string;
  status: 'ok' | 'partial' | 'failed';
  counts: RunCounts;
  durationMs: number;
  checksPerSecond: number;
}

/** Options checked once, with the config's defaults filled in (also for batch-file runs). */
export interface ProbeSettings {
  only: OnlyKind;
  kind: 'probe' | 'docs';
  concurrency: number;
  timeoutMs: number;
  allowPrivate: boolean;
  args: Record<string, unknown>;
}

export function probeSettings(ctx: Context, opts: ProbeOptions): ProbeSettings {
  const parsed = OptionsSchema.safeParse({
    concurrency: opts.concurrency,
    timeoutMs: opts.timeoutMs,
    only: opts.only,
    batchSize: opts.batchSize,
    flushMs: opts.flushMs,
  });
  if (!parsed.success) throw new AtlasError('bad_usage', `probe options: ${formatIssues(parsed.error.issues)}`);
  if (opts.shard) validateShard(opts.shard);
  const cfg = ctx.config.probe;
  const only = opts.only ?? 'all';
  const concurrency = opts.concurrency ?? cfg.concurrency;
  const timeoutMs = opts.timeoutMs ?? cfg.timeoutMs;
  const allowPrivate = opts.allowPrivate ?? cfg.allowPrivate;
  const args = { all: !!opts.all, concurrency, timeoutMs, allowPrivate, shard: opts.shard ?? null, only };
  return { only, kind: probeRunKind(only), concurrency, timeoutMs, allowPrivate, args };
}

export const emptyCounts = (): RunCounts => ({
  due: 0,
  probed: 0,
  stored: 0,
  skipped_existing_slot: 0,
  passed: 0,
  failed: 0,
  by_reason: {},
  by_rule: {},
  payment_terms: 0,
  sink_errors: 0,
});

export async function runProbe(ctx: Context, store: Store, opts: ProbeOptions = {}): Promise<ProbeRunSummary> {
  const set = probeSettings(ctx, opts);
  const startedAt = ctx.clock();
  const counts = emptyCounts();
  let runId = '';
  let status: ProbeRunSummary['status'] = 'ok';
  let durationMs = 0;
  try {
    await withRun(store, set.kind, { clock: ctx.clock, startedAt, scheduledAt: startedAt, args: set.args }, async (run) => {
      runId = run.id;
      run.counts = counts;
      const writer = new CheckWriter(store, { batchSize: opts.batchSize ?? 1000, flushMs: opts.flushMs ?? 1000 });
      durationMs = await probeDue(ctx, store, opts, {
        runId: run.id,
        startedAt,
        counts,
        set,
        sink: writer,
        stored: () => storedCounts(store, run.id),
      });
      if (counts.sink_errors) run.status = 'partial';
      status = run.status;
    });
  } catch (error) {
    throw error instanceof AtlasError
      ? error
      : new AtlasError('internal', `probe run failed: ${(error as Error)?.message ?? String(error)}`, undefined, { cause: error });
  }
  return runSummary(runId, set, startedAt, status, counts, durationMs);
}

export function runSummary(
  runId: string,
  set: ProbeSettings,
  startedAt: Date,
  status: ProbeRunSummary['status'],
  counts: RunCounts,
  durationMs: number,
): ProbeRunSummary {
  return {
    runId,
    kind: set.kind,
    startedAt: startedAt.toISOString(),
    status,
    counts,
    durationMs,
    checksPerSecond: durationMs > 0 ? (counts.probed * 1000) / durationMs : 0,
  };
}

/**
 * The work of one probe run: probe what is due at the run's start and hand each check to `sink`.
 * Counts are read back afterwards (`stored`: from the checks table, or the batch file's own tally),
 * also when the run fails (the `runs` row keeps them). Returns the probing time in ms.
 * Memory: an outcome (response headers and body) is dropped as soon as its row is handed to the sink;
 * only documentation pages keep their body until the docs feed has taken it.
 */
export interface ProbeWork {
  runId: string;
  startedAt: Date;
  counts: RunCounts;
  set: ProbeSettings;
  sink: CheckSink;
  stored: () => Promise<Partial<RunCounts>>;
}

export function probeDue(ctx: Context, store: Store, opts: ProbeOptions, p: ProbeWork): Promise<number> {
  return probeOperations(ctx, opts, p, () =>
    selectDue(store, p.startedAt, {
      all: opts.all,
      only: p.set.only,
      shard: opts.shard,
      spreadMinutes: ctx.config.probe.spreadMinutes,
    }),
  );
}

/**
 * The probing half of `probeDue`, for a due list from anywhere: the database (probeDue) or a queued
 * job's payload (pipeline/probe/queue: a worker has no database). Same engine, pass rules, guard,
 * timeouts and per-host limits either way.
 */
export async function probeOperations(
  ctx: Context,
  opts: ProbeOptions,
  p: ProbeWork,
  selectOperations: () => Promise<DueOperation[]>,
): Promise<number> {
  const { runId, counts, sink } = p;
  const { concurrency, timeoutMs, allowPrivate } = p.set;
  const cfg = ctx.config.probe;
  const agent = opts.fetcher
    ? null
    : createProbeAgent({
        timeoutMs,
        maxHeaderBytes: cfg.maxHeaderBytes,
        allowPrivate,
        resolveMap: cfg.resolve,
        resolver: opts.resolver,
      });
  const fetcher: Fetcher =
    opts.fetcher ??
    ((req) =>
      safeFetch(req, {
        timeoutMs,
        maxBodyBytes: cfg.maxBodyBytes,
        maxHeaderBytes: cfg.maxHeaderBytes,
        allowPrivate,
        resolveMap: cfg.resolve,
        resolver: opts.resolver,
        dispatcher: agent!,
      }));
  let progress: ReturnType<typeof createProgress> | null = null;
  let error: unknown = null;
  try {
    const due = await selectOperations();
    counts.due = due.length;
    progress = createProgress({ total: due.length, tty: !!opts.tty, log: ctx.log });
    const prog = progress;
    const deps = { fetcher, settings: { userAgent: cfg.userAgent, contactUrl: cfg.contactUrl }, secret: ctx.secret, now: ctx.clock };
    const sinkWork: Promise<void>[] = [];
    // Not async: nothing here may keep `o` (its response) alive while the row waits for its batch.
    const keep = (o: ProbeOutcome): Promise<void> => {
      counts.probed++;
      prog.tick();
      const durable = sink.add(toRow(o, runId), o.terms);
      if (o.op.kind === 'documentation' && opts.onDocumentation) {
        const docSink = opts.onDocumentation;
        const page = docInput(o);
        sinkWork.push(
          durable
            .then(() => docSink(page))
            .catch((e) => {
              counts.sink_errors++;
              ctx.log.warn('documentation sink failed', {
                service: page.serviceId,
                operation: page.operation,
                error: (e as Error)?.message,
              });
            }),
        );
      }
      return durable;
    };
    // The global slot covers the request only; storing happens after it is released.
    const global = pLimit(concurrency);
    let writeError: unknown = null;
    // The database writer hands every row of a batch the same promise: watch each promise once.
    let watched: Promise<void> | null = null;
    await runPerHost(
      due,
      (op) => hostOf(op.url),
      { perHost: cfg.perHost, concurrency, global },
      async (op) => {
        if (writeError) throw writeError; // stop probing once results can no longer be stored
        const durable = keep(await probeOne(op, deps));
        if (durable !== watched) {
          watched = durable;
          durable.catch((e) => (writeError ??= e));
        }
      },
    );
    await sink.close();
    if (writeError) throw writeError;
    await Promise.all(sinkWork);
  } catch (e) {
    error = e;
  } finally {
    progress?.end();
    await sink.close().catch((e) => (error ??= e));
    await agent?.close().catch(() => undefined);
  }
  try {
    Object.assign(counts, await p.stored());
    counts.skipped_existing_slot = Math.max(0, counts.probed - counts.stored);
  } catch (e) {
    error ??= e;
  }
  if (error) throw error;
  return progress?.elapsedMs() ?? 0;
}

function toRow(o: ProbeOutcome, runId: string): CheckRow {
  const r = o.response;
  return {
    serviceId: o.op.serviceId,
    operation: o.op.operation,
    slot: o.op.slot,
    checkedAt: o.checkedAt,
    status: r.ok ? r.status : null,
    passed: o.verdict.passed,
    reason: o.verdict.reason,
    rule: o.verdict.rule,
    latencyMs: round(r.totalMs),
    ttfbMs: r.ttfbMs === null ? null : round(r.ttfbMs),
    runId,
    url: o.op.url,
    method: o.op.passRule === PASS_RULE_OF_KIND.mcp ? 'GET' : o.op.method,
    bytes: r.ok ? r.bytes : null,
    detail: o.verdict.detail ? o.verdict.detail.slice(0, 300) : null,
    protocols: o.protocols,
    authSchemes: o.authSchemes,
    signedOffers: o.signedOffers,
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function docInput(o: ProbeOutcome): Parameters<DocumentationSink>[0] {
  const r = o.response;
  return {
    serviceId: o.op.serviceId,
    operation: o.op.operation,
    url: o.op.url,
    checkedAt: o.checkedAt,
    status: r.ok ? r.status : null,
    passed: o.verdict.passed,
    body: r.ok && !r.truncated ? r.body : null,
    contentType: r.ok ? (r.headers['content-type'] ?? null) : null,
  };
}
