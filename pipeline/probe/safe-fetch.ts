import { performance } from 'node:perf_hooks';
import { buildConnector, Client, Dispatcher, errors, request } from 'undici';
import { checkAddress, ipLiteralOf } from './address-guard.ts';
import { classifyError, describeError } from './classify-error.ts';
import { makeGuardedLookup, type Resolver } from './guarded-lookup.ts';
import type { ResolveMap } from './resolve-map.ts';
import type { EdgeFailure } from './reasons.ts';

/**
 * The HTTP edge (exported for the docs feed). Contract:
 * - SSRF guard: IP literals are judged before any I/O; names are resolved and judged inside the
 *   socket's `lookup` at connect time (guarded-lookup.ts), so the checked address is the connected one.
 * - No redirects: a 3xx is returned as a response (the rules turn it into reason `redirect`).
 * - One deadline (`timeoutMs`) covers connect, response headers and body; headers up to
 *   `maxHeaderBytes`; the body is read up to `maxBodyBytes`, then the stream is aborted and the
 *   result is marked `truncated` (whether that fails the check is the pass rule's decision).
 * - `req.wantBody(status, headers)` lets the caller abort right after the headers (MCP reach, statuses
 *   that decide alone): an endless SSE stream then costs one round trip.
 * - Latency: `ttfbMs` to response headers, `totalMs` to the end of the body or the abort.
 * - No credentials: userinfo in the URL is dropped; no cookies are kept (undici has no jar).
 */
export interface EdgeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | null;
  /** Decide after status/headers whether the body is needed (default: read it, up to the cap). */
  wantBody?: (status: number, headers: Readonly<Record<string, string>>) => boolean;
}

export interface EdgeOptions {
  timeoutMs: number;
  maxBodyBytes: number;
  maxHeaderBytes: number;
  allowPrivate: boolean;
  resolveMap: ResolveMap;
  /** DNS replacement for tests ("a name resolving to a private address"). */
  resolver?: Resolver;
  /** A shared dispatcher from createProbeAgent (runs); without one, a private one is made and closed. */
  dispatcher?: Dispatcher;
}

export type EdgeResult =
  | {
      ok: true;
      status: number;
      headers: Record<string, string>;
      body: Buffer | null;
      bytes: number;
      truncated: boolean;
      ttfbMs: number;
      totalMs: number;
    }
  | { ok: false; reason: EdgeFailure; detail: string; ttfbMs: number | null; totalMs: number };

export type Fetcher = (req: EdgeRequest) => Promise<EdgeResult>;

/**
 * The dispatcher of a run: one fresh undici `Client` (one connection) per request, closed when its
 * connection ends, all connecting through ONE connector built here (the guarded lookup, the
 * connect timeout, one TLS session cache). Every probe request is sent with `reset: true`, so a
 * connection never carries a second request and an undici `Agent` would pool nothing: it only made a
 * `Pool` per origin (a 2,048-slot request queue and a connector of its own each), a large share of
 * everything a sweep allocated, kept alive across the network wait and therefore promoted to V8's
 * old space (docs/notes/probe.md, "Memory of one large sweep"). At most `perHost` requests per host
 * are in flight by the per-host scheduler, not by the dispatcher.
 */
class PerRequestDispatcher extends Dispatcher {
  private readonly live = new Set<Client>();
  private closed = false;

  constructor(private readonly options: Client.Options) {
    super();
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (this.closed) throw new errors.ClientClosedError();
    const client = new Client(opts.origin as string | URL, this.options);
    this.live.add(client);
    // The connection is over (closed after its one response, failed, or never made): drop the client.
    const done = () => {
      if (this.live.delete(client)) void client.close().catch(() => undefined);
    };
    client.once('disconnect', done).once('connectionError', done);
    return client.dispatch(opts, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.closed = true;
    const all = Promise.all([...this.live].map((c) => c.close().catch(() => undefined))).then(() => this.live.clear());
    if (!callback) return all;
    void all.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    this.closed = true;
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    const all = Promise.all([...this.live].map((c) => c.destroy(err).catch(() => undefined))).then(() => this.live.clear());
    if (!callback) return all;
    void all.then(callback);
  }
}

export function createProbeAgent(
  o: Pick<EdgeOptions, 'timeoutMs' | 'maxHeaderBytes' | 'allowPrivate' | 'resolveMap' | 'resolver'>,
): Dispatcher {
  const connect = buildConnector({
    timeout: o.timeoutMs,
    lookup: makeGuardedLookup({ allowPrivate: o.allowPrivate, resolveMap: o.resolveMap, resolver: o.resolver }),
  } as buildConnector.BuildOptions);
  return new PerRequestDispatcher({
    connect,
    headersTimeout: o.timeoutMs,
    bodyTimeout: o.timeoutMs,
    maxHeaderSize: o.maxHeaderBytes,
    pipelining: 1,
    keepAliveTimeout: 1_000,
  });
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

const timeoutError = (ms: number) => Object.assign(new Error(`no complete answer within ${ms} ms`), { code: 'ATLAS_TIMEOUT' });

export async function safeFetch(req: EdgeRequest, opts: EdgeOptions): Promise<EdgeResult> {
  const t0 = performance.now();
  const fail = (reason: EdgeFailure, detail: string, ttfbMs: number | null = null): EdgeResult => ({
    ok: false,
    reason,
    detail,
    ttfbMs,
    totalMs: performance.now() - t0,
  });
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return fail('network_error', 'invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('network_error', `unsupported scheme ${url.protocol}`);
  url.username = '';
  url.password = '';
  const literal = ipLiteralOf(url.hostname);
  if (literal && !opts.allowPrivate) {
    const v = checkAddress(literal);
    if (v.blocked) return fail('blocked_address', `refused ${literal} (${v.why})`);
  }
  const own = opts.dispatcher ? null : createProbeAgent(opts);
  const dispatcher = opts.dispatcher ?? own!;
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(timeoutError(opts.timeoutMs)), opts.timeoutMs);
  let ttfb: number | null = null;
  try {
    const res = await request(url, {
      dispatcher,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? null,
      signal: ac.signal,
      reset: true, // one request per host per run: do not keep sockets around
    });
    ttfb = performance.now() - t0;
    const headers = flatHeaders(res.headers as Record<string, string | string[] | undefined>);
    const body = res.body;
    body.on('error', () => undefined);
    if (req.wantBody && !req.wantBody(res.statusCode, headers)) {
      // An event stream is cut at once; other bodies are drained up to 16 KiB (cheaper than an abort,
      // and still bounded by the deadline), then cut.
      if (/event-stream/i.test(headers['content-type'] ?? '')) body.destroy();
      else await body.dump({ limit: 16 * 1024 });
      return {
        ok: true,
        status: res.statusCode,
        headers,
        body: null,
        bytes: 0,
        truncated: false,
        ttfbMs: ttfb,
        totalMs: performance.now() - t0,
      };
    }
    const len = Number(headers['content-length'] ?? NaN);
    if (Number.isFinite(len) && len <= opts.maxBodyBytes) {
      // Known and within the cap: read it in one go (undici's consumer beats a chunk loop).
      const buf = Buffer.from(await body.arrayBuffer());
      return {
        ok: true,
        status: res.statusCode,
        headers,
        body: buf,
        bytes: buf.length,
        truncated: false,
        ttfbMs: ttfb,
        totalMs: performance.now() - t0,
      };
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let truncated = false;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = opts.maxBodyBytes - bytes;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        bytes += Math.max(room, 0);
        truncated = true;
        break;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    }
    if (truncated) body.destroy();
    return {
      ok: true,
      status: res.statusCode,
      headers,
      body: Buffer.concat(chunks, bytes),
      bytes,
      truncated,
      ttfbMs: ttfb,
      totalMs: performance.now() - t0,
    };
  } catch (err) {
    const reason = ac.signal.aborted ? 'timeout' : classifyError(err);
    return fail(reason, ac.signal.aborted ? `no complete answer within ${opts.timeoutMs} ms` : describeError(err), ttfb);
  } finally {
    clearTimeout(timer);
    if (own) await own.close().catch(() => undefined);
  }
}
