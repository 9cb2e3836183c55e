/**
 * URL facts used by every ingest: host, templated flag, placeholder filling. Pure functions.
 * URLs inside registry pages are untrusted: we only parse them here, never fetch them.
 */

/** The WHATWG parse of an http(s) URL; null when it does not parse or has another scheme. */
export function parseHttpUrl(url: string): URL | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
}

/** Lower-cased hostname of an http(s) URL, or null when the URL is not usable. */
export function httpHost(url: string): string | null {
  const u = parseHttpUrl(url);
  if (!u) return null;
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host.length ? host : null;
}

// `:name` path or query segments (after the authority, so ports do not count), `{name}` and its
// percent-encoded form `%7Bname%7D` (case-insensitive), as registries list them (docs/reference.md).
const COLON_PARAM = /(^|[/=&?;,])(:[A-Za-z_][A-Za-z0-9_-]*)/;
const BRACE_PARAM = /\{[^{}/?#]*\}/;
const ENCODED_BRACE_PARAM = /%7B[^/?#]*?%7D/i;

/** The part of a URL after scheme://authority (path, query, fragment), from the raw text. */
function afterAuthority(url: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(url);
  return m ? url.slice(m[0].length) : url;
}

export function isTemplatedUrl(url: string): boolean {
  const rest = afterAuthority(url);
  return COLON_PARAM.test(rest) || BRACE_PARAM.test(url) || ENCODED_BRACE_PARAM.test(url);
}

/**
 * Fill `{name}` placeholders from a value map. Returns the filled URL when every placeholder has a
 * value, or null when at least one is missing (the caller then keeps the template and marks it).
 */
export function fillPlaceholders(template: string, values: ReadonlyMap<string, string>): string | null {
  let missing = false;
  const filled = template.replace(/\{([^{}]*)\}/g, (_, name: string) => {
    const v = values.get(name);
    if (v === undefined) {
      missing = true;
      return `{${name}}`;
    }
    return v;
  });
  return missing ? null : filled;
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A registry-declared method, upper-cased, when it is a real HTTP method; otherwise null. */
export function normalizeMethod(value: unknown): HttpMethod | null {
  if (typeof value !== 'string') return null;
  const m = value.trim().toUpperCase();
  return (HTTP_METHODS as readonly string[]).includes(m) ? (m as HttpMethod) : null;
}
