import { AtlasError } from '../../core/errors.ts';
import { parseHttpUrl } from '../url.ts';

/**
 * The origins file of `atlas ingest well-known`: one origin per line; blank lines and lines starting
 * with `#` are ignored. An origin is `host`, `host:port`, or `https://host[:port]` (a trailing `/`
 * allowed); `http://` is accepted too, for local fleets behind the probe's resolve map. A bare host
 * means https. Anything else (a path, a query, credentials, another scheme) is bad input: the whole
 * command is refused naming the line, so a typo never delists an origin's services. Pure.
 */
export function parseOrigins(text: string, where: string): string[] {
  const out = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line.length === 0 || line.startsWith('#')) continue;
    const origin = originOf(line);
    if (!origin)
      throw new AtlasError(
        'bad_usage',
        `${where}:${i + 1}: not an origin (host, host:port or https://host[:port]): ${JSON.stringify(line.slice(0, 100))}`,
      );
    out.add(origin);
  }
  return [...out];
}

/** `https://host[:port]` (lower-cased host, default port dropped), or null. */
export function originOf(text: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  const u = parseHttpUrl(withScheme);
  if (!u) return null;
  if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) return null;
  if (!u.hostname || /[\s]/.test(text)) return null;
  return u.origin;
}

/** The registry name a document's services are recorded under: `well-known:<host[:port]>`. */
export const wellKnownRegistry = (origin: string): string => `well-known:${new URL(origin).host}`;

/** Where the document of an origin lives. */
export const wellKnownUrl = (origin: string): string => `${origin}/.well-known/x402`;
