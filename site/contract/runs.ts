import { z } from 'zod';
import { DateTime } from './common.ts';

/** One of the service's own runs (table `runs`). status: running | ok | partial | failed. */
export const RunRecord = z.strictObject({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  scheduled_at: DateTime.nullable(),
  started_at: DateTime,
  finished_at: DateTime.nullable(),
});
export type RunRecord = z.infer<typeof RunRecord>;
