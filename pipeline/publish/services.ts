import { readFileSync, unlinkSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../core/log.ts';
import { AtlasError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import {
  DAILY_DAYS,
  INDEX_BUCKETS_FILE,
  INDEX_BUCKETS_FORMAT,
  IndexSearch,
  IndexBuckets,
  RECENT_CHECKS,
  BUCKET_OF_TEXT,
  ServiceDetailFile,
  serviceFileAt,
  bucketFile,
  type IndexRecordFile,
  type RenderInstants,
} from '../../site/contract/index.ts';
import { dayRange } from '../../site/contract/daily-series.ts';
import {
  FINGERPRINT_ROWS_SQL,
  FINGERPRINT_SQL,
  type FingerprintEntry,
  type FingerprintRow,
  FINGERPRINTS_FILE,
  fingerprintParams,
  fingerprintRows,
  fingerprintsText,
} from './fingerprint.ts';
import { FileWriter } from './file-writer.ts';
import { linkFrom, linkInBackground, type PreviousGeneration } from './incremental.ts';
import type { ListedKey } from './static-list.ts';
import { criteriaOf, detailOf, indexRecordOf, summaryOf, type Row } from './rows.ts';
import {
  BATCH_SQL,
  BATCH_TODO_SQL,
  DROP_STAGED,
  STAGE_TODO_SQL,
  detailParts,
  hashPartSql,
  stageDailySql,
  stageKeysSql,
  stagePartSql,
  stageSummarySql,
} from './sql.ts';
import { arrayLines, validated, writeJson } from './write.ts';

export interface ServicesOptions {
  /**
   * Services per ordinal-range batch (one query each; default 500). Two batches of rows are in
   * memory at once (DuckDB reads the next while this one is shaped): at 2,000 a full publish peaked
   * about 450 MB higher (the same CPU).
   */
  batchSize?: number;
}

/** The instants a rendered service file carries (site/contract/service-file.ts): this publish's. */
export interface RenderOptions {
  render: RenderInstants;
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
  /**
   * Size and SHA-256 of every file this step wrote, by generation-relative path, taken from the
   * bytes as they were written: the seal need not read them back.
   */
  written: Map<string, { bytes: number; sha256: string }>;
  /** Ids of the services whose page (`services/<id>.html`) was written here (`page` given). */
  paged: string[];
  /** Ids of the unchanged services whose page was hard-linked from the previous generation (`page` given). */
  pagesLinked: string[];
  /** Every published service in the directory, with what the static list's order needs (static-list.ts). */
  listed: ListedKey[];
  /** Milliseconds spent staging (SQL), fingerprinting + linking, reading batches (SQL), shaping + validating (JS), writing files. */
  timings: { stage: number; fingerprint: number; link: number; query: number; shape: number; write: number };
}

const detailPath = (id: string) => `api/v1/services/${id}.json`;
const pagePath = (id: string) => `services/${id}.html`;

/**
 * A service's index line as the previous generation's bucket file has it, by id. Read synchronously:
 * a bucket is a few kilobytes in the page cache, and at 2% changed of 100,000 services about 1,800
 * of them are read one after another, where each asynchronous read waited its turn in libuv's pool
 * behind the file writer and the link worker.
 */
function bucketLines(path: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of arrayLines(readFileSync(path, 'utf8'))) {
    const m = /^\{"summary":\{"id":"([^"\\]+)"/.exec(line);
    out.set(m ? m[1]! : String((JSON.parse(line) as IndexRecordFile).summary.id), line);
  }
  return out;
}

/** The previous generation's bucket counts when it used the same bucket bits (else nothing of its index is shared). */
async function previousBucketCounts(previous: PreviousGeneration | null, bits: number): Promise<number[] | null> {
  if (!previous) return null;
  try {
    const r = IndexBuckets.safeParse(JSON.parse(await readFile(join(previous.dir, INDEX_BUCKETS_FILE), 'utf8')));
    return r.success && r.data.bits === bits ? r.data.counts : null;
  } catch {
    return null;
  }
}

/**
 * Write the index (`index/buckets.json` and the buckets `index/summaries/<hex>.json`, every tracked
 * service as an IndexRecordFile: site/contract/index-record.ts), `api/v1/services/<id>.json` (the
 * single-service file) and `index/fingerprints.txt` into a generation folder.
 * Memory stays bounded: rows come in ordinal-range batches (ord = position by bucket, then id), each
 * bucket is written when its last service is done, each detail file and page as soon as it is
 * shaped. A service whose row does not validate is skipped from every file and logged (one bad
 * registry row must not stop every publish).
 * Incremental (`previous` given): only services whose fingerprint differs from the previous
 * generation's (or that are new) are rendered; the others' detail files are hard links to the
 * previous generation's and their index lines are copied from its bucket; a bucket whose services are
 * all unchanged (and none left) is itself a link. The result is byte-identical to rendering
 * everything, except the render-instant members of the shared detail files, which keep the instants
 * of the render that wrote them (site/contract/service-file.ts; docs/notes/incremental-publish.md).
 */
export async function writeServices(
  store: Store,
  genDir: string,
  now: Date,
  log: Logger,
  opts: ServicesOptions &
    RenderOptions & {
      salt: string;
      bucketBits: number;
      previous?: PreviousGeneration | null;
      /** The static page of a rendered service (`services/<id>.html`), written beside its detail file. */
      page?: (detail: ServiceDetailFile) => string;
    },
): Promise<ServicesResult> {
  const batchSize = opts.batchSize ?? 500;
  const previous = opts.previous ?? null;
  const bits = opts.bucketBits;
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
    written: new Map(),
    paged: [],
    pagesLinked: [],
    listed: [],
    timings,
  };
  // The files are written, and hashed for the seal, on a worker thread while this one shapes the
  // next services (file-writer.ts); over a link to the previous generation's file, by rename.
  const files = new FileWriter(genDir, { replace: previous !== null });
  const write = (rel: string, text: string) => files.put(rel, text);
  let next: Promise<Row[]> | null = null;
  let linking: Promise<Uint8Array> | null = null;
  // The daily series' days at the publish instant (site/contract/daily-series.ts).
  const days = dayRange(now, DAILY_DAYS);
  try {
    const detailDir = join(genDir, 'api', 'v1', 'services');
    await mkdir(detailDir, { recursive: true });
    await mkdir(join(genDir, 'index', 'summaries'), { recursive: true });
    if (opts.page) await mkdir(join(genDir, 'services'), { recursive: true });
    // Every file of the previous generation's services (detail and page) is hard-linked on a
    // worker thread while DuckDB stages and fingerprints: most services are unchanged, and 200,000
    // links at 100,000 services would otherwise come after the SQL. What turns out changed is
    // written over its link by rename; what is no longer published is unlinked below.
    const prevIds = previous ? [...previous.fingerprints.keys()] : [];
    if (previous) {
      const rels = prevIds.map(detailPath);
      if (opts.page) for (const id of prevIds) rels.push(pagePath(id));
      linking = linkInBackground(previous.dir, genDir, rels);
      linking.catch(() => undefined); // awaited below or in finally
    }
    const parts = detailParts(now, RECENT_CHECKS);
    for (const st of [stageKeysSql(now, bits), ...parts.map(hashPartSql)]) await store.run(st.sql, st.params);
    lap('stage');
    await store.run(FINGERPRINT_SQL, fingerprintParams(opts.salt, now, DAILY_DAYS));
    const all = fingerprintRows((await store.all<{ t: string | null }>(FINGERPRINT_ROWS_SQL))[0]?.t ?? null);
    // The hashes are read; their tables go before the renderer's batches need the memory.
    for (const t of ['pub_fp', ...parts.map((p) => `${p.table}_h`)]) await store.run(`DROP TABLE IF EXISTS temp.${t}`);
    lap('fingerprint');
    const prevCounts = await previousBucketCounts(previous, bits);

    // Share what did not change: a service whose fingerprint is equal keeps its previous files
    // (detail and page, linked above). A detail file that could not be linked means the previous
    // generation is not what its fingerprints say: the step fails, and publish renders everything
    // (publish.ts). A page that could not be linked is rendered from the detail by writePages.
    const shared = new Uint8Array(all.length + 1); // by ord
    const todo: number[] = [];
    const same = previous ? all.filter((s) => previous.fingerprints.get(s.id) === s.fp) : [];
    for (const s of same) shared[s.ord] = 1;
    for (const s of all) {
      if (shared[s.ord]) {
        result.unchanged.push(s.id);
        result.linked.push(detailPath(s.id));
      } else todo.push(s.ord);
    }
    lap('link');

    // The rendered rows in ordinal order, fetched in batches; DuckDB runs the next batch's query on
    // its own threads while JS shapes this one.
    const total = todo.length;
    const full = total === all.length;
    if (!full && total > 0) await store.run(STAGE_TODO_SQL, [todo.join(',')]);
    // The summary rows and the detail parts, for the services to render only (sql.ts).
    if (total > 0)
      for (const st of [
        stageSummarySql(now, bits, !full),
        ...parts.map((p) => stagePartSql(p, !full)),
        stageDailySql(now, DAILY_DAYS, !full),
      ])
        await store.run(st.sql, st.params);
    lap('stage');
    // A full render reads plain ordinal ranges; an incremental one the ranks of pub_todo.
    const fetch = (lo: number) => {
      const hi = Math.min(lo + batchSize - 1, total);
      return full ? store.all<Row>(BATCH_SQL, [lo, hi]) : store.all<Row>(BATCH_TODO_SQL, [todo[lo - 1]!, todo[hi - 1]!, lo, hi]);
    };
    let batch: Row[] = [];
    let at = 0; // next row of `batch`
    let fetched = 0; // rows of `todo` requested so far
    next = total > 0 ? fetch(1) : null;
    const nextRow = async (): Promise<Row> => {
      if (at === batch.length) {
        lap('shape');
        batch = await next!;
        at = 0;
        fetched += batch.length;
        next = fetched < total ? fetch(fetched + 1) : null;
        next?.catch(() => undefined); // observed below; avoid an unhandled rejection if this batch throws first
        lap('query');
      }
      return batch[at++]!;
    };

    const listed = (k: Pick<FingerprintRow, 'id' | 'bucket' | 'checks_30d' | 'monitoring_since'>) => {
      result.inDirectory += 1;
      result.listed.push({ id: k.id, bucket: k.bucket, checks_30d: Number(k.checks_30d), monitoring_since: String(k.monitoring_since) });
    };
    const counts = new Array<number>(2 ** bits).fill(0);
    const fingerprints: FingerprintEntry[] = [];
    for (let i = 0; i < all.length; ) {
      const bucket = all[i]!.bucket;
      let j = i;
      let changed = 0;
      for (; j < all.length && all[j]!.bucket === bucket; j++) if (!shared[all[j]!.ord]) changed += 1;
      const rel = bucketFile(bucket, bits);
      const group = all.slice(i, j);
      i = j;
      if (previous && changed === 0 && prevCounts?.[bucket] === group.length && linkFrom(previous.dir, genDir, rel)) {
        // Every service of the bucket is unchanged and none left it: the bucket is the previous one.
        result.linked.push(rel);
        for (const s of group) {
          fingerprints.push([s.id, s.fp, s.fp_next]);
          if (s.in_directory) listed(s);
        }
        counts[bucket] = group.length;
        result.services += group.length;
        continue;
      }
      const old = changed < group.length ? bucketLines(join(previous!.dir, rel)) : null;
      const lines: string[] = [];
      for (const s of group) {
        if (shared[s.ord]) {
          const line = old!.get(s.id);
          if (line === undefined)
            throw new AtlasError('internal', `publish: ${s.id} is unchanged but missing from the previous generation's ${rel}`);
          lines.push(line);
          fingerprints.push([s.id, s.fp, s.fp_next]);
          if (s.in_directory) listed(s);
          continue;
        }
        const row = await nextRow();
        if (Number(row.ord) !== s.ord) throw new AtlasError('internal', `publish: row ${String(row.ord)} read where ${s.ord} was expected`);
        let record: IndexRecordFile;
        let detail: ServiceDetailFile;
        try {
          const summary = summaryOf(row, now);
          const criteria = criteriaOf(row);
          // The detail holds every summary member under the same schemas, so validating the detail
          // validates the summary; the index record's own part is `search` (saves a second pass).
          detail = validated(
            ServiceDetailFile,
            serviceFileAt(detailOf(row, summary, criteria, days), opts.render),
            `service ${summary.id}`,
          );
          record = indexRecordOf(row, summary, criteria);
          validated(IndexSearch, record.search, `index record of ${summary.id}`);
        } catch (e) {
          result.invalid += 1;
          log.warn(`publish: skipped ${String(row.id)}: ${(e as Error).message}`);
          continue;
        }
        lines.push(JSON.stringify(record));
        fingerprints.push([detail.id, s.fp, s.fp_next]);
        result.rendered.push(detail.id);
        if (record.in_directory)
          listed({
            id: detail.id,
            bucket,
            checks_30d: record.summary.evidence.checks_30d,
            monitoring_since: record.summary.evidence.monitoring_since,
          });
        const body = JSON.stringify(detail);
        const id = detail.id;
        await write(detailPath(id), body);
        if (opts.page) {
          const html = opts.page(detail);
          result.paged.push(id);
          await write(pagePath(id), html);
        }
      }
      counts[bucket] = lines.length;
      result.services += lines.length;
      // One element per line, so the next publish can copy lines (arrayLines).
      if (lines.length) await write(rel, `[\n${lines.join(',\n')}\n]\n`);
    }
    lap('shape');
    await files.flush();
    result.written = files.written;
    lap('write');
    if (linking) {
      const ok = await linking;
      const at = new Map(prevIds.map((id, i) => [id, i]));
      const n = prevIds.length;
      const missing = same.filter((s) => !ok[at.get(s.id)!]);
      if (missing.length)
        throw new AtlasError(
          'internal',
          `publish: ${missing.length} detail file(s) of unchanged services could not be linked from the previous generation, e.g. ${detailPath(missing[0]!.id)}`,
        );
      if (opts.page) for (const s of same) if (ok[n + at.get(s.id)!]) result.pagesLinked.push(s.id);
      // A linked file of a service not published unchanged now: replaced when it was rendered,
      // otherwise (removed, or skipped as invalid) its name goes.
      const kept = new Set([...result.unchanged, ...result.rendered]);
      for (let i = 0; i < n; i++) {
        const id = prevIds[i]!;
        if (kept.has(id)) continue;
        if (ok[i]) unlinkSync(`${genDir}/${detailPath(id)}`);
        if (opts.page && ok[n + i]) unlinkSync(`${genDir}/${pagePath(id)}`);
      }
    }
    lap('link');
    result.details += result.rendered.length + result.unchanged.length;
    await writeJson(join(genDir, INDEX_BUCKETS_FILE), IndexBuckets, {
      format: INDEX_BUCKETS_FORMAT,
      bucket_of: BUCKET_OF_TEXT,
      bits,
      services: result.services,
      counts,
    });
    await writeFile(join(genDir, FINGERPRINTS_FILE), fingerprintsText(opts.salt, days.at(-1)!, fingerprints));
    lap('write');
    for (const k of Object.keys(timings) as (keyof typeof timings)[]) timings[k] = Math.round(timings[k]);
  } finally {
    await files.close(); // no write lands in a folder the caller may remove
    await linking?.catch(() => undefined); // nor a link
    await next?.catch(() => undefined); // a prefetch still running must finish before the tables go
    for (const sql of DROP_STAGED) await store.run(sql).catch(() => undefined);
  }
  return result;
}
