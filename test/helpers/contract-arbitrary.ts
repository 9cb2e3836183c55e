import fc from 'fast-check';
import { z } from 'zod';

/**
 * Fixture factory: a fast-check arbitrary of every value a contract schema accepts, derived from
 * the schema itself (its JSON Schema, z.toJSONSchema) so that a member added to the contract is
 * generated without touching the test. Instants fall between MIN_INSTANT and MAX_INSTANT (years of
 * four digits, as the contract's DateTime requires); arrays hold at most MAX_ITEMS elements and
 * numbers stay finite. The caller checks the values with the schema itself: the JSON Schema cannot
 * say everything a zod schema says.
 */
const MIN_INSTANT = new Date('2020-01-01T00:00:00Z');
const MAX_INSTANT = new Date('2035-12-31T23:59:59Z');
const MAX_ITEMS = 3;
const INT_BOUND = 1e9;

/** A JSON Schema node as z.toJSONSchema writes it (the members this factory reads). */
interface Node {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Node[];
  oneOf?: Node[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: Node | boolean;
  items?: Node;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
}

/** Any ISO instant in the factory's range, as the contract writes one. */
export const instantArb: fc.Arbitrary<string> = fc
  .date({ min: MIN_INSTANT, max: MAX_INSTANT, noInvalidDate: true })
  .map((d) => d.toISOString());

function numberArb(n: Node, integer: boolean): fc.Arbitrary<number> {
  if (integer) {
    const min = Math.max(n.minimum ?? -INT_BOUND, n.exclusiveMinimum === undefined ? -INT_BOUND : n.exclusiveMinimum + 1);
    const max = Math.min(n.maximum ?? INT_BOUND, n.exclusiveMaximum === undefined ? INT_BOUND : n.exclusiveMaximum - 1);
    return fc.integer({ min, max });
  }
  const min = n.exclusiveMinimum ?? n.minimum ?? -INT_BOUND;
  const max = n.exclusiveMaximum ?? n.maximum ?? INT_BOUND;
  return fc.double({
    min,
    max,
    minExcluded: n.exclusiveMinimum !== undefined,
    maxExcluded: n.exclusiveMaximum !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function stringArb(n: Node): fc.Arbitrary<string> {
  if (n.format === 'date-time') return instantArb;
  if (n.pattern !== undefined) {
    const re = new RegExp(n.pattern);
    const arb = fc.stringMatching(re);
    return n.maxLength === undefined && n.minLength === undefined
      ? arb
      : arb.filter((s) => s.length >= (n.minLength ?? 0) && s.length <= (n.maxLength ?? Number.POSITIVE_INFINITY));
  }
  return fc.string({ minLength: n.minLength ?? 0, maxLength: Math.min(n.maxLength ?? 12, 12) });
}

function objectArb(n: Node): fc.Arbitrary<unknown> {
  if (n.properties) {
    const shape = Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, nodeArb(v)]));
    return fc.record(shape, { requiredKeys: n.required ?? [] });
  }
  const values = typeof n.additionalProperties === 'object' ? nodeArb(n.additionalProperties) : fc.constant(null);
  return fc.dictionary(fc.string({ maxLength: 8 }), values, { maxKeys: MAX_ITEMS });
}

function typedArb(type: string, n: Node): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArb(n, true);
    case 'number':
      return numberArb(n, false);
    case 'string':
      return stringArb(n);
    case 'array':
      return fc.array(n.items ? nodeArb(n.items) : fc.constant(null), {
        minLength: n.minItems ?? 0,
        maxLength: Math.min(n.maxItems ?? MAX_ITEMS, MAX_ITEMS),
      });
    case 'object':
      return objectArb(n);
    default:
      throw new Error(`contract-arbitrary: JSON Schema type ${type} is not handled`);
  }
}

function nodeArb(n: Node): fc.Arbitrary<unknown> {
  if (n.$ref !== undefined) throw new Error(`contract-arbitrary: $ref ${n.$ref} is not handled (inline schemas only)`);
  if (n.const !== undefined) return fc.constant(n.const);
  if (n.enum) return fc.constantFrom(...n.enum);
  const alternatives = n.anyOf ?? n.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(nodeArb));
  if (Array.isArray(n.type)) return fc.oneof(...n.type.map((t) => typedArb(t, n)));
  if (n.type === undefined) return fc.jsonValue();
  return typedArb(n.type, n);
}

/** The arbitrary of the values `schema` accepts as input (the published shape, for a file schema). */
export function contractArbitrary<S extends z.ZodType>(schema: S): fc.Arbitrary<z.input<S>> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Node;
  return nodeArb(json) as fc.Arbitrary<z.input<S>>;
}
