import { z } from 'zod';
import { ApiStatus, DateTime } from './common.ts';

/** Where a field's value comes from. */
export const FieldSource = z.enum(['measured', 'computed', 'registry', 'operator', 'atlas', 'request', 'constant']);

export const FieldEntry = z.strictObject({
  path: z.string(),
  resource: z.string(),
  type: z.string(),
  definition: z.string(),
  unit: z.string().nullable(),
  window: z.string().nullable(),
  source: FieldSource,
});
export type FieldEntry = z.infer<typeof FieldEntry>;

/** GET /api/v1/fields: the field dictionary, generated from the response schemas. */
export const Fields = z.strictObject({
  api_status: ApiStatus,
  generated_at: DateTime,
  version: z.string(),
  fields: z.array(FieldEntry),
});
export type Fields = z.infer<typeof Fields>;
