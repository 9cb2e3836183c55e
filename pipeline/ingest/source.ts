import { existsSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { CheckReason } from '../../site/contract/common.ts';
import { AtlasError } from '../core/errors.ts';
import { MAX_JSON_DEPTH, nestingDeeperThan } from '../core/json-depth.ts';
import { classifyError, describeError } from '../probe/classify-error.ts';

/**
 * The I/O edge of registry ingest. A registry source is operator configuration (docs/design.md), not
 * attacker input: a full list-endpoint URL, fetched with timeouts but WITHOUT the probe's
 * private-address guard, or a local file. Every URL *inside* the pages stays untrusted and is never
 * fetched here.
 */
export type SourceRef = { kind: 'url'; url: string } | { kind: 'file'; path: string };

export function resolveSource(source: string): SourceRef {
  if (/^https?:\/\//i.test(source)) return { kind: 'url', url: source };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source))
    throw new AtlasError('bad_usage', `--source must be an http(s) URL or a file path (got ${source})`);
  if (!existsSync(source) || !statSync(source).isFile()) throw new AtlasError('bad_usage', `--source file not found: ${source}`);
  return { kind: 'file', path: source };
}

export interface FetchOptions {
  /** Time allowed for the response headers, and between two chunks of the body. */
  timeoutMs?: number;
  /** Time allowed for one whole attempt, headers and body (a slow drip cannot hold a run open). */
  deadlineMs?: number;
  /** Cap on the body as received and, for gzip data, as inflated. */
  maxBytes?: number;
  /** Cap on JSON nesting (a deeper document is refused before any consumer walks it). */
  maxDepth?: number;
  userAgent?: string;
  /** Extra attempts on network errors, 429 and 5xx (with a growing pause). */
  retries?: number;
  retryDelayMs?: number;
}

export type JsonFetcher = (url: string) => Promise<unknown>;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The ingest limits, one place (docs/notes/hostile-input.md lists what each bounds). */
export const INGEST_LIMITS = { timeoutMs: 30_000, deadlineMs: 300_000, maxBytes: 64 * 1024 * 1024, maxDepth: MAX_JSON_DEPTH } as const;

/**
 * A failed source whose message leads with the edge's reason code (the probe's codes, site/contract
 * CHECK_REASONS: `timeout`, `too_large`, `reset`, …), so `runs.error` names the cause in one word.
 */
const { timeout: TIMEOUT, too_large: TOO_LARGE } = CheckReason.enum;
const sourceFailed = (url: string, reason: CheckReason, detail: string) => new AtlasError('source_failed', `${url}: ${reason} (${detail})`);

/**
 * GET a JSON document with timeouts, a whole-attempt deadline, a size cap and a few retries; no
 * redirects are followed. Refused without a retry: a body over the cap (declared or received),
 * response headers over undici's limit, gzip data inflating past the cap, nesting past maxDepth.
 */
export function httpJsonFetcher(opts: FetchOptions = {}): JsonFetcher {
  const {
    timeoutMs = INGEST_LIMITS.timeoutMs,
    deadlineMs = INGEST_LIMITS.deadlineMs,
    maxBytes = INGEST_LIMITS.maxBytes,
    maxDepth = INGEST_LIMITS.maxDepth,
    userAgent = 'AtlasIngest/0.1',
    retries = 2,
    retryDelayMs = 1000,
  } = opts;
  return async (url) => {
    let lastError = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(retryDelayMs * attempt);
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), deadlineMs);
      try {
        let res: Awaited<ReturnType<typeof request>>;
        try {
          res = await request(url, {
            method: 'GET',
            headers: { accept: 'application/json', 'user-agent': userAgent },
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
            signal: ac.signal,
          });
        } catch (e) {
          const reason = ac.signal.aborted ? TIMEOUT : classifyError(e);
          if (reason === TOO_LARGE) throw sourceFailed(url, reason, `response headers too large: ${describeError(e)}`);
          lastError = ac.signal.aborted ? `timeout (no answer within ${deadlineMs} ms)` : `${reason} (${describeError(e)})`;
          continue;
        }
        const status = res.statusCode;
        if (status !== 200) {
          discard(res.body);
          lastError = `HTTP ${status}`;
          if (status === 429 || status >= 500) continue;
          throw new AtlasError('source_failed', `${url}: HTTP ${status}`);
        }
        const declared = Number(res.headers['content-length'] ?? Number.NaN);
        if (Number.isFinite(declared) && declared > maxBytes) {
          discard(res.body);
          throw sourceFailed(url, TOO_LARGE, `declared ${declared} bytes, cap ${maxBytes}`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        try {
          for await (const chunk of res.body) {
            size += (chunk as Buffer).length;
            if (size > maxBytes) {
              discard(res.body);
              throw sourceFailed(url, TOO_LARGE, `body over ${maxBytes} bytes`);
            }
            chunks.push(chunk as Buffer);
          }
        } catch (e) {
          if (e instanceof AtlasError) throw e;
          lastError = ac.signal.aborted
            ? `timeout (body not complete within ${deadlineMs} ms, ${size} bytes read)`
            : `${classifyError(e)} (reading body: ${describeError(e)})`;
          continue;
        }
        return parseDocument(Buffer.concat(chunks, size), url, { maxBytes, maxDepth });
      } finally {
        clearTimeout(timer);
      }
    }
    throw new AtlasError('source_failed', `${url}: ${lastError}`);
  };
}

/**
 * Drop a response body we will not read. undici's body emits an abort error when destroyed
 * unread; with no listener that error is uncaught and would end the process.
 */
function discard(body: { on(event: 'error', fn: () => void): unknown; destroy(): unknown }): void {
  body.on('error', () => undefined);
  body.destroy();
}

export function parseJson(text: string, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AtlasError('source_failed', `${origin}: not JSON (${(e as Error).message})`);
  }
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;
const DEFAULT_MAX_DECODED = 256 * 1024 * 1024;

/**
 * The bytes of a registry document as text. Mirrors and dumps come gzip-compressed or not, whatever
 * their name or Content-Type says, so compression is detected by the gzip magic bytes (1f 8b); the
 * decompressed size is capped (a small file must not inflate without bound). A leading UTF-8 BOM, as
 * some dump tools write, is dropped (JSON.parse rejects it).
 */
export function decodeDocument(buf: Buffer, origin: string, opts: { maxBytes?: number } = {}): string {
  let bytes = buf;
  if (bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1]) {
    const cap = opts.maxBytes ?? DEFAULT_MAX_DECODED;
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: cap });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new AtlasError('source_failed', `${origin}: too_large (gzip data inflates past ${cap} bytes)`);
      throw new AtlasError('source_failed', `${origin}: gzip data could not be read (${(e as Error).message})`);
    }
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** JSON Lines: one JSON value per non-blank line, each error naming its line. */
function parseLines(text: string, origin: string): unknown[] {
  const out: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length > 0) out.push(parseJson(line, `${origin}:${i + 1}`));
  }
  return out;
}

const LINES_NAME = /\.(ndjson|jsonl)(\.gz)?$/i;

/**
 * One registry document from bytes: a JSON value, or JSON Lines returned as an array of the lines'
 * values. JSON Lines is recognised by the name (`.ndjson`, `.jsonl`, optionally `.gz`) or, for any
 * other name or a URL, when the text is not one JSON value but every non-blank line is one.
 * Nesting past `maxDepth` (default INGEST_LIMITS.maxDepth) fails the source with `too_large`.
 */
export function parseDocument(buf: Buffer, origin: string, opts: { maxBytes?: number; maxDepth?: number } = {}): unknown {
  const text = decodeDocument(buf, origin, opts);
  const maxDepth = opts.maxDepth ?? INGEST_LIMITS.maxDepth;
  if (nestingDeeperThan(text, maxDepth))
    throw new AtlasError('source_failed', `${origin}: too_large (JSON nested deeper than ${maxDepth} levels)`);
  if (LINES_NAME.test(origin)) return parseLines(text, origin);
  try {
    return JSON.parse(text);
  } catch (e) {
    const lines = text.trim().split('\n');
    if (lines.length > 1 && /^\s*[[{]/.test(lines[0]!)) {
      try {
        return parseLines(text, origin);
      } catch {
        // not JSON Lines either: report the whole-document error below
      }
    }
    throw new AtlasError('source_failed', `${origin}: not JSON (${(e as Error).message})`);
  }
}

/** A registry snapshot file as one document (see parseDocument): gzip or not, BOM or not, JSON or JSON Lines. */
export function readSourceFile(path: string): unknown {
  return parseDocument(readFileSync(path), path);
}

/**
 * A registry snapshot file as a list of documents: a top-level array gives its elements, anything
 * else is one document. (Kept for callers that only read pages; the ingests classify the elements.)
 */
export function readPagesFile(path: string): unknown[] {
  const doc = readSourceFile(path);
  return Array.isArray(doc) ? doc : [doc];
}

/** A plain JSON object (not an array, not null). */
export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Set query parameters on a list-endpoint URL, keeping the ones the operator configured. */
export function withQuery(base: string, params: Record<string, string | number | undefined>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}
