import { currentReport, listReports, readFrozenReport } from '../reports/index.ts';
import type { Store } from '../store/store.ts';
import { Report, ReportList } from '../../site/contract/index.ts';
import { apiPath as api } from './paths.ts';
import { writeJson } from './write.ts';

/**
 * Weekly reports from pipeline/reports: `index.json` (frozen weeks, newest first), one file per
 * frozen week with its corrections, and `current.json` (provisional week-to-date figures).
 */
export async function writeReports(store: Store, genDir: string, now: Date): Promise<number> {
  const list = await listReports(store, now);
  await writeJson(api(genDir, 'reports', 'index.json'), ReportList, list, 'reports index');
  for (const item of list.items) {
    const report = await readFrozenReport(store, new Date(`${item.id}T00:00:00Z`));
    if (report) await writeJson(api(genDir, 'reports', `${item.id}.json`), Report, report, `report ${item.id}`);
  }
  await writeJson(api(genDir, 'reports', 'current.json'), Report, await currentReport(store, now), 'current report');
  return list.items.length;
}
