import { API_STATUS } from '../../site/contract/common.ts';
import { type Health, healthStatus } from '../../site/contract/health.ts';
import type { RunRecord } from '../../site/contract/runs.ts';
import { SigningKeyInfo } from '../../site/contract/signing.ts';
import type { AppDeps } from '../deps.ts';

/**
 * GET /healthz: service health and the latest monitoring run. The published `healthz.json` carries
 * the runs; `status` is recomputed against the server's clock with the contract's rule (healthStatus,
 * site/contract/health.ts): `no_data` before any monitoring run (or before the first publish),
 * `degraded` when the latest run failed or is too old, else `ok`. Always 200: the answer is itself
 * the health report. `signing_key` is the public key published with the served generation (the one
 * its checksums.json verifies with); null before the first publish or for a generation published
 * without one.
 */
export async function getHealth(deps: AppDeps): Promise<Health> {
  const now = deps.clock();
  const site = deps.site.peek();
  const published = site?.resources.healthz ?? null;
  const latest = (published?.latest_monitoring_run as RunRecord | null | undefined) ?? null;
  const runs = (published?.latest_runs as RunRecord[] | undefined) ?? [];
  const key = SigningKeyInfo.safeParse(published?.signing_key);
  return {
    api_status: API_STATUS,
    status: healthStatus(latest, now),
    generation: site?.generation ?? null,
    generated_at: site?.generatedAt ?? now.toISOString(),
    served_at: now.toISOString(),
    latest_monitoring_run: latest,
    latest_runs: runs,
    signing_key: key.success ? key.data : null,
  };
}
