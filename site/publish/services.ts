import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { Logger } from '../../pipeline/core/log.ts';
import { dataAsOf } from '../../pipeline/compute/status.ts';
import type { Store } from '../../pipeline/store/store.ts';
import { DAILY_DAYS, IndexSearch, RECENT_CHECKS, ServiceDetail, type IndexRecord } from '../contract/index.ts';
import { criteriaOf, dayRange, detailOf, indexRecordOf, summaryOf, type Row } from './rows.ts';
import { BATCH_SQL, DROP_STAGED, stagePartsSql, stageSummarySql } from './sql.ts';
import { JsonArrayWriter, validated } from './write.ts';

export interface ServicesOptions {
  /** Services per ordinal-range batch (one query each; default 2000). */
  batchSize?: number;
  /** Detail files written in parallel (default 8: more only adds overhead on one disk). */
  concurrency?: number;
}

export interface ServicesResult {
  services: number;
  inDirectory: number;
  details: number;
  /** Services skipped because their row did not make a valid contract object (logged). */
  invalid: number;
  /** Milliseconds spent staging (SQL), reading batches (SQL), shaping + validating (JS), writing files. */
  timings: { stage: number; query: number; shape: number; write: number };
}

/**
 * Write `index/summaries.json` (every tracked service as an IndexRecord, ordered by id) and
 * `api/v1/services/<id>.json` (the single-service object) into a generation folder.
 * Memory stays bounded: rows come in ordinal-range batches (ord = position by id), summaries are streamed to disk, detail
 * files are written with bounded concurrency. A service whose row does not validate is skipped
 * from both files and logged (one bad registry row must not stop every publish).
 */
export async function writeServices(
  store: Store,
  genDir: string,
  now: Date,
  log: Logger,
  opts: ServicesOptions = {},
): Promise<ServicesResult> {
  const batchSize = opts.batchSize ?? 2000;
  const limit = pLimit(opts.concurrency ?? 8);
  const timings = { stage: 0, query: 0, shape: 0, write: 0 };
  let t = performance.now();
  const lap = (k: keyof typeof timings) => {
    const n = performance.now();
    timings[k] += n - t;
    t = n;
  };
  const result: ServicesResult = { services: 0, inDirectory: 0, details: 0, invalid: 0, timings };
  let next: Promise<Row[]> | null = null;
  let summaries: JsonArrayWriter | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  try {
    for (const st of [stageSummarySql(now), ...stagePartsSql(now, RECENT_CHECKS, DAILY_DAYS)]) await store.run(st.sql, st.params);
    lap('stage');
    const detailDir = join(genDir, 'api', 'v1', 'services');
    await mkdir(detailDir, { recursive: true });
    summaries = await JsonArrayWriter.open(join(genDir, 'index', 'summaries.json'));
    const total = Number((await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM pub_summary'))[0]?.n ?? 0);
    const days = dayRange(now, DAILY_DAYS);
    const asOf = await dataAsOf(store, now);
    const fetch = (lo: number) => store.all<Row>(BATCH_SQL, [lo, Math.min(lo + batchSize - 1, total)]);
    // Prefetch: DuckDB runs the next batch's query on its own threads while JS shapes this one.
    next = total > 0 ? fetch(1) : null;
    for (let lo = 1; lo <= total; lo += batchSize) {
      lap('write');
      const rows = await next!;
      next = lo + batchSize <= total ? fetch(lo + batchSize) : null;
      next?.catch(() => undefined); // observed below; avoid an unhandled rejection if this batch throws first
      lap('query');
      const writes: Promise<void>[] = [];
      for (const row of rows) {
        let record: IndexRecord;
        let detail: ServiceDetail;
        try {
          const summary = summaryOf(row, now);
          const criteria = criteriaOf(row);
          // The detail holds every summary member under the same schemas, so validating the detail
          // validates the summary; the index record's own part is `search` (saves a second pass).
          detail = validated(ServiceDetail, detailOf(row, summary, criteria, now, days, asOf), `service ${summary.id}`);
          record = indexRecordOf(row, summary, criteria);
          validated(IndexSearch, record.search, `index record of ${summary.id}`);
        } catch (e) {
          result.invalid += 1;
          log.warn(`publish: skipped ${String(row.id)}: ${(e as Error).message}`);
          continue;
        }
        await summaries.push(record);
        result.services += 1;
        if (record.in_directory) result.inDirectory += 1;
        const body = JSON.stringify(detail);
        writes.push(limit(() => writeFile(join(detailDir, `${detail.id}.json`), body)));
      }
      lap('shape');
      // Overlap: this batch's files are written while the next batch is shaped; at most two
      // batches of bodies are held in memory.
      await inFlight;
      inFlight = Promise.all(writes).then(() => undefined);
      result.details += writes.length;
    }
    await inFlight;
    await summaries.close();
    lap('write');
    for (const k of Object.keys(timings) as (keyof typeof timings)[]) timings[k] = Math.round(timings[k]);
  } catch (e) {
    summaries?.abort();
    throw e;
  } finally {
    await next?.catch(() => undefined); // a prefetch still running must finish before the tables go
    await inFlight.catch(() => undefined);
    for (const sql of DROP_STAGED) await store.run(sql).catch(() => undefined);
  }
  return result;
}
