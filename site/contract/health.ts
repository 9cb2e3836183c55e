import { z } from 'zod';
import { ApiStatus, DateTime } from './common.ts';
import { RunRecord } from './runs.ts';
import { SigningKeyInfo } from './signing.ts';

/**
 * GET /healthz: service health and the latest monitoring run. Published as `healthz.json` with
 * the publish time; serve recomputes `status` and `served_at` against its own clock.
 * status: ok | degraded (latest probe run older than two hours or failed) | no_data (never ran);
 * the rule is healthStatus below.
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

/**
 * How old the latest monitoring (probe) run may be before /healthz says `degraded`: two hours, two
 * slots of the hourly checks whatever the cycle cadence (the status windows count the cycle's own
 * missed slots), so one missed hour is tolerated.
 */
export const HEALTH_PROBE_MAX_AGE_MS = 2 * 3_600_000;

/**
 * The health rule (pure; the one home, evaluated at publish and again by the server against its
 * own clock): `no_data` without a monitoring run, `degraded` when it failed or started more than
 * HEALTH_PROBE_MAX_AGE_MS before `now`, else `ok`.
 */
export function healthStatus(probe: Pick<RunRecord, 'status' | 'started_at'> | null, now: Date): Health['status'] {
  if (!probe) return 'no_data';
  if (probe.status === 'failed') return 'degraded';
  return now.getTime() - Date.parse(probe.started_at) > HEALTH_PROBE_MAX_AGE_MS ? 'degraded' : 'ok';
}
