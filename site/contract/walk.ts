import { z } from 'zod';
import { componentName } from './components.ts';

/**
 * Walk a contract schema's members. Inline objects are entered (their members get dotted paths);
 * members whose schema is a named component stop there (shown as a reference to it). Used by the
 * field dictionary and its coverage test, so every member of every response is listed.
 */
export interface Member {
  /** Dotted path relative to the named schema; array elements add `[]` (`items[].id`). */
  path: string;
  /** Human type: `integer`, `string (date-time) or null`, `array of ServiceSummary`, ... */
  type: string;
  optional: boolean;
  /** The schema's own `.describe()` text, when it has one (fallback definition). */
  description?: string;
}

function unwrap(s: z.ZodType): { inner: z.ZodType; nullable: boolean; optional: boolean } {
  let inner = s;
  let nullable = false;
  let optional = false;
  for (;;) {
    if (inner instanceof z.ZodNullable) {
      nullable = true;
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodOptional) {
      optional = true;
      inner = inner.unwrap() as z.ZodType;
    } else return { inner, nullable, optional };
  }
}

export function typeName(s: z.ZodType): string {
  const { inner, nullable } = unwrap(s);
  const base = baseTypeName(inner);
  return nullable ? `${base} or null` : base;
}

function baseTypeName(s: z.ZodType): string {
  const named = componentName(s);
  if (named) return named;
  if (s instanceof z.ZodArray) return `array of ${typeName(s.element as z.ZodType)}`;
  if (s instanceof z.ZodObject) return 'object';
  if (s instanceof z.ZodRecord) return `object of ${typeName(s.valueType as z.ZodType)} by key`;
  if (s instanceof z.ZodUnion) return (s.options as z.ZodType[]).map(typeName).join(' or ');
  if (s instanceof z.ZodLiteral) return `constant ${JSON.stringify(s.value)}`;
  if (s instanceof z.ZodEnum) return `one of ${s.options.join(', ')}`;
  if (s instanceof z.ZodBoolean) return 'boolean';
  if (s instanceof z.ZodNumber) return s.format === 'safeint' ? 'integer' : 'number';
  // String formats (z.iso.datetime, z.iso.date) are not ZodString subclasses in zod 4: read the def.
  const def = (s as unknown as { _zod: { def: { type: string; format?: string } } })._zod.def;
  if (def.type === 'string') return def.format === 'datetime' ? 'string (date-time)' : def.format === 'date' ? 'string (date)' : 'string';
  if (s instanceof z.ZodUnknown) return 'any JSON value';
  return 'value';
}

/** Members of an object schema, entering inline objects and arrays of inline objects. */
export function membersOf(schema: z.ZodType, prefix = ''): Member[] {
  const { inner } = unwrap(schema);
  if (!(inner instanceof z.ZodObject)) return [];
  const out: Member[] = [];
  for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const u = unwrap(child);
    const description = child.description ?? u.inner.description;
    out.push({ path, type: typeName(child), optional: u.optional, ...(description ? { description } : {}) });
    if (componentName(u.inner)) continue;
    if (u.inner instanceof z.ZodObject) out.push(...membersOf(u.inner, path));
    else if (u.inner instanceof z.ZodArray) {
      const el = unwrap(u.inner.element as z.ZodType).inner;
      if (el instanceof z.ZodObject && !componentName(el)) out.push(...membersOf(el, `${path}[]`));
    }
  }
  return out;
}
