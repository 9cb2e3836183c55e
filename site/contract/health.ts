import { z } from 'zod';
import { ApiStatus, DateTime } from './common.ts';
import { RunRecord } from './runs.ts';
import { SigningKeyInfo } from './signing.ts';

/**
 * GET /healthz: service health and the latest monitoring run. Published as `healthz.json` with
 * the publish time; serve recomputes `status` and `served_at` against its own clock.
 * status: ok | degraded (latest probe run older than two hours or failed) | no_data (never ran).
 * signing_key: the public key that signs the served generation's checksums (null before a publish).
 */
export const Health = z.strictObject({
  api_status: ApiStatus,
  status: z.enum(['ok', 'degraded', 'no_data']),
  generation: z.string().nullable(),
  generated_at: DateTime,
  served_at: DateTime.optional(),
  latest_monitoring_run: RunRecord.nullable(),
  latest_runs: z.array(RunRecord),
  signing_key: SigningKeyInfo.nullable(),
});
export type Health = z.infer<typeof Health>;
