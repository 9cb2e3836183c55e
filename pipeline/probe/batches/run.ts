import { RunStatus } from '../../../site/contract/common.ts';
import type { Context } from '../../core/context.ts';
import { AtlasError } from '../../core/errors.ts';
import { newRunId } from '../../store/runs.ts';
import type { Store } from '../../store/store.ts';
import { emptyCounts, type ProbeOptions, type ProbeRunSummary, probeDue, probeSettings, runSummary } from '../run-probe.ts';
import { BatchFileWriter } from './writer.ts';

/**
 * A probe worker run (`atlas probe --out DIR`, usually with `--shard I/N`): the due list comes from
 * `store`, opened read-only (the worker never writes the database; see docs/notes/sharding.md for
 * which copy of it a worker reads), the probing is `runProbe`'s own (probeDue), and the checks, their
 * payment terms and the run's `runs` row go to one batch file in `out` that `atlas ingest checks`
 * loads. A run that fails after probing still commits its file, with status `failed` and the error
 * (the checks it made are evidence); only a file that cannot be written is dropped.
 */
export async function runProbeToBatch(
  ctx: Context,
  store: Store,
  opts: ProbeOptions & { out: string },
): Promise<ProbeRunSummary & { file: string }> {
  const set = probeSettings(ctx, opts);
  const startedAt = ctx.clock();
  const runId = newRunId(set.kind, startedAt);
  const counts = emptyCounts();
  const writer = await BatchFileWriter.create(opts.out, runId);
  let error: unknown = null;
  let durationMs = 0;
  try {
    durationMs = await probeDue(ctx, store, opts, {
      runId,
      startedAt,
      counts,
      set,
      sink: writer,
      stored: async () => writer.counts(),
    });
  } catch (e) {
    error = e;
  }
  const status = error ? RunStatus.enum.failed : counts.sink_errors ? RunStatus.enum.partial : RunStatus.enum.ok;
  const message = error ? ((error as Error)?.message ?? String(error)) : null;
  let file: string;
  try {
    file = await writer.commit({
      kind: set.kind,
      scheduled_at: startedAt.toISOString(),
      started_at: startedAt.toISOString(),
      finished_at: ctx.clock().toISOString(),
      status,
      args: { ...set.args, out: opts.out },
      counts: { ...counts },
      error: message,
    });
  } catch (e) {
    await writer.abort();
    throw new AtlasError('internal', `probe batch ${runId}: could not write the batch file: ${(e as Error)?.message}`, undefined, {
      cause: error ?? e,
    });
  }
  if (error) {
    throw error instanceof AtlasError ? error : new AtlasError('internal', `probe run failed: ${message}`, undefined, { cause: error });
  }
  return { ...runSummary(runId, set, startedAt, status, counts, durationMs), file };
}
