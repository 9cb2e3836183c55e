import type { Store } from '../store/store.ts';
import { withRun } from '../store/runs.ts';

/**
 * Each ingest writes one `runs` row (kind `ingest_listings` | `ingest_x402` | `ingest_mcp` | `ingest_well_known`) through
 * the store's `withRun`: started as `running` outside the data transaction, finished as `ok` or
 * `partial` with the body's counts, or `failed` with the error, so a failed source still leaves a
 * record in the service's own status history.
 */
export type IngestRunKind = 'ingest_listings' | 'ingest_x402' | 'ingest_mcp' | 'ingest_well_known';

/** Run `body` as one ingest run; its result's counts and status go to the row, and its id comes back as `runId`. */
export function withIngestRun<T extends { counts: object; status?: 'ok' | 'partial' }>(
  store: Store,
  kind: IngestRunKind,
  clock: () => Date,
  args: Record<string, unknown>,
  body: (runId: string) => Promise<T>,
): Promise<T & { runId: string }> {
  return withRun(store, kind, { clock, args }, async (run) => {
    const out = await body(run.id);
    run.counts = out.counts;
    run.status = out.status ?? 'ok';
    return { ...out, runId: run.id };
  });
}
