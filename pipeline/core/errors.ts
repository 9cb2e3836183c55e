import type { ErrorCode } from '../../site/contract/error.ts';

export type { ErrorCode } from '../../site/contract/error.ts';

/**
 * The one error base. Every failure that a user should see carries a code from the fixed union
 * ERROR_CODES (defined with the error body in the contract, site/contract/error.ts);
 * the CLI's top level and the server's onError map codes to exit codes and HTTP statuses in one place.
 * Anything thrown that is not an AtlasError is unexpected: exit 1 / HTTP 500 with no internals.
 */
export class AtlasError extends Error {
  readonly code: ErrorCode;
  /** Extra, client-safe detail (e.g. the zod issues of a rejected body, Retry-After seconds). */
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AtlasError';
    this.code = code;
    this.details = details;
  }
}

export const isAtlasError = (e: unknown): e is AtlasError => e instanceof AtlasError;

/**
 * CLI contract (docs/operations.md, "Global options and exit codes"): 0 done; 1 failed; 2 bad usage or input, or storage the operator
 * must fix first (a full disk or a read-only mount: retrying as is cannot succeed).
 */
export function exitCodeFor(code: ErrorCode): 1 | 2 {
  switch (code) {
    case 'storage_unavailable':
    case 'bad_usage':
    case 'invalid_input':
    case 'invalid_parameter':
    case 'invalid_json':
    case 'not_found':
      return 2;
    default:
      return 1;
  }
}

export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'bad_usage':
    case 'invalid_input':
    case 'invalid_parameter':
    case 'invalid_json':
      return 400;
    case 'unauthorized':
      return 401;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'rate_limited':
      return 429;
    case 'locked':
    case 'source_failed':
    case 'storage_unavailable':
      return 503;
    default:
      return 500;
  }
}

/** Render zod issues as `path: message; path: message` for one-line CLI and HTTP messages. */
export function formatIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`).join('; ');
}

const STORAGE_CODES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the storage is read-only',
};
const STORAGE_TEXT: ReadonlyArray<[RegExp, string]> = [
  [/No space left on device|disk is full/i, STORAGE_CODES.ENOSPC!],
  [/Disk quota exceeded/i, STORAGE_CODES.EDQUOT!],
  [/Read-only file system/i, STORAGE_CODES.EROFS!],
];

/**
 * A full disk or read-only storage (an fs errno, or DuckDB's I/O error text) as `storage_unavailable`
 * with one line naming `what` was being written; null for any other error (and for an AtlasError).
 * The one place the inbox log, the publish writer and the database writer recognise it.
 */
export function storageError(e: unknown, what: string): AtlasError | null {
  if (e instanceof AtlasError || !e) return null;
  const code = (e as { code?: unknown }).code;
  const message = (e as Error).message ?? String(e);
  const why = (typeof code === 'string' ? STORAGE_CODES[code] : undefined) ?? STORAGE_TEXT.find(([re]) => re.test(message))?.[1];
  if (!why) return null;
  const detail = message.replace(/\s+/g, ' ').trim().slice(0, 300);
  return new AtlasError('storage_unavailable', `${what}: ${why} (${detail})`, undefined, { cause: e });
}
