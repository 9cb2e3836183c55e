import { DuckDBTypeId } from '@duckdb/node-api';
import type { Params, Store } from './store.ts';

/** A query result as JSON-ready rows with timestamps as ISO-8601 strings (the `atlas sql` contract). */
export interface QueryResult {
  columns: string[];
  rows: Record<string, unknown>[];
}

const TIME_TYPES = new Set<number>([
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_TZ,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_NS,
]);

const BIG_INT_TYPES = new Set<number>([DuckDBTypeId.BIGINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT]);

function toSafeNumber(v: unknown): unknown {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

function toIso(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.replace(' ', 'T').replace(/\+00(:00)?$/, '');
  const d = new Date(/[zZ]$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(d.getTime()) ? v : d.toISOString();
}

export async function query(store: Store, sql: string, params?: Params): Promise<QueryResult> {
  const { columns, types, rows } = await store.table(sql, params);
  const timeCols = columns.filter((_, i) => TIME_TYPES.has(types[i]!));
  const bigCols = columns.filter((_, i) => BIG_INT_TYPES.has(types[i]!));
  if (timeCols.length) for (const r of rows) for (const c of timeCols) r[c] = toIso(r[c]);
  // Counts come back as BIGINT strings; a number is what a researcher expects when it is exact.
  if (bigCols.length) for (const r of rows) for (const c of bigCols) r[c] = toSafeNumber(r[c]);
  return { columns, rows };
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function formatTable({ columns, rows }: QueryResult): string {
  const cells = rows.map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.min(60, Math.max(c.length, ...cells.map((row) => row[i]!.length))));
  const fitCell = (s: string, w: number) => (s.length > w ? `${s.slice(0, w - 1)}…` : s.padEnd(w));
  const line = (vals: string[]) =>
    vals
      .map((v, i) => fitCell(v, widths[i]!))
      .join(' │ ')
      .trimEnd();
  const out = [line(columns), widths.map((w) => '─'.repeat(w)).join('─┼─'), ...cells.map(line)];
  out.push(`(${rows.length} row${rows.length === 1 ? '' : 's'})`);
  return out.join('\n');
}

export function formatCsv({ columns, rows }: QueryResult): string {
  const esc = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return [columns.map(esc).join(','), ...rows.map((r) => columns.map((c) => esc(cell(r[c]))).join(','))].join('\n');
}
