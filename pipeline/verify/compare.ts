import { createHash } from 'node:crypto';
import { PaymentTerms } from '../../site/contract/payment-terms.ts';

/**
 * Pure parts of `atlas verify`: choosing the sample and comparing published values with the values
 * the documented queries (queries.ts) recompute. No I/O here; verify.ts reads the tree and the
 * database and calls these.
 */

/** One published figure that differs from its recomputation. `id`: a service id or `reports/<week>`. */
export interface Mismatch {
  id: string;
  field: string;
  published: unknown;
  recomputed: unknown;
}

/** Row of query `evidence` (queries.ts), as DuckDB returns it (BIGINT may arrive as text). */
export interface EvidenceRow {
  service_id: string;
  operations: unknown;
  check_interval_hours: unknown;
  check_interval: unknown;
  monitoring_since: unknown;
  monitoring_days: unknown;
  limited_evidence: unknown;
  checks_30d: unknown;
  passed_30d: unknown;
  missed_30d: unknown;
  pass_rate: unknown;
  freshness: unknown;
  last_check_at: unknown;
}

/** The published payment-term members, compared one by one: the contract's PaymentTerms shape. */
type TermsField = keyof PaymentTerms;

/** Row of query `payment_terms`: one column per published member. */
export type TermsRow = { service_id: string } & Record<TermsField, unknown>;

/** Row of query `declared_terms`: the published DeclaredTermsState members (rule declared-terms/1). */
export interface DeclaredRow {
  service_id: string;
  differs: unknown;
  dimensions: unknown;
  since: unknown;
  sources_compared: unknown;
}

/**
 * Compare a published service's declared_terms with rule declared-terms/1 recomputed at the
 * generation's compute instant (query `declared_terms`); no row: the published member must be null.
 */
export function compareDeclared(published: unknown, row: DeclaredRow | undefined): Mismatch[] {
  const body = obj(published) ?? {};
  const id = String(body.id);
  const dt = body.declared_terms === null || body.declared_terms === undefined ? null : obj(body.declared_terms);
  if (!row) return dt === null ? [] : [{ id, field: 'declared_terms', published: 'present', recomputed: null }];
  if (dt === null) return [{ id, field: 'declared_terms', published: null, recomputed: 'present' }];
  const out: Mismatch[] = [];
  const dims = (v: unknown) => JSON.stringify(Array.isArray(v) ? v.map(String) : v);
  if (dt.differs !== row.differs) out.push({ id, field: 'declared_terms.differs', published: dt.differs, recomputed: row.differs });
  if (dims(dt.dimensions) !== dims(row.dimensions))
    out.push({ id, field: 'declared_terms.dimensions', published: dt.dimensions, recomputed: row.dimensions });
  if ((dt.since ?? null) !== (row.since ?? null))
    out.push({ id, field: 'declared_terms.since', published: dt.since, recomputed: row.since });
  if (!sameFigure(dt.sources_compared, asNumber(row.sources_compared)))
    out.push({ id, field: 'declared_terms.sources_compared', published: dt.sources_compared, recomputed: asNumber(row.sources_compared) });
  return out;
}

/** Row of query `directory`: in_directory and one column per criterion id (null: does not apply). */
export type DirectoryRow = { service_id: string; in_directory: unknown } & Record<string, unknown>;

/** `<id>  <field>  published=…  recomputed=…` (values as JSON; a member that is missing: absent). */
export function formatMismatch(m: Mismatch): string {
  const v = (x: unknown) => (x === undefined ? 'absent' : JSON.stringify(x));
  return `${m.id}  ${m.field}  published=${v(m.published)}  recomputed=${v(m.recomputed)}`;
}

/**
 * A deterministic sample of `n` ids seeded by `seed` (the generation id): ids ordered by
 * SHA-256(seed, id), the first n, returned in id order. The same tree always checks the same services;
 * another generation checks another sample. n >= ids.length: every id.
 */
export function sampleIds(ids: readonly string[], n: number, seed: string): string[] {
  if (n >= ids.length) return [...ids].sort();
  const key = (id: string) => createHash('sha256').update(seed).update('\0').update(id).digest('hex');
  return ids
    .map((id) => ({ id, k: key(id) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
    .slice(0, n)
    .map((x) => x.id)
    .sort();
}

/** DuckDB values → JSON values: numeric text (BIGINT) → number; lists kept; undefined → null. */
function norm(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  return v;
}

/** Equal as published figures: numbers within a relative 1e-9 (doubles written as JSON), else deep-equal JSON. */
export function sameFigure(a: unknown, b: unknown): boolean {
  const x = norm(a);
  const y = norm(b);
  const nx = typeof x === 'string' && typeof y === 'number' && /^-?\d+(\.\d+)?$/.test(x) ? Number(x) : x;
  const ny = typeof y === 'string' && typeof x === 'number' && /^-?\d+(\.\d+)?$/.test(y) ? Number(y) : y;
  if (typeof nx === 'number' && typeof ny === 'number') return Math.abs(nx - ny) <= 1e-9 * Math.max(1, Math.abs(nx), Math.abs(ny));
  return JSON.stringify(nx) === JSON.stringify(ny);
}

const asNumber = (v: unknown): unknown => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : norm(v));

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);

/** Evidence members of a published service and the `evidence` row's column for each. */
const EVIDENCE_FIELDS: ReadonlyArray<[field: string, column: keyof EvidenceRow]> = [
  ['operations', 'operations'],
  ['check_interval_hours', 'check_interval_hours'],
  ['check_interval', 'check_interval'],
  ['monitoring_since', 'monitoring_since'],
  ['monitoring_days', 'monitoring_days'],
  ['limited_evidence', 'limited_evidence'],
  ['checks_30d', 'checks_30d'],
  ['passed_30d', 'passed_30d'],
  ['missed_30d', 'missed_30d'],
  ['pass_rate', 'pass_rate'],
  ['freshness', 'freshness'],
];

const TERMS_FIELDS = Object.keys(PaymentTerms.shape) as TermsField[];

/**
 * Compare a published service (its api/v1/services/<id>.json body as the server answers it: verify.ts
 * completes monitoring_days and payment_terms.window_start first) with the recomputed evidence and
 * payment terms at the generation's compute instant. `evidence` undefined: the service has no row
 * (every service has one, so that is itself a mismatch); `terms` undefined: no terms row, so the
 * published payment_terms must be null.
 */
export function compareServiceFigures(published: unknown, evidence: EvidenceRow | undefined, terms: TermsRow | undefined): Mismatch[] {
  const body = obj(published) ?? {};
  const id = String(body.id);
  const out: Mismatch[] = [];
  const check = (field: string, p: unknown, r: unknown) => {
    if (!sameFigure(p, asNumber(r))) out.push({ id, field, published: p, recomputed: asNumber(r) });
  };
  const ev = obj(body.evidence) ?? {};
  if (!evidence) out.push({ id, field: 'evidence', published: 'present', recomputed: undefined });
  else {
    for (const [field, col] of EVIDENCE_FIELDS) check(`evidence.${field}`, ev[field], evidence[col]);
    check('evidence.last_check.checked_at', obj(ev.last_check)?.checked_at ?? null, evidence.last_check_at);
  }
  const pt = body.payment_terms === null || body.payment_terms === undefined ? null : obj(body.payment_terms);
  if (!terms) {
    if (pt !== null) out.push({ id, field: 'payment_terms', published: 'present', recomputed: null });
  } else if (pt === null) out.push({ id, field: 'payment_terms', published: null, recomputed: 'present' });
  else for (const f of TERMS_FIELDS) check(`payment_terms.${f}`, pt[f], terms[f]);
  return out;
}

/**
 * Compare a published service's directory membership with listing-criteria/1 recomputed at the
 * evaluation's own instant (directory.evaluated_at as the server answers it: a file's completed with
 * site/contract/directory-evaluated.ts first): `in_directory` (top level and in `directory`)
 * and each criterion's `passed` (null when it does not apply). A service never evaluated publishes
 * in_directory false and is compared with nothing else (row: null).
 */
export function compareDirectory(published: unknown, row: DirectoryRow | null | undefined): Mismatch[] {
  const body = obj(published) ?? {};
  const id = String(body.id);
  const dir = obj(body.directory) ?? {};
  const out: Mismatch[] = [];
  if (dir.evaluated_at === null || dir.evaluated_at === undefined) {
    if (body.in_directory !== false) out.push({ id, field: 'in_directory', published: body.in_directory, recomputed: false });
    return out;
  }
  if (!row) return [{ id, field: 'directory', published: 'evaluated', recomputed: undefined }];
  const inDir = norm(row.in_directory) === true;
  if (body.in_directory !== inDir) out.push({ id, field: 'in_directory', published: body.in_directory, recomputed: inDir });
  if (dir.in_directory !== inDir) out.push({ id, field: 'directory.in_directory', published: dir.in_directory, recomputed: inDir });
  const criteria = Array.isArray(dir.criteria) ? (dir.criteria as unknown[]).map(obj) : [];
  for (const c of criteria) {
    if (!c) continue;
    const cid = String(c.id);
    if (!(cid in row)) {
      out.push({ id, field: `directory.criteria.${cid}`, published: 'present', recomputed: undefined });
      continue;
    }
    const r = norm(row[cid]);
    const p = c.applies ? (c.passed ?? null) : null;
    if (p !== r) out.push({ id, field: `directory.criteria.${cid}.passed`, published: p, recomputed: r });
  }
  return out;
}

/** Row of query `catalog_standing` (queries.ts). */
export interface CatalogStandingRow {
  service_id: string;
  listed_but_failing: unknown;
  passing_but_unlisted: unknown;
}

/**
 * Compare a published service's registry_listing.listed_but_failing / passing_but_unlisted with view
 * catalog_standing at the generation's compute instant. No row (a reviewed service, or no catalog
 * ever listed it): both must be null (a reviewed service has no registry_listing at all).
 */
export function compareCatalogStanding(published: unknown, row: CatalogStandingRow | undefined): Mismatch[] {
  const body = obj(published) ?? {};
  const id = String(body.id);
  const listing = obj(body.registry_listing);
  if (!listing)
    return row && (row.listed_but_failing !== null || row.passing_but_unlisted !== null)
      ? [{ id, field: 'registry_listing', published: null, recomputed: 'present' }]
      : [];
  const out: Mismatch[] = [];
  for (const f of ['listed_but_failing', 'passing_but_unlisted'] as const) {
    const r = row ? norm(row[f]) : null;
    const p = listing[f] ?? null;
    if (p !== r) out.push({ id, field: `registry_listing.${f}`, published: p, recomputed: r });
  }
  return out;
}

/** Report body members that are not figures (identity, texts). */
const NOT_FIGURES = new Set(['week', 'week_start', 'week_end', 'figures_until', 'provisional', 'notes', 'outcome_reports.note']);

/** Every figure leaf of a report body as a dotted path (numbers and nulls; texts and flags are not figures). */
export function reportLeaves(body: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const o = obj(body);
  if (!o) return out;
  for (const [k, v] of Object.entries(o)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (NOT_FIGURES.has(path)) continue;
    if (obj(v)) for (const [p, x] of reportLeaves(v, path)) out.set(p, x);
    else if (v === null || typeof v === 'number') out.set(path, v);
  }
  return out;
}

/**
 * Compare a published frozen report (the contract's Report: `report` body and `corrections`) with the
 * recomputed figures (path → value, from query `report`). A correction replaces the figure it names
 * (latest correction wins), so a corrected figure is compared with its corrected value. A published
 * figure without a recomputed row is 0 (a pass_rate: null, as "none ran"); an open record
 * (outcome_reports.by_moderation) must also not miss a recomputed key.
 */
export function compareReport(id: string, published: unknown, recomputed: ReadonlyMap<string, number | null>): Mismatch[] {
  const env = obj(published) ?? {};
  const figures = reportLeaves(env.report);
  const corrections = Array.isArray(env.corrections) ? (env.corrections as unknown[]).map(obj) : [];
  for (const c of [...corrections].sort((a, b) => Number(a?.seq ?? 0) - Number(b?.seq ?? 0))) {
    for (const [path, value] of Object.entries(obj(c?.figures) ?? {})) if (figures.has(path)) figures.set(path, value);
  }
  const out: Mismatch[] = [];
  const rid = `reports/${id}`;
  for (const [path, p] of figures) {
    const r = recomputed.has(path) ? recomputed.get(path)! : path.endsWith('.pass_rate') ? null : 0;
    if (!sameFigure(p, r)) out.push({ id: rid, field: path, published: p, recomputed: r });
  }
  for (const [path, r] of recomputed) {
    if (path.startsWith('outcome_reports.by_moderation.') && !figures.has(path))
      out.push({ id: rid, field: path, published: undefined, recomputed: r });
  }
  return out;
}

/** Row of query `outcome_reports` (queries.ts). */
export interface OutcomeCountRow {
  service_id: string;
  receipt_state: string;
  outcome: string;
  state: string;
  n: unknown;
}

/**
 * Compare a service's published outcome counts (outcome_reports and outcome_reports_by_receipt) with
 * the recomputed rows of that service: every published count, a missing row being 0. A file from
 * before receipts (no outcome_reports_by_receipt) is compared on its totals only.
 */
export function compareOutcomeReports(id: string, published: unknown, rows: readonly OutcomeCountRow[]): Mismatch[] {
  const body = obj(published) ?? {};
  const out: Mismatch[] = [];
  const want = new Map<string, number>();
  const add = (k: string, n: number) => want.set(k, (want.get(k) ?? 0) + n);
  for (const r of rows) {
    add(`outcome_reports.${r.outcome}.${r.state}`, Number(r.n));
    add(`outcome_reports_by_receipt.${r.receipt_state}.${r.outcome}.${r.state}`, Number(r.n));
  }
  for (const member of ['outcome_reports', 'outcome_reports_by_receipt']) {
    if (body[member] === undefined) continue;
    for (const [path, p] of reportLeaves(body[member], member)) {
      const r = want.get(path) ?? 0;
      if (p !== r) out.push({ id, field: path, published: p, recomputed: r });
    }
  }
  for (const [path, r] of want) {
    const member = path.split('.')[0]!;
    if (body[member] !== undefined && r !== 0 && !reportLeaves(body[member], member).has(path))
      out.push({ id, field: path, published: undefined, recomputed: r });
  }
  return out;
}
