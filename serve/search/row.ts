import type { IndexRecord } from '../../site/contract/index-record.ts';
import { compileNetworks, type CompiledNetworks } from './networks.ts';
import { type SummaryTemplate, summaryTemplate } from './template.ts';

/**
 * One tracked service compiled for search: the published summary, serialized once as a template
 * (template.ts; present.ts fills its slots per answer), plus the few values filters and sorts
 * read, normalized once at load so a search is cheap comparisons. The summary is kept as UTF-8
 * bytes outside the JS heap rather than as an object tree: 100k trees are millions of heap objects
 * every full GC has to mark, and V8 lets the heap grow to a multiple of what is live before it collects.
 */
export interface SearchRow {
  /** Position in `SiteState.rows`. */
  pos: number;
  id: string;
  /**
   * `JSON.stringify` of the published summary as UTF-8: bytes `[summaryAt, summaryEnd)` of
   * `summaryBytes`, a chunk shared with other rows (present.ts `summaryOf` parses it back).
   */
  summaryBytes: Buffer;
  summaryAt: number;
  summaryEnd: number;
  /**
   * The answer-time slots in those bytes (template.ts): from index `layout` of `templates`, a table
   * shared with other rows, the slot count then its `[from, to, slot]` triples; null when the
   * summary has another shape (presented the slow way). Kept in one typed array per generation
   * rather than an array per row on the heap.
   */
  templates: Int32Array;
  layout: number | null;
  /** Lower-cased host. */
  host: string;
  /** Offered networks as the `network` filter compares them (serve/search/networks.ts). */
  networks: CompiledNetworks;
  monitoringDays: number;
  monitoringSinceMs: number;
  tags: string[];
  nameKey: string;
  /** Freshness inputs (recomputed per answer against the server's clock). */
  lastCheckMs: number | null;
  intervalHours: number;
  /** Every applicable listing criterion other than `fresh` passed at publish. */
  criteriaExceptFresh: boolean;
}

/** Where a row's serialized summary and its template are kept. */
interface Stored {
  bytes: Buffer;
  at: number;
  end: number;
  templates: Int32Array;
  layout: number | null;
}

function rowOf(rec: IndexRecord, pos: number, stored: Stored): SearchRow {
  const s = rec.summary;
  const e = s.evidence;
  const lastCheck = rec.search.last_check_at ? Date.parse(rec.search.last_check_at) : NaN;
  return {
    pos,
    id: s.id,
    summaryBytes: stored.bytes,
    summaryAt: stored.at,
    summaryEnd: stored.end,
    templates: stored.templates,
    layout: stored.layout,
    host: s.host.toLowerCase(),
    networks: compileNetworks(s.networks),
    monitoringDays: e.monitoring_days,
    monitoringSinceMs: Date.parse(e.monitoring_since) || 0,
    tags: s.tags,
    nameKey: s.name.toLowerCase(),
    lastCheckMs: Number.isFinite(lastCheck) ? lastCheck : null,
    intervalHours: rec.search.check_interval_hours,
    criteriaExceptFresh: rec.search.criteria_except_fresh,
  };
}

/** The table of rows without a template. */
const NO_TEMPLATES = new Int32Array(0);

/** `template` as the table entry SearchRow.layout points at: the slot count, then the triples. */
function writeTemplate(table: Int32Array, at: number, template: SummaryTemplate): void {
  table[at] = template.length / 3;
  table.set(template, at + 1);
}

/** One row with its summary and template in buffers of their own (tests and single records; a generation compiles through compile.ts). */
export function compileRow(rec: IndexRecord, pos: number): SearchRow {
  const { json, template } = summaryTemplate(rec.summary);
  const bytes = Buffer.from(json, 'utf8');
  let templates = NO_TEMPLATES;
  if (template !== null) {
    templates = new Int32Array(template.length + 1);
    writeTemplate(templates, 0, template);
  }
  return rowOf(rec, pos, { bytes, at: 0, end: bytes.length, templates, layout: template === null ? null : 0 });
}

const CHUNK_BYTES = 4 << 20;
const TABLE_INTS = 1 << 16;

/**
 * Compiles one generation's rows, appending their serialized summaries to chunks allocated outside
 * the JS heap, and their templates to tables of the same kind; rows keep their chunk and table, so
 * both are freed with the last generation that uses them. One compiler per load: nothing is shared
 * between generations.
 */
export class RowCompiler {
  private chunk = Buffer.alloc(0);
  private used = 0;
  private table = NO_TEMPLATES;
  private tableUsed = 0;

  compile(rec: IndexRecord, pos: number): SearchRow {
    const { json, template } = summaryTemplate(rec.summary);
    const stored = this.store(json);
    if (template === null) return rowOf(rec, pos, { ...stored, templates: NO_TEMPLATES, layout: null });
    const size = template.length + 1;
    if (this.tableUsed + size > this.table.length) {
      this.table = new Int32Array(Math.max(TABLE_INTS, size));
      this.tableUsed = 0;
    }
    const layout = this.tableUsed;
    writeTemplate(this.table, layout, template);
    this.tableUsed += size;
    return rowOf(rec, pos, { ...stored, templates: this.table, layout });
  }

  private store(json: string): Pick<Stored, 'bytes' | 'at' | 'end'> {
    const size = Buffer.byteLength(json);
    if (this.used + size > this.chunk.length) {
      this.chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, size));
      this.used = 0;
    }
    const at = this.used;
    this.chunk.write(json, at, 'utf8');
    this.used += size;
    return { bytes: this.chunk, at, end: this.used };
  }
}
