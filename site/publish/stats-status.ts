import { computeStats, computeStatus } from '../../pipeline/compute/index.ts';
import type { Store } from '../../pipeline/store/store.ts';
import { Stats, Status } from '../contract/index.ts';
import { apiPath as api } from './paths.ts';
import { writeJson } from './write.ts';

/** stats.json and status.json: compute's figures (pipeline/compute) plus api_status, validated. */
export async function writeStats(store: Store, genDir: string, now: Date): Promise<void> {
  await writeJson(api(genDir, 'stats.json'), Stats, { api_status: 'preview', ...(await computeStats(store, now)) }, 'stats');
}

export async function writeStatus(store: Store, genDir: string, now: Date): Promise<void> {
  await writeJson(api(genDir, 'status.json'), Status, { api_status: 'preview', ...(await computeStatus(store, now)) }, 'status');
}
