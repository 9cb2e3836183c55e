import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AtlasError } from '../core/errors.ts';
import {
  INDEX_BUCKETS_FILE,
  IndexBuckets,
  monitoringAsOfMs,
  monitoringDaysAt,
  bucketFile,
  type IndexRecordFile,
  type ServiceList,
  type ServiceSummary,
} from '../../site/contract/index.ts';
import { indexFileRecords } from '../../site/contract/index-file.ts';
import { compareEvidence, defaultDirectoryList } from '../../site/pages/index.ts';
import { listedSummary, STATIC_PAGE_SIZE } from '../../site/pages/static-list.ts';

/**
 * What the default order needs of one published service in the directory, and where its record is:
 * the same values as its index record's `summary.id`, `evidence.checks_30d` and
 * `evidence.monitoring_since` (publish knows them from its staged rows, services.ts).
 */
export interface ListedKey {
  id: string;
  bucket: number;
  checks_30d: number;
  monitoring_since: string;
}

/**
 * The list of the static `index.html` (the default query, site/pages/static-list.ts) without reading
 * the index: the services in the directory are ordered by the one evidence order (compareEvidence)
 * over their keys, and only the records of the first page are read from their buckets: reading
 * every bucket would cost every publish time in proportion to the whole directory.
 */
export async function staticDirectoryList(
  genDir: string,
  generatedAt: Date,
  dataAsOf: string | null,
  listed: readonly ListedKey[],
): Promise<ServiceList> {
  const asOf = monitoringAsOfMs(dataAsOf, generatedAt.toISOString());
  const light = listed.map((k) => ({
    key: k,
    order: {
      id: k.id,
      evidence: { checks_30d: k.checks_30d, monitoring_days: monitoringDaysAt(Date.parse(k.monitoring_since), asOf) },
    } as ServiceSummary,
  }));
  light.sort((a, b) => compareEvidence(a.order, b.order));
  const first = light.slice(0, STATIC_PAGE_SIZE).map((l) => l.key);
  const layout = IndexBuckets.parse(JSON.parse(await readFile(join(genDir, INDEX_BUCKETS_FILE), 'utf8')));
  const want = new Set(first.map((k) => k.id));
  const found = new Map<string, ServiceSummary>();
  for (const bucket of new Set(first.map((k) => k.bucket))) {
    for (const record of indexFileRecords(await readFile(join(genDir, bucketFile(bucket, layout.bits)), 'utf8'))) {
      const r = record as IndexRecordFile;
      if (want.has(r.summary.id)) found.set(r.summary.id, listedSummary(r.summary, asOf));
    }
  }
  const items = first.map((k) => {
    const s = found.get(k.id);
    // A key that disagrees with its record would put the page out of order: a publishing bug.
    if (!s || s.evidence.checks_30d !== k.checks_30d || s.evidence.monitoring_since !== k.monitoring_since)
      throw new AtlasError(
        'internal',
        `publish: the index record of ${k.id} in ${bucketFile(k.bucket, layout.bits)} is not the one listed`,
      );
    return s;
  });
  return { ...defaultDirectoryList([], generatedAt, dataAsOf), total: listed.length, items };
}
