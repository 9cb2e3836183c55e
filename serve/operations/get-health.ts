import { healthAtAnswer } from '../../site/contract/answer-time.ts';
import type { Health } from '../../site/contract/health.ts';
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
  return healthAtAnswer(site?.resources.healthz ?? null, site ?? null, now);
}
