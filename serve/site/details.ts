import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { detailAtGeneration } from '../../site/contract/answer-time.ts';
import type { ServiceDetail, ServiceDetailFile } from '../../site/contract/service-detail.ts';
import type { SiteState } from './state.ts';

/**
 * Single-service detail files (`api/v1/services/<id>.json`) read on demand from the generation
 * folder and kept in a bounded LRU per generation (keys include the generation, so a swap never
 * serves an old object for a new generation). The id was already checked against the loaded index,
 * so no path can be built from unchecked input. A detail is cached after the generation stage of
 * answer-time completion (site/contract/answer-time.ts detailAtGeneration): the file holds its
 * render's instants (site/contract/service-file.ts), the cached object the generation's
 * (`monitoring_days`, `window_start`, `directory.evaluated_at`, the daily series, `generated_at`,
 * `data_as_of`); the answer stage runs per request (serve/operations/get-service.ts).
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
      detail = detailAtGeneration(file, site);
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
