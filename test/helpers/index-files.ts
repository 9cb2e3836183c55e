import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexFileText } from '../../site/contract/index-file.ts';
import { BUCKET_OF_TEXT, bucketFile, INDEX_BUCKETS_FILE, INDEX_BUCKETS_FORMAT } from '../../site/contract/index-record.ts';

/**
 * Test helper: a generation's index as publish lays it out (site/contract/index-record.ts), every
 * record in one bucket (`bits` 0), in the order given. The records are written as they are: a test
 * may hand over a broken one.
 */
export function writeIndexFiles(genDir: string, records: readonly unknown[]): void {
  mkdirSync(join(genDir, 'index', 'summaries'), { recursive: true });
  const layout = { format: INDEX_BUCKETS_FORMAT, bucket_of: BUCKET_OF_TEXT, bits: 0, services: records.length, counts: [records.length] };
  writeFileSync(join(genDir, INDEX_BUCKETS_FILE), JSON.stringify(layout));
  if (records.length) writeFileSync(join(genDir, bucketFile(0, 0)), indexFileText(records.map((r) => JSON.stringify(r))));
}
