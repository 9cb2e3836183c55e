import type { Context } from '../core/context.ts';
import type { Store } from '../store/store.ts';
import { probeJobsFor } from './jobs.ts';
import { type ProbeOptions, type ProbeRunSummary, runProbe } from './run-probe.ts';

/**
 * Run the probe jobs `opts.only` covers (default all), one `runProbe` run each, in sequence: the
 * documentation sink writes snapshots on the store's one connection, so the documentation run never
 * overlaps the call writer's batches. `onDocumentation` goes to the documentation run only. A run
 * that throws stops the sequence (its row is recorded as failed; the next job is not recorded as run).
 */
export async function runProbeJobs(ctx: Context, store: Store, opts: ProbeOptions = {}): Promise<ProbeRunSummary[]> {
  const out: ProbeRunSummary[] = [];
  for (const job of probeJobsFor(opts.only ?? 'all')) {
    const { onDocumentation, ...rest } = opts;
    out.push(
      await runProbe(ctx, store, { ...rest, only: job.only, ...(job.kind === 'docs' && onDocumentation ? { onDocumentation } : {}) }),
    );
  }
  return out;
}
