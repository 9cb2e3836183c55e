import { z } from 'zod';
import { ApiStatus } from './common.ts';

/**
 * The fixed union of error codes. AtlasError (pipeline/core/errors.ts) carries one; the CLI maps it to
 * an exit code and the server to an HTTP status, in one place each.
 */
export const ERROR_CODES = [
  'bad_usage', // wrong command-line words or options
  'invalid_input', // a file, page, body or parameter that fails validation
  'invalid_parameter', // an HTTP query parameter out of bounds
  'invalid_json', // a request body that is not JSON
  'not_found',
  'unauthorized', // key missing or unknown
  'rate_limited',
  'payload_too_large',
  'locked', // the database is held by another writer
  'source_failed', // a registry source could not be read or had the wrong shape
  'storage_unavailable', // the disk is full or the storage read-only: nothing was written
  'conflict',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Error body: `error` (required) is one of the AtlasError codes; `message` is one line for
 * people (it names the offending parameter when there is one).
 */
export const ErrorBody = z.strictObject({
  api_status: ApiStatus,
  error: z.enum(ERROR_CODES),
  message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
