import type { z } from 'zod';
import { AtlasError } from '../../pipeline/core/errors.ts';

/**
 * Validate a request body with its contract schema; the first problem becomes one 400
 * (`invalid_input`) naming the member, e.g. `note: at most 500 characters`.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  if (i.code === 'unrecognized_keys') {
    // A nested object (an outcome report's receipt) names where the member is.
    const at = i.path.length ? `${i.path.map(String).join('.')}: ` : '';
    throw new AtlasError('invalid_input', `${what}: ${at}unknown member ${i.keys.map((k) => JSON.stringify(k)).join(', ')}`);
  }
  if (i.path.length === 0) throw new AtlasError('invalid_input', `${what}: must be a JSON object`);
  const where = i.path.map(String).join('.');
  const msg =
    i.code === 'too_big' && 'maximum' in i
      ? `at most ${String(i.maximum)} characters`
      : i.code === 'invalid_type' && i.message.includes('received undefined')
        ? 'required'
        : i.message;
  throw new AtlasError('invalid_input', `${what}: ${where}: ${msg}`);
}
