import { readFileSync } from 'node:fs';
import {
  bucketFile,
  IndexSearch,
  type IndexRecordFile,
  type RenderInstants,
  ServiceDetailFile,
  serviceFileAt,
} from '../../site/contract/index.ts';
import { indexFileLines, indexFileText, indexLineId } from '../../site/contract/index-file.ts';
import type { Logger } from '../core/log.ts';
import type { FingerprintRow } from './fingerprint.ts';
import { linkFrom, PreviousGenerationUnusable } from './incremental.ts';
import { detailPath, pagePath } from './link-set.ts';
import type { BucketPlan } from './plan-sharing.ts';
import type { RowBatches } from './row-batches.ts';
import { criteriaOf, detailOf, indexRecordOf, type Row, summaryOf } from './rows.ts';
import { validated } from './write.ts';

/** What writing one bucket file needs (services.ts builds it once per publish). */
export interface BucketWork {
  genDir: string;
  /** The previous generation's folder (null: a full render, nothing is linked or copied). */
  previousDir: string | null;
  bits: number;
  now: Date;
  /** The daily series' days at the publish instant (site/contract/daily-series.ts). */
  days: string[];
  render: RenderInstants;
  log: Logger;
  rows: RowBatches;
  write: (rel: string, text: string) => Promise<void>;
  page?: ((detail: ServiceDetailFile) => string) | undefined;
  /** A service published (shared or rendered), in ordinal order. */
  published: (row: FingerprintRow, rendered: boolean) => void;
  /** A bucket hard-linked from the previous generation (its generation-relative path). */
  linked: (rel: string) => void;
  /** A row that did not make a valid contract object (skipped from every file, logged). */
  invalid: () => void;
  /** The count of records the bucket holds. */
  counted: (bucket: number, n: number) => void;
}

/** Write one bucket file as the plan says; a bucket planned `link` that cannot be linked is copied. */
export async function writeBucket(w: BucketWork, b: BucketPlan): Promise<void> {
  if (b.action === 'link' && linkBucket(w, b)) return;
  if (b.action === 'render') await renderBucket(w, b);
  else await copyBucket(w, b);
}

/** Every service unchanged and none left: the bucket file is the previous generation's. */
function linkBucket(w: BucketWork, b: BucketPlan): boolean {
  const rel = bucketFile(b.bucket, w.bits);
  if (!w.previousDir || !linkFrom(w.previousDir, w.genDir, rel)) return false;
  w.linked(rel);
  for (const s of b.services) w.published(s.row, false);
  w.counted(b.bucket, b.services.length);
  return true;
}

/** Every service unchanged: the bucket's lines are copied from the previous bucket file. */
async function copyBucket(w: BucketWork, b: BucketPlan): Promise<void> {
  const rel = bucketFile(b.bucket, w.bits);
  const old = previousLines(w, rel);
  const lines = b.services.map((s) => sharedLine(old, s.row, rel));
  for (const s of b.services) w.published(s.row, false);
  await finishBucket(w, b.bucket, lines);
}

/** At least one service changed: its records are rendered, the unchanged ones' lines copied. */
async function renderBucket(w: BucketWork, b: BucketPlan): Promise<void> {
  const rel = bucketFile(b.bucket, w.bits);
  const old = b.services.some((s) => s.shared) ? previousLines(w, rel) : null;
  const lines: string[] = [];
  for (const s of b.services) {
    if (s.shared) {
      lines.push(sharedLine(old!, s.row, rel));
      w.published(s.row, false);
      continue;
    }
    const line = await renderService(w, await w.rows.next(s.row.ord), s.row);
    if (line !== null) lines.push(line);
  }
  await finishBucket(w, b.bucket, lines);
}

async function finishBucket(w: BucketWork, bucket: number, lines: string[]): Promise<void> {
  w.counted(bucket, lines.length);
  // One record per line, so the next publish can copy lines (site/contract/index-file.ts).
  if (lines.length) await w.write(bucketFile(bucket, w.bits), indexFileText(lines));
}

/**
 * A service's index line as the previous generation's bucket file has it, by id. Read
 * synchronously: a bucket is a few kilobytes in the page cache, and at 2% changed of 100,000
 * services about 1,800 of them are read one after another, where each asynchronous read waited
 * its turn in libuv's pool behind the file writer and the link worker. A bucket that cannot be
 * read makes the previous generation unusable.
 */
function previousLines(w: BucketWork, rel: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(`${w.previousDir}/${rel}`, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    throw new PreviousGenerationUnusable(`publish: the previous generation has no ${rel}`, { cause: e });
  }
  const out = new Map<string, string>();
  for (const line of indexFileLines(text)) out.set(indexLineId(line), line);
  return out;
}

function sharedLine(old: Map<string, string>, row: FingerprintRow, rel: string): string {
  const line = old.get(row.id);
  if (line === undefined)
    throw new PreviousGenerationUnusable(`publish: ${row.id} is unchanged but missing from the previous generation's ${rel}`);
  return line;
}

/**
 * Shape, validate and write one changed service (detail file, and page with `page`); its index
 * line, or null when its row does not make a valid contract object (one bad registry row must not
 * stop every publish).
 */
async function renderService(w: BucketWork, row: Row, key: FingerprintRow): Promise<string | null> {
  let record: IndexRecordFile;
  let detail: ServiceDetailFile;
  try {
    const summary = summaryOf(row, w.now);
    const criteria = criteriaOf(row);
    // The detail holds every summary member under the same schemas, so validating the detail
    // validates the summary; the index record's own part is `search` (saves a second pass).
    detail = validated(ServiceDetailFile, serviceFileAt(detailOf(row, summary, criteria, w.days), w.render), `service ${summary.id}`);
    record = indexRecordOf(row, summary, criteria);
    validated(IndexSearch, record.search, `index record of ${summary.id}`);
  } catch (e) {
    w.invalid();
    w.log.warn(`publish: skipped ${String(row.id)}: ${(e as Error).message}`);
    return null;
  }
  w.published(
    {
      ...key,
      id: detail.id,
      in_directory: record.in_directory,
      checks_30d: record.summary.evidence.checks_30d,
      monitoring_since: record.summary.evidence.monitoring_since,
    },
    true,
  );
  await w.write(detailPath(detail.id), JSON.stringify(detail));
  if (w.page) await w.write(pagePath(detail.id), w.page(detail));
  return JSON.stringify(record);
}
