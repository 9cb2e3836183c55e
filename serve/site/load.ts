import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { AtlasError } from '../../pipeline/core/errors.ts';
import { INDEX_BUCKETS_FILE, IndexRecord, IndexBuckets, bucketFile } from '../../site/contract/index-record.ts';
import { Manifest } from '../../site/contract/manifest.ts';
import { MODERATION_INDEX_FILE, type ModerationDecision, ModerationIndex } from '../../site/contract/moderation.ts';
import type { ReceiptVerdictEntry } from '../../site/contract/receipt-verdict.ts';
import { generationAsOfMs, summaryMembersAsOf } from '../../site/contract/answer-time.ts';
import { RunLog } from '../../site/contract/run-log.ts';
import type { ServiceSummaryFile } from '../../site/contract/summary.ts';
import { type CompiledGeneration, GenerationCompiler } from '../search/compile.ts';
import { presort } from '../search/order.ts';
import { forEachArrayElement } from './json-array.ts';
import type { SiteResources, SiteState } from './state.ts';

/** `<site>/current` → the generation folder it points at (real path), or null when not published yet. */
export function resolveCurrent(siteDir: string): string | null {
  const pointer = join(siteDir, 'current');
  try {
    return realpathSync(pointer);
  } catch {
    return null;
  }
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

async function optionalObject(path: string): Promise<Record<string, unknown> | null> {
  if (!existsSync(path)) return null;
  const v = await readJson(path);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new AtlasError('invalid_input', `${path}: not a JSON object`);
  return v as Record<string, unknown>;
}

/**
 * Validate the index records with the contract schema: all of them up to FULL_CHECK records, else
 * the first FULL_CHECK and every SAMPLE_STEP-th (publish validates every record when it writes;
 * validating 100k nested objects here would cost seconds of start time). Every record must at
 * least be an object.
 */
const FULL_CHECK = 1000;
const SAMPLE_STEP = 97;

function checkRecord(data: unknown, i: number, where: string): IndexRecord {
  if (i < FULL_CHECK || (i - FULL_CHECK) % SAMPLE_STEP === 0) {
    const r = IndexRecord.safeParse(data);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new AtlasError('invalid_input', `${where}[${i}]: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
    }
  } else if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new AtlasError('invalid_input', `${where}[${i}]: not an object`);
  }
  return data as IndexRecord;
}

/**
 * The index records compiled one by one, a bucket at a time (json-array.ts, streaming): only the
 * search rows (each keeps its published summary) and the search haystacks stay; the rest of every
 * record is garbage as soon as it is compiled, so the load never holds every record whole.
 * The files: the buckets listed by `index/buckets.json` (site/contract/index-record.ts).
 * Each record's summary gets the generation stage of answer-time completion at `asOfMs`
 * (site/contract/answer-time.ts: `evidence.monitoring_days` and `payment_terms.window_start`, which
 * the files leave out or carry only while `limited`) before it is checked against the contract and
 * compiled, so the serialized summary every search answer splices already holds both.
 */
async function loadRows(dir: string, asOfMs: number): Promise<CompiledGeneration> {
  const layoutPath = join(dir, INDEX_BUCKETS_FILE);
  const layout = await optionalObject(layoutPath);
  if (!layout) throw new AtlasError('invalid_input', `${dir}: no ${INDEX_BUCKETS_FILE} (incomplete generation)`);
  const parsed = IndexBuckets.safeParse(layout);
  if (!parsed.success) throw new AtlasError('invalid_input', `${layoutPath}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const { bits, counts, services } = parsed.data;
  if (counts.length !== 2 ** bits) throw new AtlasError('invalid_input', `${layoutPath}: ${counts.length} bucket counts for ${bits} bits`);
  const compiler = new GenerationCompiler(services);
  let n = 0;
  const onRecord = (where: string) => (value: unknown) => {
    const i = n++;
    const v = value as { summary?: unknown } | null;
    // The parsed record is the loader's own: its members are replaced in place (no copy per record).
    if (v && typeof v.summary === 'object' && v.summary !== null)
      Object.assign(v.summary, summaryMembersAsOf(v.summary as ServiceSummaryFile, asOfMs));
    compiler.add(checkRecord(value, i, where));
  };
  for (let s = 0; s < counts.length; s++) {
    if (!counts[s]) continue;
    const path = join(dir, bucketFile(s, bits));
    const before = n;
    // Streamed element by element (json-array.ts), which keeps the resident memory after a load low.
    await forEachArrayElement(path, onRecord(path), 1 << 16);
    if (n - before !== counts[s]) throw new AtlasError('invalid_input', `${path}: ${n - before} records, ${layoutPath} says ${counts[s]}`);
  }
  if (n !== services) throw new AtlasError('invalid_input', `${layoutPath}: ${n} records, it says ${services}`);
  return compiler.finish();
}

/**
 * Load one generation fully (manifest, every index record, the small resources, the moderation
 * decisions and the reports),
 * compile the search rows and presort them. Single-service detail files stay on disk in the
 * (immutable) generation folder and are read on demand (see details.ts): 100k detail objects would
 * not fit the memory budget, and publish keeps the last generations around.
 * Throws when the generation is incomplete or malformed; the caller keeps the old one.
 */
export async function loadGeneration(dir: string, loadedAt: Date): Promise<SiteState> {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) throw new AtlasError('invalid_input', `${dir}: no manifest.json (incomplete generation)`);
  const manifest = Manifest.safeParse(await readJson(manifestPath));
  if (!manifest.success) throw new AtlasError('invalid_input', `${manifestPath}: ${manifest.error.issues[0]?.message ?? 'invalid'}`);

  const api = join(dir, 'api', 'v1');
  const resources: SiteResources = {
    stats: await optionalObject(join(api, 'stats.json')),
    status: await optionalObject(join(api, 'status.json')),
    roadmap: await optionalObject(join(api, 'roadmap.json')),
    fields: await optionalObject(join(api, 'fields.json')),
    changes: await optionalObject(join(api, 'changes.json')),
    reportsIndex: await optionalObject(join(api, 'reports', 'index.json')),
    healthz: await optionalObject(join(dir, 'healthz.json')),
    openapi: await optionalObject(join(dir, 'openapi.json')),
  };

  const runLogPath = join(dir, 'run-log.json');
  const rawLog = await optionalObject(runLogPath);
  let runLog: RunLog | null = null;
  if (rawLog) {
    const parsed = RunLog.safeParse(rawLog);
    if (!parsed.success) throw new AtlasError('invalid_input', `${runLogPath}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    runLog = parsed.data;
  }
  const statsAsOf = resources.stats?.data_as_of;
  const dataAsOf = runLog ? runLog.data_as_of : typeof statsAsOf === 'string' ? statsAsOf : null;

  const { rows, columns } = await loadRows(dir, generationAsOfMs({ dataAsOf, generatedAt: manifest.data.generated_at }));
  const byId = new Map(rows.map((r) => [r.id, r]));

  const reports = new Map<string, Record<string, unknown>>();
  const reportsDir = join(api, 'reports');
  if (existsSync(reportsDir)) {
    for (const f of readdirSync(reportsDir)) {
      const m = /^(current|\d{4}-\d{2}-\d{2})\.json$/.exec(f);
      if (!m) continue;
      const body = await optionalObject(join(reportsDir, f));
      if (body) reports.set(m[1]!, body);
    }
  }

  const moderationPath = join(dir, ...MODERATION_INDEX_FILE.split('/'));
  const rawModeration = await optionalObject(moderationPath);
  let moderation = new Map<string, ModerationDecision>();
  let receiptVerdicts = new Map<string, ReceiptVerdictEntry>();
  if (rawModeration) {
    const parsed = ModerationIndex.safeParse(rawModeration);
    if (!parsed.success) throw new AtlasError('invalid_input', `${moderationPath}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    moderation = new Map(Object.entries(parsed.data.decisions));
    receiptVerdicts = new Map(Object.entries(parsed.data.receipts ?? {}));
  }

  return {
    dir,
    generation: manifest.data.generation || basename(dir),
    generatedAt: manifest.data.generated_at,
    manifest: manifest.data as unknown as Record<string, unknown>,
    rows,
    byId,
    columns,
    orders: presort(rows, columns),
    resources,
    runLog,
    dataAsOf,
    fullEvaluationAt: manifest.data.directory_full_evaluation_at ?? null,
    moderation,
    receiptVerdicts,
    reports,
    loadedAt: loadedAt.toISOString(),
  };
}
