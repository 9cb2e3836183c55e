import type { IndexRecord } from '../../site/contract/index-record.ts';
import { buildColumns, type Columns } from './columns.ts';
import { FilterColumnWriter } from './filters.ts';
import { RowCompiler, type SearchRow } from './row.ts';

/** One generation compiled for search: its rows in published order and their columns (with the indexes). */
export interface CompiledGeneration {
  rows: SearchRow[];
  columns: Columns;
}

/**
 * Compiles a generation record by record (the loader streams them): each record becomes its row
 * (row.ts), its filter values go into the generation's filter columns at the row's position, and
 * its haystack is kept for the text columns; the record itself is not retained. Nothing per row
 * outlives the load but the row: every per-row value the columns need is written into one typed
 * array per column, so a load leaves no per-row garbage behind for the collector.
 */
export class GenerationCompiler {
  private readonly rows: SearchRow[] = [];
  private readonly haystacks: string[] = [];
  private readonly summaries = new RowCompiler();
  private readonly filters: FilterColumnWriter;

  /** `expected`: how many records the generation says it has (the columns are sized to it). */
  constructor(expected: number) {
    this.filters = new FilterColumnWriter(expected);
  }

  add(rec: IndexRecord): void {
    const pos = this.rows.length;
    this.rows.push(this.summaries.compile(rec, pos));
    this.filters.write(pos, rec);
    this.haystacks.push(rec.search.haystack);
  }

  finish(): CompiledGeneration {
    const rows = this.rows;
    return { rows, columns: buildColumns(rows, this.haystacks, this.filters.columns(rows.length)) };
  }
}

/** A whole generation's records compiled at once (tests and small generations). */
export function compileGeneration(records: readonly IndexRecord[]): CompiledGeneration {
  const g = new GenerationCompiler(records.length);
  for (const rec of records) g.add(rec);
  return g.finish();
}
