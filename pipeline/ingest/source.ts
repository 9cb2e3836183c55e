import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'undici';
import { AtlasError } from '../core/errors.ts';

/**
 * The I/O edge of registry ingest. A registry source is operator configuration (docs/design.md): a full
 * list-endpoint URL, fetched with timeouts but WITHOUT the probe's private-address guard, or a local
 * file. Every URL *inside* the pages stays untrusted and is never fetched here.
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
  timeoutMs?: number;
  maxBytes?: number;
  userAgent?: string;
  /** Extra attempts on network errors, 429 and 5xx (with a growing pause). */
  retries?: number;
  retryDelayMs?: number;
}

export type JsonFetcher = (url: string) => Promise<unknown>;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** GET a JSON document with timeouts, a size cap and a few retries; no redirects are followed. */
export function httpJsonFetcher(opts: FetchOptions = {}): JsonFetcher {
  const { timeoutMs = 30_000, maxBytes = 64 * 1024 * 1024, userAgent = 'AtlasIngest/0.1', retries = 2, retryDelayMs = 1000 } = opts;
  return async (url) => {
    let lastError = '';
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) await sleep(retryDelayMs * attempt);
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(url, {
          method: 'GET',
          headers: { accept: 'application/json', 'user-agent': userAgent },
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (e) {
        lastError = `request failed: ${(e as Error).message}`;
        continue;
      }
      const status = res.statusCode;
      if (status !== 200) {
        await res.body.dump().catch(() => undefined);
        lastError = `HTTP ${status}`;
        if (status === 429 || status >= 500) continue;
        throw new AtlasError('source_failed', `${url}: HTTP ${status}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            res.body.destroy();
            throw new AtlasError('source_failed', `${url}: response larger than ${maxBytes} bytes`);
          }
          chunks.push(chunk as Buffer);
        }
      } catch (e) {
        if (e instanceof AtlasError) throw e;
        lastError = `reading body failed: ${(e as Error).message}`;
        continue;
      }
      return parseJson(Buffer.concat(chunks).toString('utf8'), url);
    }
    throw new AtlasError('source_failed', `${url}: ${lastError}`);
  };
}

export function parseJson(text: string, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AtlasError('source_failed', `${origin}: not JSON (${(e as Error).message})`);
  }
}

/**
 * A registry snapshot file: one page object, a JSON array of page objects, or `.ndjson` / `.jsonl`
 * with one page object per line. Pages are returned in file order.
 */
export function readPagesFile(path: string): unknown[] {
  const text = readFileSync(path, 'utf8');
  if (/\.(ndjson|jsonl)$/i.test(path)) {
    return text
      .split('\n')
      .map((line, i) => ({ line: line.trim(), n: i + 1 }))
      .filter((l) => l.line.length > 0)
      .map((l) => parseJson(l.line, `${path}:${l.n}`));
  }
  const doc = parseJson(text, path);
  return Array.isArray(doc) ? doc : [doc];
}

/** Set query parameters on a list-endpoint URL, keeping the ones the operator configured. */
export function withQuery(base: string, params: Record<string, string | number | undefined>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}
