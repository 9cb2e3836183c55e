import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../core/log.ts';
import type { Store } from '../store/store.ts';
import {
  BUCKET_OF_TEXT,
  DAILY_DAYS,
  INDEX_BUCKETS_FILE,
  INDEX_BUCKETS_FORMAT,
  IndexBuckets,
  RECENT_CHECKS,
  type RenderInstants,
  type ServiceDetailFile,
} from '../../site/contract/index.ts';
import { dayRange } from '../../site/contract/daily-series.ts';
import { type BucketWork, writeBucket } from './bucket-files.ts';
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
import type { PreviousGeneration } from './incremental.ts';
import { detailPath, LinkSet } from './link-set.ts';
import { planSharing, type SharingPlan } from './plan-sharing.ts';
import { RowBatches } from './row-batches.ts';
import type { ListedKey } from './static-list.ts';
import type { Row } from './rows.ts';
import {
  BATCH_SQL,
  BATCH_TODO_SQL,
  DROP_STAGED,
  STAGE_TODO_SQL,
  type DetailPart,
  detailParts,
  hashPartSql,
  stageDailySql,
  stageKeysSql,
  stagePartSql,
  stageSummarySql,
} from './sql.ts';
import { writeJson } from './write.ts';

export interface ServicesOptions {
  /**
   * Services per ordinal-range batch (one query each; default 500). Two batches of rows are in
   * memory at once (DuckDB reads the next while this one is shaped): larger batches raise a full
   * publish's peak memory for no gain in CPU.
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

type Timings = ServicesResult['timings'];

/** Time `fn` into `timings[k]` (the one way the steps of writeServices are timed). */
async function timed<T>(timings: Timings, k: keyof Timings, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await fn();
  } finally {
    timings[k] += performance.now() - t;
  }
}

export interface WriteServicesOptions extends ServicesOptions, RenderOptions {
  salt: string;
  bucketBits: number;
  previous?: PreviousGeneration | null;
  /** The static page of a rendered service (`services/<id>.html`), written beside its detail file. */
  page?: (detail: ServiceDetailFile) => string;
}

/**
 * Write the index (`index/buckets.json` and the buckets `index/summaries/<hex>.json`, every tracked
 * service as an IndexRecordFile: site/contract/index-record.ts), `api/v1/services/<id>.json` (the
 * single-service file) and `index/fingerprints.txt` into a generation folder.
 * Memory stays bounded: rows come in ordinal-range batches (ord = position by bucket, then id), each
 * bucket is written when its last service is done, each detail file and page as soon as it is
 * shaped. A service whose row does not validate is skipped from every file and logged.
 * Incremental (`previous` given): only services whose fingerprint differs from the previous
 * generation's (or that are new) are rendered; the others' detail files are hard links to the
 * previous generation's and their index lines are copied from its bucket; a bucket whose services are
 * all unchanged (and none left) is itself a link (plan-sharing.ts). The result is byte-identical to
 * rendering everything, except the render-instant members of the shared detail files, which keep
 * the instants of the render that wrote them (site/contract/service-file.ts;
 * docs/notes/incremental-publish.md). A previous generation found out of step with its fingerprints
 * throws PreviousGenerationUnusable (incremental.ts); the caller may render everything instead.
 *
 * The phases: folders; links in the background (link-set.ts); staging and fingerprints (SQL); the
 * plan; staging of the rows to render; one bucket file at a time (bucket-files.ts); the writes
 * flushed; the links reconciled; the bucket layout and the fingerprints.
 */
export async function writeServices(
  store: Store,
  genDir: string,
  now: Date,
  log: Logger,
  opts: WriteServicesOptions,
): Promise<ServicesResult> {
  const previous = opts.previous ?? null;
  const result = emptyResult();
  const timings = result.timings;
  // The files are written, and hashed for the seal, on a worker thread while this one shapes the
  // next services (file-writer.ts); over a link to the previous generation's file, by rename.
  const files = new FileWriter(genDir, { replace: previous !== null });
  let links: LinkSet | null = null;
  let rows: RowBatches | null = null;
  try {
    await makeFolders(genDir, opts.page !== undefined);
    links = new LinkSet(previous, genDir, opts.page !== undefined);
    const parts = detailParts(now, RECENT_CHECKS);
    const all = await fingerprintAll(store, now, opts, parts, timings);
    const prevCounts = await previousBucketCounts(previous, opts.bucketBits);
    const plan = planSharing(all, previous?.fingerprints ?? null, prevCounts);
    rows = await timed(timings, 'stage', () => stageRendered(store, now, opts, parts, plan, all.length, timings));
    const out = await timed(timings, 'shape', () => writeBuckets(genDir, now, log, opts, plan, rows!, files, result));
    await timed(timings, 'write', () => files.flush());
    result.written = files.written;
    await timed(timings, 'link', async () => {
      await links!.settle();
      result.pagesLinked = links!.sharedPages(result.unchanged);
      links!.reconcile(new Set([...result.unchanged, ...result.rendered]));
    });
    result.details += result.rendered.length + result.unchanged.length;
    await timed(timings, 'write', () => writeLayout(genDir, opts, result.services, out, dayRange(now, DAILY_DAYS)));
    for (const k of Object.keys(timings) as (keyof Timings)[]) timings[k] = Math.round(timings[k]);
  } finally {
    await files.close(); // no write lands in a folder the caller may remove
    await links?.close(); // nor a link
    await rows?.close(); // a prefetch still running must finish before the tables go
    for (const sql of DROP_STAGED) await store.run(sql).catch(() => undefined);
  }
  return result;
}

function emptyResult(): ServicesResult {
  return {
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
    timings: { stage: 0, fingerprint: 0, link: 0, query: 0, shape: 0, write: 0 },
  };
}

async function makeFolders(genDir: string, pages: boolean): Promise<void> {
  await mkdir(join(genDir, 'api', 'v1', 'services'), { recursive: true });
  await mkdir(join(genDir, 'index', 'summaries'), { recursive: true });
  if (pages) await mkdir(join(genDir, 'services'), { recursive: true });
}

/** Stage every service's keys and hashes, and read every service's fingerprint row, in ordinal order. */
async function fingerprintAll(
  store: Store,
  now: Date,
  opts: WriteServicesOptions,
  parts: DetailPart[],
  timings: Timings,
): Promise<FingerprintRow[]> {
  await timed(timings, 'stage', async () => {
    for (const st of [stageKeysSql(now, opts.bucketBits), ...parts.map(hashPartSql)]) await store.run(st.sql, st.params);
  });
  return timed(timings, 'fingerprint', async () => {
    await store.run(FINGERPRINT_SQL, fingerprintParams(opts.salt, now, DAILY_DAYS));
    const all = fingerprintRows((await store.all<{ t: string | null }>(FINGERPRINT_ROWS_SQL))[0]?.t ?? null);
    // The hashes are read; their tables go before the renderer's batches need the memory.
    for (const t of ['pub_fp', ...parts.map((p) => `${p.table}_h`)]) await store.run(`DROP TABLE IF EXISTS temp.${t}`);
    return all;
  });
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
 * Stage the summary rows and detail parts of the services to render only (sql.ts), and open the
 * batches that read them: a full render reads plain ordinal ranges, an incremental one the ranks of
 * pub_todo.
 */
async function stageRendered(
  store: Store,
  now: Date,
  opts: WriteServicesOptions,
  parts: DetailPart[],
  plan: SharingPlan,
  services: number,
  timings: Timings,
): Promise<RowBatches> {
  const todo = plan.render;
  const total = todo.length;
  const full = total === services;
  if (!full && total > 0) await store.run(STAGE_TODO_SQL, [todo.join(',')]);
  if (total > 0)
    for (const st of [
      stageSummarySql(now, opts.bucketBits, !full),
      ...parts.map((p) => stagePartSql(p, !full)),
      stageDailySql(now, DAILY_DAYS, !full),
    ])
      await store.run(st.sql, st.params);
  const fetch = (lo: number, hi: number) =>
    full ? store.all<Row>(BATCH_SQL, [lo, hi]) : store.all<Row>(BATCH_TODO_SQL, [todo[lo - 1]!, todo[hi - 1]!, lo, hi]);
  // The wait for a batch is query time, taken out of the shaping that waits for it.
  return new RowBatches(fetch, total, opts.batchSize ?? 500, (ms) => {
    timings.query += ms;
    timings.shape -= ms;
  });
}

/** The fingerprints and bucket counts the buckets were written with (for the layout and fingerprints files). */
interface WrittenIndex {
  fingerprints: FingerprintEntry[];
  counts: number[];
}

/** Every bucket file, in bucket order, as the plan says (bucket-files.ts); fills `result`. */
async function writeBuckets(
  genDir: string,
  now: Date,
  log: Logger,
  opts: WriteServicesOptions,
  plan: SharingPlan,
  rows: RowBatches,
  files: FileWriter,
  result: ServicesResult,
): Promise<WrittenIndex> {
  const out: WrittenIndex = { fingerprints: [], counts: new Array<number>(2 ** opts.bucketBits).fill(0) };
  for (const s of plan.shared) result.linked.push(detailPath(s.id));
  const work: BucketWork = {
    genDir,
    previousDir: opts.previous?.dir ?? null,
    bits: opts.bucketBits,
    now,
    days: dayRange(now, DAILY_DAYS),
    render: opts.render,
    log,
    rows,
    write: (rel, text) => files.put(rel, text),
    page: opts.page,
    published: (row, rendered) => {
      out.fingerprints.push([row.id, row.fp, row.fp_next]);
      (rendered ? result.rendered : result.unchanged).push(row.id);
      if (rendered && opts.page) result.paged.push(row.id);
      if (!row.in_directory) return;
      result.inDirectory += 1;
      result.listed.push({
        id: row.id,
        bucket: row.bucket,
        checks_30d: Number(row.checks_30d),
        monitoring_since: String(row.monitoring_since),
      });
    },
    linked: (rel) => result.linked.push(rel),
    invalid: () => {
      result.invalid += 1;
    },
    counted: (bucket, n) => {
      out.counts[bucket] = n;
      result.services += n;
    },
  };
  for (const b of plan.buckets) await writeBucket(work, b);
  return out;
}

/** `index/buckets.json` (the layout) and `index/fingerprints.txt`, after every bucket. */
async function writeLayout(
  genDir: string,
  opts: WriteServicesOptions,
  services: number,
  index: WrittenIndex,
  days: string[],
): Promise<void> {
  await writeJson(join(genDir, INDEX_BUCKETS_FILE), IndexBuckets, {
    format: INDEX_BUCKETS_FORMAT,
    bucket_of: BUCKET_OF_TEXT,
    bits: opts.bucketBits,
    services,
    counts: index.counts,
  });
  await writeFile(join(genDir, FINGERPRINTS_FILE), fingerprintsText(opts.salt, days.at(-1)!, index.fingerprints));
}
