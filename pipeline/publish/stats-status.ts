import { API_STATUS } from '../../site/contract/common.ts';
import { join } from 'node:path';
import { computeStats, readRunLog, statusFromLog } from '../compute/index.ts';
import type { Store } from '../store/store.ts';
import { RunLog, Stats, Status } from '../../site/contract/index.ts';
import { apiPath as api } from './paths.ts';
import { writeJson } from './write.ts';

/** stats.json: compute's figures (pipeline/compute) plus api_status, validated. */
export async function writeStats(store: Store, genDir: string, now: Date): Promise<void> {
  await writeJson(api(genDir, 'stats.json'), Stats, { api_status: API_STATUS, ...(await computeStats(store, now)) }, 'stats');
}

/**
 * status.json (the figures at the publish instant, what a static host serves) and run-log.json (the
 * runs the server re-evaluates the run windows over at answer time; site/contract/run-log.ts), both
 * from one read of the runs, with the configured cycle cadence. `ownRunId` is the publish run writing this generation: it counts as ran
 * (see RunLogOptions in pipeline/compute/status.ts).
 */
export async function writeStatus(
  store: Store,
  genDir: string,
  now: Date,
  cycleEveryMinutes: number,
  ownRunId: string | null = null,
): Promise<void> {
  const log = await readRunLog(store, now, { cycleEveryMinutes, ownRunId });
  await writeJson(join(genDir, 'run-log.json'), RunLog, log, 'run log');
  await writeJson(api(genDir, 'status.json'), Status, { api_status: API_STATUS, ...(await statusFromLog(store, log, now)) }, 'status');
}
