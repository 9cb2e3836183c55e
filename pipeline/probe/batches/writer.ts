import { mkdirSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Terms } from '../../x402/terms.ts';
import { type CheckRow, checkRecord, termsRecord } from '../check-writer.ts';
import type { CheckSink } from '../run-probe.ts';
import { aggregateCounts, type RunCounts } from '../runs.ts';
import { type BatchRun, batchFileName, batchTempName, entryLine, headerLine, runLine } from './format.ts';

/** Buffered text written to the temporary file in pieces of about this size (bounded memory at any sweep size). */
const FLUSH_CHARS = 256 * 1024;

/**
 * The probe worker's sink (`atlas probe --out DIR`): check rows and their payment terms appended to
 * one batch file per run (format.ts), under a temporary dot-name until `commit` writes the run line,
 * fsyncs, renames it to `<run id>.checks.jsonl` and fsyncs the folder. Nothing is visible to a loader
 * before that, so a killed worker leaves only a dot-file (its slots are still due: the next run
 * probes them). The counts a database run reads back from `checks` are tallied here as rows pass.
 */
export class BatchFileWriter implements CheckSink {
  private buf: string[] = [];
  private chars = 0;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private readonly tallies = new Map<string, { rule: string; reason: string; passed: boolean; n: number }>();
  private terms = 0;
  private lines = 0;

  private constructor(
    private readonly dir: string,
    private readonly runId: string,
    private readonly fh: FileHandle,
  ) {}

  static async create(dir: string, runId: string): Promise<BatchFileWriter> {
    mkdirSync(dir, { recursive: true });
    const fh = await open(join(dir, batchTempName(runId)), 'wx');
    const w = new BatchFileWriter(dir, runId, fh);
    w.buf.push(headerLine(runId));
    return w;
  }

  add(check: CheckRow, terms: Terms | null): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const line = entryLine({ check: checkRecord(check), terms: terms ? termsRecord(check, terms) : null });
    const k = `${check.rule}\u0000${check.reason}\u0000${check.passed}`;
    const t = this.tallies.get(k);
    if (t) t.n++;
    else this.tallies.set(k, { rule: check.rule, reason: check.reason, passed: check.passed, n: 1 });
    if (terms) this.terms++;
    this.lines++;
    this.buf.push(line);
    this.chars += line.length;
    return this.chars >= FLUSH_CHARS ? this.flush() : Promise.resolve();
  }

  private flush(): Promise<void> {
    if (!this.buf.length) return this.chain;
    const text = `${this.buf.join('\n')}\n`;
    this.buf = [];
    this.chars = 0;
    this.chain = this.chain.then(async () => {
      if (this.failure) throw this.failure;
      try {
        await this.fh.write(text);
      } catch (e) {
        this.failure ??= e;
        throw e;
      }
    });
    return this.chain;
  }

  close(): Promise<void> {
    return this.flush();
  }

  /** What the file holds so far, in the shape of a run's stored counts. */
  counts(): Pick<RunCounts, 'stored' | 'passed' | 'failed' | 'by_reason' | 'by_rule' | 'payment_terms'> {
    return aggregateCounts([...this.tallies.values()], this.terms);
  }

  /** Finish the file: the run line, fsync, rename into place, fsync the folder. Returns the final path. */
  async commit(run: Omit<BatchRun, 'checks' | 'id'>): Promise<string> {
    this.buf.push(runLine({ ...run, id: this.runId, checks: this.lines }));
    await this.flush();
    await this.fh.sync();
    await this.fh.close();
    const final = join(this.dir, batchFileName(this.runId));
    await rename(join(this.dir, batchTempName(this.runId)), final);
    const d = await open(this.dir, 'r');
    try {
      await d.sync();
    } finally {
      await d.close();
    }
    return final;
  }

  /** Drop the unfinished file (the run could not be recorded). */
  async abort(): Promise<void> {
    await this.fh.close().catch(() => undefined);
    await rm(join(this.dir, batchTempName(this.runId)), { force: true });
  }
}
