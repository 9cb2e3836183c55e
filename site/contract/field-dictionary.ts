import { API_STATUS } from './common.ts';
import { COMPONENTS, INHERITS } from './components.ts';
import { API_VERSION } from './common.ts';
import { fieldDoc, type FieldDoc } from './field-docs.ts';
import type { FieldEntry, Fields } from './fields.ts';
import { SERVICES_QUERY_PARAMS } from './requests.ts';
import { membersOf, type Member } from './walk.ts';

/** A member documented by its schema's own `.describe()` (the report body, owned by pipeline/reports). */
function describedDoc(schemaName: string, description: string | undefined): FieldDoc | undefined {
  if (!description) return undefined;
  return {
    definition: description,
    unit: null,
    window: schemaName === 'ReportBody' ? 'the week (week_start to figures_until)' : null,
    source: 'computed',
  };
}

/**
 * Members of schemas other parts own (the report body) that carry neither an entry nor a
 * `.describe()` text: defined from the nearest documented parent (a breakdown of it by key), so a
 * member added there is listed with a meaningful definition at once. Atlas's own schemas get no
 * such fallback: the coverage test requires an explicit entry for each of their members.
 */
const INHERIT_PARENT_DOCS = new Set(['ReportBody']);

function parentDoc(name: string, path: string, described: Map<string, string>): FieldDoc | undefined {
  if (!INHERIT_PARENT_DOCS.has(name)) return undefined;
  const parts = path.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const parent = parts.slice(0, i).join('.');
    const doc = fieldDoc(name, parent) ?? describedDoc(name, described.get(parent));
    if (doc) return { ...doc, definition: `${doc.definition} Breakdown: ${parts.slice(i).join(' / ')}.` };
  }
  return undefined;
}

function docFor(name: string, path: string, description: string | undefined, described: Map<string, string>): FieldDoc | undefined {
  const parent = INHERITS[name];
  return (
    fieldDoc(name, path) ??
    describedDoc(name, description) ??
    (parent ? fieldDoc(parent, path) : undefined) ??
    parentDoc(name, path, described)
  );
}

const describedPaths = (members: Member[]) => new Map(members.filter((m) => m.description).map((m) => [m.path, m.description!]));

/**
 * The field dictionary: every member of every named schema (responses and their parts), with the
 * definition, unit, window and source from FIELD_DOCS. Members a schema inherits (ServiceDetail's
 * ServiceSummary members) are listed once, under the schema that defines them. The search
 * parameters follow, under ServicesQuery (queryEntries).
 * A member without an entry is a contract bug: `missingFieldDocs()` lists them (the test asserts none).
 */
export function fieldEntries(): FieldEntry[] {
  const out: FieldEntry[] = [];
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    const parent = INHERITS[name];
    const inherited = parent ? new Set(membersOf(COMPONENTS[parent]!).map((m) => m.path)) : new Set<string>();
    const members = membersOf(schema);
    const described = describedPaths(members);
    for (const m of members) {
      if (inherited.has(m.path)) continue;
      const doc = docFor(name, m.path, m.description, described);
      out.push({
        resource: name,
        path: m.path,
        type: m.optional ? `${m.type} (optional)` : m.type,
        definition: doc?.definition ?? '',
        unit: doc?.unit ?? null,
        window: doc?.window ?? null,
        source: doc?.source ?? 'atlas',
      });
    }
  }
  return [...out, ...queryEntries()];
}

/** The resource name of the search parameters' entries in the field dictionary. */
export const SERVICES_QUERY_RESOURCE = 'ServicesQuery';

/** Units and windows of the search parameters that compare against a windowed figure. */
const PARAM_UNITS: Partial<Record<(typeof SERVICES_QUERY_PARAMS)[number]['name'], [string, string | null]>> = {
  min_pass_rate: ['share (0 to 1)', 'the 30-day evidence window (as evidence.pass_rate)'],
  min_checks: ['checks', 'the 30-day evidence window (as evidence.checks_30d)'],
  min_days: ['days', null],
  min_payers: ['payers', "the registry's 30 days"],
  max_price_usd: ['USD', null],
  max_terms_changes_90d: ['changes', 'the 90-day payment-terms window (as payment_terms.changes_90d)'],
  limit: ['services', null],
  offset: ['services', null],
};

/**
 * The query parameters of GET /api/v1/services as dictionary entries (resource ServicesQuery), with
 * their parameter texts: each filter's text ends with how it treats unknown values
 * (SERVICES_FILTER_UNKNOWN in requests.ts), so the dictionary states it as the OpenAPI document does.
 */
function queryEntries(): FieldEntry[] {
  return SERVICES_QUERY_PARAMS.map((p) => {
    const [unit, window] = PARAM_UNITS[p.name] ?? [null, null];
    return {
      resource: SERVICES_QUERY_RESOURCE,
      path: p.name,
      type: `${p.type} (query parameter, optional)`,
      definition: p.description,
      unit,
      window,
      source: 'request' as const,
    };
  });
}

export function missingFieldDocs(): string[] {
  const missing: string[] = [];
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    const members = membersOf(schema);
    const described = describedPaths(members);
    for (const m of members) if (!docFor(name, m.path, m.description, described)) missing.push(`${name}.${m.path}`);
  }
  return missing;
}

export function buildFields(generatedAt: Date): Fields {
  return { api_status: API_STATUS, generated_at: generatedAt.toISOString(), version: API_VERSION, fields: fieldEntries() };
}
