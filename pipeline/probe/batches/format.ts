import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { JobKind, RunStatus } from '../../../site/contract/common.ts';
import { RUN_ID_RE } from '../../store/runs.ts';
import { MAX_SIGNED_OFFERS, SignedOfferCheck } from '../../../site/contract/offer-receipt.ts';
import type { CheckRecord, TermsRecord } from '../check-writer.ts';

/**
 * A check batch file (docs/notes/sharding.md): what one probe worker run (`atlas probe --out DIR`)
 * hands to the single database writer (`atlas ingest checks DIR`). JSON lines, one file per run:
 *
 *   {"format":"atlas-checks/1","run_id":"probe_20261125T121000Z_1a2b3c4d"}
 *   {"check":{<checks row>},"terms":{<payment_terms row>}|null}      one line per check
 *   {"run":{<runs row>,"checks":N}}                                   last line
 *
 * Rows use the tables' column names with times as ISO strings (check-writer.ts `CheckRecord`,
 * `TermsRecord`). The file is written under a temporary dot-name, fsynced and renamed to
 * `<run id>.checks.jsonl`, so a reader never sees a partial file; a file that is torn anyway (no run
 * line, a line count that does not match) is refused by `readBatch` with its name.
 */
export const BATCH_FORMAT = 'atlas-checks/1';
export const BATCH_SUFFIX = '.checks.jsonl';

export const batchFileName = (runId: string): string => `${runId}${BATCH_SUFFIX}`;
/** The name a batch is written under until it is complete (a dot-file: loaders skip it). */
export const batchTempName = (runId: string): string => `.${runId}${BATCH_SUFFIX}.tmp`;

/** The run id a finished batch file's name carries, or null for any other file. */
export function runIdOfBatchFile(name: string): string | null {
  if (!name.endsWith(BATCH_SUFFIX)) return null;
  const id = name.slice(0, -BATCH_SUFFIX.length);
  return RUN_ID_RE.test(id) ? id : null;
}

const Iso = z.iso.datetime({ offset: true });
const Header = z.strictObject({ format: z.literal(BATCH_FORMAT), run_id: z.string().regex(RUN_ID_RE) });

const CheckLine = z.strictObject({
  service_id: z.string().min(1),
  operation: z.string().min(1),
  slot: Iso,
  checked_at: Iso,
  status: z.number().int().nullable(),
  passed: z.boolean(),
  reason: z.string().min(1),
  rule: z.string().min(1),
  latency_ms: z.number().nullable(),
  ttfb_ms: z.number().nullable(),
  run_id: z.string(),
  url: z.string(),
  method: z.string(),
  bytes: z.number().int().nullable(),
  detail: z.string().nullable(),
  // Optional: files written before the column existed (migration 021) load with null.
  protocols: z.array(z.string()).nullable().optional(),
  // Optional: files written before migration 023 load with null.
  auth_schemes: z.array(z.string()).nullable().optional(),
  // Since migration 062: the check's signed offers (absent: none).
  signed_offers: z.array(SignedOfferCheck).max(MAX_SIGNED_OFFERS).nullable().optional(),
});

const TermsLine = z.strictObject({
  service_id: z.string().min(1),
  operation: z.string().min(1),
  slot: Iso,
  observed_at: Iso,
  x402_version: z.number().int(),
  offers: z.array(z.record(z.string(), z.unknown())),
  terms_hash: z.string().min(1),
  networks: z.array(z.string()),
  schemes: z.array(z.string()),
  assets: z.array(z.string()),
  pay_to_hashes: z.array(z.string()),
  amounts: z.array(z.string()),
  timeouts: z.array(z.number().int()),
  min_price_usd: z.number().nullable(),
  // Since migration 022; optional so that batch files written by older workers still load.
  max_price_usd: z.number().nullable().optional(),
  currencies: z.array(z.string()).nullable().optional(),
});

const Entry = z.strictObject({ check: CheckLine, terms: TermsLine.nullable() });
/** One check and its terms in the record shape: also what probe workers write back through PostgreSQL (pipeline/probe/queue). */
export const BatchEntrySchema = Entry;

/** The worker run's `runs` row, plus the number of check lines before it (the torn-file check). */
export const BatchRun = z.strictObject({
  id: z.string().regex(RUN_ID_RE),
  // A worker runs the probe jobs only; its run is finished when the file is written.
  kind: JobKind.extract([JobKind.enum.probe, JobKind.enum.docs]),
  scheduled_at: Iso.nullable(),
  started_at: Iso,
  finished_at: Iso,
  status: RunStatus.exclude([RunStatus.enum.running]),
  args: z.record(z.string(), z.unknown()),
  counts: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
  checks: z.number().int().min(0),
});
export type BatchRun = z.infer<typeof BatchRun>;
const RunLine = z.strictObject({ run: BatchRun });

export interface BatchEntry {
  check: CheckRecord;
  terms: TermsRecord | null;
}

export const headerLine = (runId: string): string => JSON.stringify({ format: BATCH_FORMAT, run_id: runId });
export const entryLine = (e: BatchEntry): string => JSON.stringify(e);
export const runLine = (run: BatchRun): string => JSON.stringify({ run });

/** A batch file that cannot be loaded; the message names the file and the first problem. */
export class BatchFileError extends Error {}

/**
 * Read and check one batch file line by line (constant memory), handing each entry to `onEntry`
 * (which may be async, e.g. a chunked insert). Returns the run line. Throws BatchFileError on the
 * first problem: not JSON, a line of the wrong shape, a check of another run or a terms row that is
 * not its check's, a missing run line, or a check count that differs from the run line's.
 */
export async function readBatch(path: string, onEntry?: (e: BatchEntry) => void | Promise<void>): Promise<BatchRun> {
  const name = basename(path);
  const fail = (line: number, why: string): never => {
    throw new BatchFileError(`batch file ${name}: line ${line}: ${why}`);
  };
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let n = 0;
  let runId: string | null = null;
  let run: BatchRun | null = null;
  let checks = 0;
  for await (const text of lines) {
    n++;
    if (run) fail(n, 'text after the run line');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      fail(n, 'not JSON (a torn or edited file?)');
    }
    if (n === 1) {
      const h = Header.safeParse(json);
      if (!h.success) fail(n, `not an ${BATCH_FORMAT} header`);
      runId = h.data!.run_id;
      if (runIdOfBatchFile(name) !== runId) fail(n, `the header's run ${runId} is not the file's name`);
      continue;
    }
    if (json && typeof json === 'object' && 'run' in json) {
      const r = RunLine.safeParse(json);
      if (!r.success) fail(n, `bad run line: ${r.error.issues[0]?.message ?? 'invalid'}`);
      run = r.data!.run;
      continue;
    }
    const e = Entry.safeParse(json);
    if (!e.success) {
      const issue = e.error.issues[0];
      fail(n, `bad check line: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
    }
    const entry = e.data! as BatchEntry;
    const c = entry.check;
    if (c.run_id !== runId) fail(n, `check of run ${c.run_id}, not ${runId}`);
    const t = entry.terms;
    if (t && (t.service_id !== c.service_id || t.operation !== c.operation || Date.parse(t.slot) !== Date.parse(c.slot)))
      fail(n, 'payment terms of another check');
    checks++;
    if (onEntry) await onEntry(entry);
  }
  if (n === 0) fail(1, 'empty file');
  if (!run) return fail(n, 'no run line at the end (a torn file?)');
  if (run.id !== runId) fail(n, `run line of ${run.id}, not ${runId}`);
  if (run.checks !== checks) fail(n, `the run line counts ${run.checks} checks, the file holds ${checks}`);
  return run;
}
