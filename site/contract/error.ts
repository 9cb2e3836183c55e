import { z } from 'zod';
import { ERROR_CODES } from '../../pipeline/core/errors.ts';
import { ApiStatus } from './common.ts';

/**
 * Error body (spec 7): `error` (required) is one of the AtlasError codes; `message` is one line for
 * people (it names the offending parameter when there is one).
 */
export const ErrorBody = z.strictObject({
  api_status: ApiStatus,
  error: z.enum(ERROR_CODES),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
