import { PASS_RULE_OF_KIND } from '../../site/contract/common.ts';
import pLimit from 'p-limit';
import { z } from 'zod';
import type { Context } from '../core/context.ts';
import { AtlasError, formatIssues } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import { CheckWriter } from './check-writer.ts';
import { selectDue, type DueOperation, type OnlyKind } from './due.ts';
import { hostOf, runPerHost } from './host-scheduler.ts';
import { probeOne, type ProbeOutcome } from './probe-one.ts';
import { createProgress } from './progress.ts';
import { storedCounts, type RunCounts } from './runs.ts';
import { type Run, withRun } from '../store/runs.ts';
import type { Resolver } from './guarded-lookup.ts';
import { createProbeAgent, safeFetch, type Fetcher } from './safe-fetch.ts';
import { validateShard, type Shard } from './shard.ts';

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

export async function runProbe(ctx: Context, store: Store, opts: ProbeOptions = {}): Promise<ProbeRunSummary> {
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
  const kind = only === 'documentation' ? 'docs' : 'probe';
  const concurrency = opts.concurrency ?? cfg.concurrency;
  const timeoutMs = opts.timeoutMs ?? cfg.timeoutMs;
  const allowPrivate = opts.allowPrivate ?? cfg.allowPrivate;
  const startedAt = ctx.clock();
  const args = { all: !!opts.all, concurrency, timeoutMs, allowPrivate, shard: opts.shard ?? null, only };
  const counts: RunCounts = {
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
  };
  let runId = '';
  let status: ProbeRunSummary['status'] = 'ok';
  let durationMs = 0;
  try {
    await withRun(store, kind, { clock: ctx.clock, startedAt, scheduledAt: startedAt, args }, async (run) => {
      runId = run.id;
      run.counts = counts;
      durationMs = await probeDue(ctx, store, opts, { run, counts, only, concurrency, timeoutMs, allowPrivate });
      status = run.status;
    });
  } catch (error) {
    throw error instanceof AtlasError
      ? error
      : new AtlasError('internal', `probe run failed: ${(error as Error)?.message ?? String(error)}`, undefined, { cause: error });
  }
  return {
    runId,
    kind,
    startedAt: startedAt.toISOString(),
    status,
    counts,
    durationMs,
    checksPerSecond: durationMs > 0 ? (counts.probed * 1000) / durationMs : 0,
  };
}

/**
 * The work of one probe run: probe what is due at the run's start and store the checks. Counts are
 * read back from the checks table afterwards, also when the run fails (the `runs` row keeps them).
 * Returns the probing time in ms; `run.status` becomes `partial` when the documentation sink failed.
 */
async function probeDue(
  ctx: Context,
  store: Store,
  opts: ProbeOptions,
  p: { run: Run; counts: RunCounts; only: OnlyKind; concurrency: number; timeoutMs: number; allowPrivate: boolean },
): Promise<number> {
  const { run, counts, only, concurrency, timeoutMs, allowPrivate } = p;
  const runId = run.id;
  const startedAt = run.startedAt;
  const cfg = ctx.config.probe;
  const writer = new CheckWriter(store, { batchSize: opts.batchSize ?? 1000, flushMs: opts.flushMs ?? 1000 });
  const agent = opts.fetcher
    ? null
    : createProbeAgent({
        timeoutMs,
        maxHeaderBytes: cfg.maxHeaderBytes,
        allowPrivate,
        resolveMap: cfg.resolve,
        resolver: opts.resolver,
        connectionsPerOrigin: cfg.perHost,
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
    await writer.open();
    const due = await selectDue(store, startedAt, { all: opts.all, only, shard: opts.shard });
    counts.due = due.length;
    progress = createProgress({ total: due.length, tty: !!opts.tty, log: ctx.log });
    const prog = progress;
    const deps = { fetcher, settings: { userAgent: cfg.userAgent, contactUrl: cfg.contactUrl }, secret: ctx.secret, now: ctx.clock };
    const sinkWork: Promise<void>[] = [];
    const store1 = async (o: ProbeOutcome) => {
      counts.probed++;
      prog.tick();
      const durable = writer.add(toRow(o, runId), o.terms);
      if (o.op.kind === 'documentation' && opts.onDocumentation) {
        const sink = opts.onDocumentation;
        sinkWork.push(
          durable
            .then(() => sink(docInput(o)))
            .catch((e) => {
              counts.sink_errors++;
              ctx.log.warn('documentation sink failed', {
                service: o.op.serviceId,
                operation: o.op.operation,
                error: (e as Error)?.message,
              });
            }),
        );
      }
      await durable;
    };
    // The global slot covers the request only; storing happens after it is released.
    const global = pLimit(concurrency);
    let writeError: unknown = null;
    await runPerHost(
      unique(due),
      (op) => hostOf(op.url),
      { perHost: cfg.perHost, concurrency, global },
      async (op) => {
        if (writeError) throw writeError; // stop probing once results can no longer be stored
        const outcome = await probeOne(op, deps);
        store1(outcome).catch((e) => (writeError ??= e));
      },
    );
    await writer.close();
    if (writeError) throw writeError;
    await Promise.all(sinkWork);
  } catch (e) {
    error = e;
  } finally {
    progress?.end();
    await writer.close().catch((e) => (error ??= e));
    await agent?.close().catch(() => undefined);
  }
  try {
    Object.assign(counts, await storedCounts(store, runId));
    counts.skipped_existing_slot = Math.max(0, counts.probed - counts.stored);
  } catch (e) {
    error ??= e;
  }
  if (error) throw error;
  if (counts.sink_errors) run.status = 'partial';
  return progress?.elapsedMs() ?? 0;
}

/** Never the same operation twice in one run (the SQL already returns one row per operation). */
function unique(due: DueOperation[]): DueOperation[] {
  const seen = new Set<string>();
  return due.filter((d) => {
    const k = `${d.serviceId}\u0000${d.operation}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function toRow(o: ProbeOutcome, runId: string) {
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
