import { join } from 'node:path';
import { readLatestRuns } from '../compute/status.ts';
import type { Store } from '../store/store.ts';
import { API_STATUS, Health, healthStatus, type SigningKeyInfo } from '../../site/contract/index.ts';
import { writeJson } from './write.ts';

/**
 * healthz.json: the latest run of each kind and the latest monitoring (probe) run. `status` is the
 * value at publish (healthStatus, site/contract/health.ts); serve recomputes it (and adds served_at)
 * against its own clock with the same rule. `signingKey` is the public key that seals this
 * generation (served as /healthz `signing_key`).
 */
export async function writeHealth(
  store: Store,
  genDir: string,
  now: Date,
  generation: string,
  signingKey: SigningKeyInfo | null = null,
): Promise<void> {
  const runs = await readLatestRuns(store, now);
  const probe = runs.find((r) => r.kind === 'probe') ?? null;
  await writeJson(
    join(genDir, 'healthz.json'),
    Health,
    {
      api_status: API_STATUS,
      status: healthStatus(probe, now),
      generation,
      generated_at: now.toISOString(),
      latest_monitoring_run: probe,
      latest_runs: runs,
      signing_key: signingKey,
    },
    'healthz',
  );
}
