import { AtlasError } from '../core/errors.ts';
import type { Row } from './rows.ts';

/**
 * The rendered rows, one at a time in ordinal order, read in batches of `batchSize` (`fetch(lo, hi)`
 * gives the rows of ranks lo..hi, 1-based). The next batch is always requested while this one is
 * consumed: DuckDB runs its query on its own threads while JS shapes the rows. `waited` adds the
 * milliseconds spent waiting for a batch (the `query` timing). Call `close` in a `finally`: a
 * prefetch still running must finish before the staged tables are dropped.
 */
export class RowBatches {
  private batch: Row[] = [];
  private at = 0;
  private fetched = 0;
  private pending: Promise<Row[]> | null;

  constructor(
    private readonly fetch: (lo: number, hi: number) => Promise<Row[]>,
    private readonly total: number,
    private readonly batchSize: number,
    private readonly waited: (ms: number) => void = () => undefined,
  ) {
    this.pending = total > 0 ? this.request(1) : null;
  }

  /** The row of ordinal `ord`, the next one; a row of another ordinal is a publishing bug. */
  async next(ord: number): Promise<Row> {
    if (this.at === this.batch.length) await this.advance();
    const row = this.batch[this.at++];
    if (row === undefined || Number(row.ord) !== ord)
      throw new AtlasError('internal', `publish: row ${String(row?.ord)} read where ${ord} was expected`);
    return row;
  }

  async close(): Promise<void> {
    await this.pending?.catch(() => undefined);
  }

  private request(lo: number): Promise<Row[]> {
    const p = this.fetch(lo, Math.min(lo + this.batchSize - 1, this.total));
    p.catch(() => undefined); // observed when awaited; no unhandled rejection if an earlier step throws first
    return p;
  }

  private async advance(): Promise<void> {
    if (!this.pending) throw new AtlasError('internal', `publish: more rows asked for than the ${this.total} staged`);
    const t = performance.now();
    this.batch = await this.pending;
    this.waited(performance.now() - t);
    this.at = 0;
    this.fetched += this.batch.length;
    this.pending = this.fetched < this.total && this.batch.length > 0 ? this.request(this.fetched + 1) : null;
  }
}
