import type { Agent } from 'undici';
import { request } from 'undici';

/** One probe-like request for fleet tests: status + headers + (capped) body, or the error code. */
export interface Hit {
  status: number | null;
  headers: Record<string, string>;
  body: string;
  error: string | null;
}

export async function hit(
  agent: Agent,
  url: string,
  opts: { method?: 'GET' | 'POST'; timeoutMs?: number; readBody?: boolean; accept?: string; headers?: Record<string, string> } = {},
): Promise<Hit> {
  const method = opts.method ?? 'GET';
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), opts.timeoutMs ?? 10_000);
  try {
    const headers: Record<string, string> = {
      accept: opts.accept ?? 'application/json',
      'user-agent': 'AtlasFleetTest/1',
      ...opts.headers,
    };
    if (method === 'POST') headers['content-type'] = 'application/json';
    const r = await request(url, { method, headers, body: method === 'POST' ? '{}' : null, dispatcher: agent, signal: ac.signal });
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) h[k] = Array.isArray(v) ? v.join(', ') : v;
    let body = '';
    if (opts.readBody !== false && !String(h['content-type'] ?? '').includes('event-stream')) body = await r.body.text();
    else {
      r.body.on('error', () => {});
      r.body.destroy();
    }
    return { status: r.statusCode, headers: h, body, error: null };
  } catch (e) {
    const err = e as { code?: string; name?: string; cause?: { code?: string } };
    const code =
      err.name === 'AbortError' ? 'AbortError' : typeof err.code === 'string' ? err.code : (err.cause?.code ?? err.name ?? 'unknown');
    return { status: null, headers: {}, body: '', error: code };
  } finally {
    clearTimeout(timer);
  }
}
