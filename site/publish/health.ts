import { join } from 'node:path';
import { dbTimeToIso, type Store } from '../../pipeline/store/store.ts';
import { Health, type RunRecord, type SigningKeyInfo } from '../contract/index.ts';
import { writeJson } from './write.ts';

/** Probe runs older than this make /healthz say degraded (hourly schedule, one missed slot tolerated). */
export const HEALTH_PROBE_MAX_AGE_MS = 2 * 3_600_000;

/**
 * healthz.json: the latest run of each kind and the latest monitoring (probe) run. `status` is the
 * value at publish; serve recomputes it (and adds served_at) against its own clock. `signingKey` is
 * the public key that seals this generation (served as /healthz `signing_key`).
 */
export async function writeHealth(
  store: Store,
  genDir: string,
  now: Date,
  generation: string,
  signingKey: SigningKeyInfo | null = null,
): Promise<void> {
  const rows = await store.all<Record<string, string | null>>(
    `
    SELECT id, kind, status, scheduled_at, started_at, finished_at FROM runs WHERE started_at <= $1::TIMESTAMP
    QUALIFY row_number() OVER (PARTITION BY kind ORDER BY started_at DESC, id DESC) = 1 ORDER BY kind`,
    [now.toISOString()],
  );
  const runs: RunRecord[] = rows.map((r) => ({
    id: String(r.id),
    kind: String(r.kind),
    status: String(r.status) as RunRecord['status'],
    scheduled_at: dbTimeToIso(r.scheduled_at),
    started_at: dbTimeToIso(r.started_at) ?? String(r.started_at),
    finished_at: dbTimeToIso(r.finished_at),
  }));
  const probe = runs.find((r) => r.kind === 'probe') ?? null;
  await writeJson(
    join(genDir, 'healthz.json'),
    Health,
    {
      api_status: 'preview',
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

export function healthStatus(probe: RunRecord | null, now: Date): Health['status'] {
  if (!probe) return 'no_data';
  if (probe.status === 'failed') return 'degraded';
  return now.getTime() - new Date(probe.started_at).getTime() > HEALTH_PROBE_MAX_AGE_MS ? 'degraded' : 'ok';
}
