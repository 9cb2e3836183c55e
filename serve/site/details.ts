import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dailySeriesAt } from '../../site/contract/daily-series.ts';
import { withDirectoryEvaluatedAt } from '../../site/contract/directory-evaluated.ts';
import { monitoringAsOfMs, withMonitoringDays } from '../../site/contract/monitoring.ts';
import { DAILY_DAYS, type ServiceDetail, type ServiceDetailFile } from '../../site/contract/service-detail.ts';
import { withTermsWindowStart } from '../../site/contract/terms-window.ts';
import type { SiteState } from './state.ts';

/**
 * Single-service detail files (`api/v1/services/<id>.json`) read on demand from the generation
 * folder and kept in a bounded LRU per generation (keys include the generation, so a swap never
 * serves an old object for a new generation). The id was already checked against the loaded index,
 * so no path can be built from unchecked input. A detail is cached with `evidence.monitoring_days`
 * added, `directory.evaluated_at` and `payment_terms.window_start` completed (the file leaves them
 * out or carries only their stable part) and `daily_checks` re-windowed to the generation's day (the
 * file's series ends with the day it was rendered).
 */
export class DetailCache {
  private readonly map = new Map<string, ServiceDetail>();
  constructor(private readonly maxEntries = 2000) {}

  async get(site: SiteState, id: string): Promise<ServiceDetail | null> {
    const key = `${site.generation}\u0000${id}`;
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    let detail: ServiceDetail;
    try {
      const file = JSON.parse(await readFile(join(site.dir, 'api', 'v1', 'services', `${id}.json`), 'utf8')) as ServiceDetailFile;
      detail = file as unknown as ServiceDetail;
      // The file leaves out monitoring_days; it is the generation's figure, counted to its
      // data_as_of (site/contract/monitoring.ts), the same value the index rows carry.
      const asOf = monitoringAsOfMs(site.dataAsOf, site.generatedAt);
      if (typeof file.evidence?.monitoring_since === 'string') detail.evidence = withMonitoringDays(file.evidence, asOf);
      // The file carries the window start only while limited; otherwise it is 90 days before the
      // same instant (site/contract/terms-window.ts), the value the index rows carry too.
      if (file.payment_terms) detail.payment_terms = withTermsWindowStart(file.payment_terms, asOf);
      // The file names only a changed-scope evaluation instant; the last full evaluation's is the
      // generation's (site/contract/directory-evaluated.ts).
      if (file.directory) detail.directory = withDirectoryEvaluatedAt(file.directory, site.fullEvaluationAt);
      // A file shared across a UTC midnight holds the series of the day it was rendered; the object
      // carries the days ending with generated_at's (site/contract/daily-series.ts).
      if (Array.isArray(file.daily_checks))
        detail.daily_checks = dailySeriesAt(file.daily_checks, Date.parse(site.generatedAt), DAILY_DAYS);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    this.map.set(key, detail);
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
    return detail;
  }
}
