import type { FieldEntry } from '../../site/contract/fields.ts';

/**
 * The API reference as Markdown (`docs/api.md`), rendered from the same two views of the contract
 * that the server publishes: the OpenAPI document (operations, parameters, statuses) and the field
 * dictionary (every member's definition, unit, window and source). Pure: documents in, text out.
 * Code comments cite this file for the wire format; test/pipeline/publish/api-reference.test.ts keeps
 * the committed copy equal to the rendering (`npm run docs:api` rewrites it).
 */
type Json = Record<string, unknown>;

const cell = (v: unknown): string =>
  String(v ?? '')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ');

function schemaText(schema: Json | undefined): string {
  if (!schema) return '';
  const parts: string[] = [String(schema.type ?? (schema.$ref ? String(schema.$ref).split('/').pop() : 'any'))];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map((e) => `\`${e}\``).join(', ')}`);
  for (const [k, label] of [
    ['minimum', '>='],
    ['maximum', '<='],
    ['maxLength', 'max length'],
    ['pattern', 'pattern'],
    ['default', 'default'],
  ] as const) {
    if (schema[k] !== undefined) parts.push(`${label} ${k === 'pattern' ? `\`${schema[k]}\`` : schema[k]}`);
  }
  return parts.join(', ');
}

export function renderApiReference(openapi: Json, fields: readonly FieldEntry[]): string {
  const info = openapi.info as Json;
  const paths = openapi.paths as Record<string, Record<string, Json>>;
  const out: string[] = [
    '# Atlas API reference',
    '',
    `Version ${info.version}. Generated from the contract (\`site/contract/\`): do not edit by hand; run \`npm run docs:api\`.`,
    '',
    String(info.description ?? ''),
    '',
    '## Operations',
    '',
    '| Method | Path | What it does | Answers |',
    '|---|---|---|---|',
  ];
  const operations: Array<[string, string, Json]> = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) operations.push([method.toUpperCase(), path, op]);
  }
  for (const [method, path, op] of operations) {
    const statuses = Object.keys((op.responses as Json | undefined) ?? {}).join(', ');
    out.push(`| ${method} | \`${path}\` | ${cell(op.summary)} | ${statuses} |`);
  }
  for (const [method, path, op] of operations) {
    const params = (op.parameters as Json[] | undefined) ?? [];
    if (!params.length) continue;
    out.push('', `### ${method} ${path}`, '', '| Parameter | In | Type and bounds | Meaning |', '|---|---|---|---|');
    for (const p of params) out.push(`| \`${p.name}\` | ${p.in} | ${cell(schemaText(p.schema as Json))} | ${cell(p.description)} |`);
  }
  out.push(
    '',
    '## Fields',
    '',
    'Every member of every response, and under ServicesQuery every search parameter (each filter with how it treats unknown values), as the field dictionary (`GET /api/v1/fields`) defines it.',
  );
  const byResource = new Map<string, FieldEntry[]>();
  for (const f of fields) byResource.set(f.resource, [...(byResource.get(f.resource) ?? []), f]);
  for (const [resource, entries] of byResource) {
    out.push('', `### ${resource}`, '', '| Member | Type | Definition | Unit | Window | Source |', '|---|---|---|---|---|---|');
    for (const f of entries) {
      out.push(
        `| \`${f.path}\` | ${cell(f.type)} | ${cell(f.definition)} | ${cell(f.unit ?? '')} | ${cell(f.window ?? '')} | ${f.source} |`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}
