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
  /** The answer-time slots in those bytes (template.ts); null when the summary has another shape (presented the slow way). */
  layout: SummaryTemplate | null;
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

/** Where a row's serialized summary is kept. */
interface Stored {
  bytes: Buffer;
  at: number;
  end: number;
}

function rowOf(rec: IndexRecord, pos: number, stored: Stored, layout: SummaryTemplate | null): SearchRow {
  const s = rec.summary;
  const e = s.evidence;
  const lastCheck = rec.search.last_check_at ? Date.parse(rec.search.last_check_at) : NaN;
  return {
    pos,
    id: s.id,
    summaryBytes: stored.bytes,
    summaryAt: stored.at,
    summaryEnd: stored.end,
    layout,
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

/** One row with its summary in a buffer of its own (tests and single records; a generation compiles through compile.ts). */
export function compileRow(rec: IndexRecord, pos: number): SearchRow {
  const { json, template } = summaryTemplate(rec.summary);
  const bytes = Buffer.from(json, 'utf8');
  return rowOf(rec, pos, { bytes, at: 0, end: bytes.length }, template);
}

const CHUNK_BYTES = 4 << 20;

/**
 * Compiles one generation's rows, appending their serialized summaries to chunks allocated outside
 * the JS heap; rows keep their chunk, so a chunk is freed with the last generation that uses it.
 * One compiler per load: nothing is shared between generations.
 */
export class RowCompiler {
  private chunk = Buffer.alloc(0);
  private used = 0;

  compile(rec: IndexRecord, pos: number): SearchRow {
    const { json, template } = summaryTemplate(rec.summary);
    return rowOf(rec, pos, this.store(json), template);
  }

  private store(json: string): Stored {
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
