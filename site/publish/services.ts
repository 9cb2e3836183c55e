import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { Logger } from '../../pipeline/core/log.ts';
import { AtlasError } from '../../pipeline/core/errors.ts';
import type { Store } from '../../pipeline/store/store.ts';
import { DAILY_DAYS, IndexSearch, RECENT_CHECKS, ServiceDetailFile, type IndexRecord } from '../contract/index.ts';
import { FINGERPRINT_SQL, FINGERPRINTS_FILE, fingerprintsText } from './fingerprint.ts';
import { linkFrom, type PreviousGeneration } from './incremental.ts';
import { criteriaOf, dayRange, detailOf, indexRecordOf, summaryOf, type Row } from './rows.ts';
import { BATCH_SQL, BATCH_TODO_SQL, DROP_STAGED, STAGE_TODO_SQL, stagePartsSql, stageSummarySql } from './sql.ts';
import { JsonArrayWriter, readArrayLines, validated } from './write.ts';

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
  /** Ids of the services whose detail file was written in this generation (the others are links). */
  rendered: string[];
  /** Ids of the services whose detail file is a hard link to the previous generation's. */
  unchanged: string[];
  /** Generation-relative paths of the files hard-linked from the previous generation. */
  linked: string[];
  /** Milliseconds spent staging (SQL), fingerprinting + linking, reading batches (SQL), shaping + validating (JS), writing files. */
  timings: { stage: number; fingerprint: number; link: number; query: number; shape: number; write: number };
}

const SUMMARIES = 'index/summaries.json';
const detailPath = (id: string) => `api/v1/services/${id}.json`;

/** The service id of one serialised index record (its first member is the summary, whose first is the id). */
function recordId(line: string): string {
  const m = /^\{"summary":\{"id":"([^"\\]+)"/.exec(line);
  return m ? m[1]! : String((JSON.parse(line) as IndexRecord).summary.id);
}

/**
 * Write `index/summaries.json` (every tracked service as an IndexRecord, ordered by id),
 * `api/v1/services/<id>.json` (the single-service file) and `index/fingerprints.txt` into a
 * generation folder.
 * Memory stays bounded: rows come in ordinal-range batches (ord = position by id), summaries are streamed to disk, detail
 * files are written with bounded concurrency. A service whose row does not validate is skipped
 * from both files and logged (one bad registry row must not stop every publish).
 * Incremental (`previous` given): only services whose fingerprint differs from the previous
 * generation's (or that are new) are rendered; the others' detail files are hard links to the
 * previous generation's and their index records are copied line for line from its summaries file,
 * so the result is byte-identical to rendering everything (docs/notes/incremental-publish.md).
 */
export async function writeServices(
  store: Store,
  genDir: string,
  now: Date,
  log: Logger,
  opts: ServicesOptions & { salt: string; previous?: PreviousGeneration | null },
): Promise<ServicesResult> {
  const batchSize = opts.batchSize ?? 2000;
  const limit = pLimit(opts.concurrency ?? 8);
  const previous = opts.previous ?? null;
  const timings = { stage: 0, fingerprint: 0, link: 0, query: 0, shape: 0, write: 0 };
  let t = performance.now();
  const lap = (k: keyof typeof timings) => {
    const n = performance.now();
    timings[k] += n - t;
    t = n;
  };
  const result: ServicesResult = {
    services: 0,
    inDirectory: 0,
    details: 0,
    invalid: 0,
    rendered: [],
    unchanged: [],
    linked: [],
    timings,
  };
  let next: Promise<Row[]> | null = null;
  let summaries: JsonArrayWriter | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  let oldLines: AsyncGenerator<string> | null = null;
  try {
    for (const st of [stageSummarySql(now), ...stagePartsSql(now, RECENT_CHECKS, DAILY_DAYS)]) await store.run(st.sql, st.params);
    lap('stage');
    await store.run(FINGERPRINT_SQL, [opts.salt]);
    const all = await store.all<{ ord: number; id: string; in_directory: boolean; fp: string }>(
      'SELECT ord, id, in_directory, fp FROM pub_fp ORDER BY ord',
    );
    lap('fingerprint');
    const detailDir = join(genDir, 'api', 'v1', 'services');
    await mkdir(detailDir, { recursive: true });
    await mkdir(join(genDir, 'index'), { recursive: true });

    // Share what did not change: a service keeps its previous file when its fingerprint is equal
    // and the link succeeds; anything else is rendered.
    const shared = new Uint8Array(all.length + 1); // by ord
    const todo: number[] = [];
    for (const s of all) {
      if (previous && previous.fingerprints.get(s.id) === s.fp && linkFrom(previous.dir, genDir, detailPath(s.id))) {
        shared[s.ord] = 1;
        result.unchanged.push(s.id);
        result.linked.push(detailPath(s.id));
      } else todo.push(s.ord);
    }
    lap('link');
    const fingerprints: [string, string][] = [];
    if (previous && todo.length === 0 && all.length === previous.fingerprints.size && linkFrom(previous.dir, genDir, SUMMARIES)) {
      // Nothing changed and nobody left: the whole index is the previous one.
      result.linked.push(SUMMARIES);
      for (const s of all) {
        fingerprints.push([s.id, s.fp]);
        result.services += 1;
        if (s.in_directory) result.inDirectory += 1;
      }
    } else {
      summaries = await JsonArrayWriter.open(join(genDir, SUMMARIES));
      const out = summaries;
      oldLines = result.unchanged.length ? readArrayLines(join(previous!.dir, SUMMARIES)) : null;
      const lines = oldLines;
      // Unchanged services up to (not including) ordinal `until`, copied from the previous index in order.
      let k = 0;
      const copyUntil = async (until: number) => {
        for (; k < all.length && all[k]!.ord < until; k++) {
          const s = all[k]!;
          if (!shared[s.ord]) continue;
          let line: string | undefined;
          for (let r = await lines!.next(); !r.done; r = await lines!.next()) {
            if (recordId(r.value) === s.id) {
              line = r.value;
              break;
            }
          }
          if (line === undefined)
            throw new AtlasError('internal', `publish: ${s.id} is unchanged but missing from the previous generation's ${SUMMARIES}`);
          await out.pushRaw(line);
          fingerprints.push([s.id, s.fp]);
          result.services += 1;
          if (s.in_directory) result.inDirectory += 1;
        }
      };
      const fpByOrd = new Map(todo.map((o) => [o, all[o - 1]!.fp]));
      const total = todo.length;
      const days = dayRange(now, DAILY_DAYS);
      const full = total === all.length;
      if (!full) await store.run(STAGE_TODO_SQL, [todo.join(',')]);
      // A full render reads plain ordinal ranges; an incremental one the ranks of pub_todo.
      const fetch = (lo: number) => {
        const hi = Math.min(lo + batchSize - 1, total);
        return full ? store.all<Row>(BATCH_SQL, [lo, hi]) : store.all<Row>(BATCH_TODO_SQL, [todo[lo - 1]!, todo[hi - 1]!, lo, hi]);
      };
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
          await copyUntil(Number(row.ord));
          k += 1; // this service
          let record: IndexRecord;
          let detail: ServiceDetailFile;
          try {
            const summary = summaryOf(row, now);
            const criteria = criteriaOf(row);
            // The detail holds every summary member under the same schemas, so validating the detail
            // validates the summary; the index record's own part is `search` (saves a second pass).
            detail = validated(ServiceDetailFile, detailOf(row, summary, criteria, days), `service ${summary.id}`);
            record = indexRecordOf(row, summary, criteria);
            validated(IndexSearch, record.search, `index record of ${summary.id}`);
          } catch (e) {
            result.invalid += 1;
            log.warn(`publish: skipped ${String(row.id)}: ${(e as Error).message}`);
            continue;
          }
          await out.push(record);
          fingerprints.push([detail.id, fpByOrd.get(Number(row.ord))!]);
          result.services += 1;
          result.rendered.push(detail.id);
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
      await copyUntil(Number.POSITIVE_INFINITY);
      await inFlight;
      await out.close();
    }
    result.details += result.unchanged.length;
    await writeFile(join(genDir, FINGERPRINTS_FILE), fingerprintsText(opts.salt, fingerprints));
    lap('write');
    for (const k of Object.keys(timings) as (keyof typeof timings)[]) timings[k] = Math.round(timings[k]);
  } catch (e) {
    summaries?.abort();
    throw e;
  } finally {
    await oldLines?.return(undefined);
    await next?.catch(() => undefined); // a prefetch still running must finish before the tables go
    await inFlight.catch(() => undefined);
    for (const sql of DROP_STAGED) await store.run(sql).catch(() => undefined);
  }
  return result;
}
