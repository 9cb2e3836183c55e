import { join } from 'node:path';
import type { IndexRecord, ServiceList, ServiceSummary } from '../contract/index.ts';
import { compareEvidence, defaultDirectoryList } from '../pages/index.ts';
import { STATIC_PAGE_SIZE } from '../pages/static-list.ts';
import { readArrayLines } from './write.ts';

/**
 * The list of the static `index.html` (the default query, site/pages/static-list.ts) read from the
 * generation's `index/summaries.json` one record at a time: only records in the directory are
 * parsed (a record in the directory always contains `"in_directory":true`; a false match is parsed
 * and dropped) and only the first page is kept, so a publish never holds the whole index in memory.
 */
export async function staticDirectoryList(genDir: string, generatedAt: Date, dataAsOf: string | null): Promise<ServiceList> {
  let total = 0;
  const top: ServiceSummary[] = [];
  for await (const line of readArrayLines(join(genDir, 'index', 'summaries.json'))) {
    if (!line.includes('"in_directory":true')) continue;
    const r = JSON.parse(line) as IndexRecord;
    if (!r.in_directory) continue;
    total += 1;
    if (top.length === STATIC_PAGE_SIZE && compareEvidence(r.summary, top[top.length - 1]!) >= 0) continue;
    let i = top.length;
    while (i > 0 && compareEvidence(r.summary, top[i - 1]!) < 0) i -= 1;
    top.splice(i, 0, r.summary);
    if (top.length > STATIC_PAGE_SIZE) top.pop();
  }
  return { ...defaultDirectoryList([], generatedAt, dataAsOf), total, items: top };
}
