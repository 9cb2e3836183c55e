import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  INDEX_SHARDS_FILE,
  IndexShards,
  monitoringAsOfMs,
  shardFile,
  type IndexRecordFile,
  type ServiceList,
  type ServiceSummary,
} from '../contract/index.ts';
import { compareEvidence, defaultDirectoryList } from '../pages/index.ts';
import { listedSummary, STATIC_PAGE_SIZE } from '../pages/static-list.ts';
import { readArrayLines } from './write.ts';

/** Every index line of a generation, shard by shard (site/contract/index-record.ts). */
export async function* indexLines(genDir: string): AsyncGenerator<string> {
  const layout = IndexShards.parse(JSON.parse(await readFile(join(genDir, INDEX_SHARDS_FILE), 'utf8')));
  for (let n = 0; n < layout.counts.length; n++) if (layout.counts[n]) yield* readArrayLines(join(genDir, shardFile(n, layout.bits)));
}

/**
 * The list of the static `index.html` (the default query, site/pages/static-list.ts) read from the
 * generation's index one record at a time: only records in the directory are parsed (a record in
 * the directory always contains `"in_directory":true`; a false match is parsed and dropped) and only
 * the first page is kept, so a publish never holds the whole index in memory.
 */
export async function staticDirectoryList(genDir: string, generatedAt: Date, dataAsOf: string | null): Promise<ServiceList> {
  const asOf = monitoringAsOfMs(dataAsOf, generatedAt.toISOString());
  let total = 0;
  const top: ServiceSummary[] = [];
  for await (const line of indexLines(genDir)) {
    if (!line.includes('"in_directory":true')) continue;
    const r = JSON.parse(line) as IndexRecordFile;
    if (!r.in_directory) continue;
    total += 1;
    const summary = listedSummary(r.summary, asOf);
    if (top.length === STATIC_PAGE_SIZE && compareEvidence(summary, top[top.length - 1]!) >= 0) continue;
    let i = top.length;
    while (i > 0 && compareEvidence(summary, top[i - 1]!) < 0) i -= 1;
    top.splice(i, 0, summary);
    if (top.length > STATIC_PAGE_SIZE) top.pop();
  }
  return { ...defaultDirectoryList([], generatedAt, dataAsOf), total, items: top };
}
