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
 * and `payment_terms.window_start` at the generation's instant (the file holds them as of its own
 * render, site/contract/service-file.ts, or, from a generation published before, leaves them out or
 * carries only their stable part), `directory.evaluated_at` completed and `daily_checks` re-windowed
 * to the generation's day (the file's series ends with the day it was rendered), and with the
 * generation's `generated_at` and `data_as_of`.
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
      // The file's monitoring_days (if any) is its render's; the answer's is the generation's figure,
      // counted to its data_as_of (site/contract/monitoring.ts), the same value the index rows carry.
      const asOf = monitoringAsOfMs(site.dataAsOf, site.generatedAt);
      if (typeof file.evidence?.monitoring_since === 'string') detail.evidence = withMonitoringDays(file.evidence, asOf);
      // The file's window start is its first observation while limited, else 90 days before its
      // render's instant (or null, older generations): the answer's is the later of that and 90 days
      // before the generation's instant (site/contract/terms-window.ts), as for the index rows.
      if (file.payment_terms) detail.payment_terms = withTermsWindowStart(file.payment_terms, asOf);
      // The file names only a changed-scope evaluation instant; the last full evaluation's is the
      // generation's (site/contract/directory-evaluated.ts).
      if (file.directory) detail.directory = withDirectoryEvaluatedAt(file.directory, site.fullEvaluationAt);
      // A file shared across a UTC midnight holds the series of the day it was rendered; the object
      // carries the days ending with generated_at's (site/contract/daily-series.ts).
      if (Array.isArray(file.daily_checks))
        detail.daily_checks = dailySeriesAt(file.daily_checks, Date.parse(site.generatedAt), DAILY_DAYS);
      // The file's generated_at and data_as_of are its render's, perhaps an earlier generation's;
      // the answer's are the generation's publish instant and last compute. They go last, where the
      // answer has always carried them.
      delete (detail as Partial<ServiceDetail>).generated_at;
      delete (detail as Partial<ServiceDetail>).data_as_of;
      detail.generated_at = site.generatedAt;
      detail.data_as_of = site.dataAsOf;
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
