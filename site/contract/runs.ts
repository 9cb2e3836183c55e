import { z } from 'zod';
import { DateTime, RunStatus } from './common.ts';

/** One of the service's own runs (table `runs`). `kind` is open (probe, compute, ingest_x402, cycle, …). */
export const RunRecord = z.strictObject({
  id: z.string(),
  kind: z.string(),
  status: RunStatus,
  scheduled_at: DateTime.nullable(),
  started_at: DateTime,
  finished_at: DateTime.nullable(),
});
export type RunRecord = z.infer<typeof RunRecord>;
