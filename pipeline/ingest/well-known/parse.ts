import { checkAddress, ipLiteralOf } from '../../probe/address-guard.ts';
import { isRecord } from '../source.ts';
import { httpHost, normalizeMethod } from '../url.ts';

/**
 * Reading one `/.well-known/x402` document (docs/notes/ingest.md, "Seller documents"). Pure: the
 * fetched JSON and the origin in, the resources it declares out, each with a method and an absolute
 * URL, or a counted reason why not. Nothing here fetches; a resource URL is probed later, by the probe
 * and its address guard.
 *
 * Dialects seen in the wild, recognised by their keys (first match wins):
 * - `resources`: an array of `"METHOD /path"`, `"METHOD https://…"`, a bare path or URL, or objects
 *   `{ url | resource | path, method? }` (x402scan's `{ version: 1, resources }`, also with `x402Version`);
 * - `endpoints`: an array of `{ path | url, method?, price?, currency?, network?, payTo?, description? }`;
 * - `index_pointer`: no resources, but a `resourcesIndex` URL naming another document. It is NOT
 *   followed: that document belongs to whatever host it names, which is a seller's own claim about a
 *   different origin; list that origin instead to read it;
 * - `free_form`: no resources, but payment wording (`pricing`, `price`, `payment_methods`, `wallet…`);
 * - `metadata_only`: an object with none of the above (a name, a description, links).
 * A value that is not an object is `not_object`. Only the first two yield resources.
 */
export const WELL_KNOWN_DIALECTS = ['resources', 'endpoints', 'index_pointer', 'free_form', 'metadata_only', 'not_object'] as const;
export type WellKnownDialect = (typeof WELL_KNOWN_DIALECTS)[number];

/**
 * Why a declared resource became no service:
 * - `invalid_resource`: not a string or object, or no usable path/URL in it;
 * - `invalid_url`: does not parse as an http(s) URL, is too long, or has whitespace or control characters;
 * - `other_host`: its host is neither the origin's host nor a subdomain of it (a document speaks for
 *   its own origin only);
 * - `not_https`: plain `http://` while the origin is served over https;
 * - `blocked_address`: its host is an IP literal the probe's address guard refuses;
 * - `duplicate`: the same method and URL again in the same document;
 * - `over_cap`: entries past the first MAX_WELL_KNOWN_RESOURCES.
 */
export type WellKnownSkipReason =
  | 'invalid_resource'
  | 'invalid_url'
  | 'other_host'
  | 'not_https'
  | 'blocked_address'
  | 'duplicate'
  | 'over_cap';

/**
 * Quirks of resources that were KEPT: `method_defaulted` (no method given, so GET), `absolute_url`
 * (a full URL rather than a path), `subdomain_url` (on a subdomain of the origin), `stated_price`
 * (an endpoint states a price: kept in the raw entry, never priced, since it names no scheme, asset
 * or decimals).
 */
export type WellKnownQuirk = 'method_defaulted' | 'absolute_url' | 'subdomain_url' | 'stated_price';

export interface WellKnownResource {
  method: string;
  url: string;
  /** The declared network, as given (`base`, `eip155:8453`), when the entry names one. */
  network: string | null;
  description: unknown;
  /** The entry as declared (sanitized before it is stored). */
  raw: unknown;
}

export interface WellKnownParsed {
  dialect: WellKnownDialect;
  resources: WellKnownResource[];
  skipped: Partial<Record<WellKnownSkipReason, number>>;
  noted: Partial<Record<WellKnownQuirk, number>>;
  /** Document-level text (name, description), for the services it declares. */
  name: unknown;
  description: unknown;
}

const MAX_URL = 2048;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const BAD_URL_CHARS = /[\s\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/;
const FREE_FORM_KEYS = /^(pricing|prices?|payment[_-]?methods?|wallet[_-]?address|pay[_-]?to|currency|accepts)$/i;
/** A cap on entries read from one document: a seller file lists tens, never thousands. */
export const MAX_WELL_KNOWN_RESOURCES = 1000;

function dialectOf(doc: unknown): WellKnownDialect {
  if (!isRecord(doc)) return 'not_object';
  if (Array.isArray(doc.resources)) return 'resources';
  if (Array.isArray(doc.endpoints)) return 'endpoints';
  if (typeof doc.resourcesIndex === 'string') return 'index_pointer';
  if (Object.keys(doc).some((k) => FREE_FORM_KEYS.test(k))) return 'free_form';
  return 'metadata_only';
}

/** `"GET /path"`, `"POST https://…"`, `"/path"` or `"https://…"` → method (null when absent) and target. */
function splitDeclaration(s: string): { method: string | null; target: string } | null {
  const t = s.trim();
  const m = /^([A-Za-z]+)\s+(\S+)$/.exec(t);
  if (m) {
    const method = normalizeMethod(m[1]);
    return method ? { method, target: m[2]! } : null;
  }
  return /\s/.test(t) || t.length === 0 ? null : { method: null, target: t };
}

/** Whether `host` is `originHost` or one of its subdomains. */
export function onOrigin(host: string, originHost: string): boolean {
  return host === originHost || host.endsWith(`.${originHost}`);
}

export interface ParseOptions {
  /** The origin the document was fetched from, `https://host[:port]`. */
  origin: string;
  /** The probe's allowPrivate: when set, IP literals are not judged here either. */
  allowPrivate: boolean;
}

export function parseWellKnown(doc: unknown, opts: ParseOptions): WellKnownParsed {
  const dialect = dialectOf(doc);
  const out: WellKnownParsed = { dialect, resources: [], skipped: {}, noted: {}, name: null, description: null };
  if (!isRecord(doc)) return out;
  out.name = doc.name ?? doc.serviceName ?? null;
  out.description = doc.description ?? null;
  if (dialect !== 'resources' && dialect !== 'endpoints') return out;
  const skip = (r: WellKnownSkipReason) => (out.skipped[r] = (out.skipped[r] ?? 0) + 1);
  const note = (q: WellKnownQuirk) => (out.noted[q] = (out.noted[q] ?? 0) + 1);
  const origin = new URL(opts.origin);
  const originHost = origin.hostname.toLowerCase();
  const seen = new Set<string>();
  const list = (dialect === 'resources' ? doc.resources : doc.endpoints) as unknown[];
  for (const entry of list.slice(0, MAX_WELL_KNOWN_RESOURCES)) {
    let method: string | null = null;
    let target: string | null = null;
    if (typeof entry === 'string') {
      const d = splitDeclaration(entry);
      if (d) ({ method, target } = d);
    } else if (isRecord(entry)) {
      const t = [entry.url, entry.resource, entry.path].find((v) => typeof v === 'string' && v.trim().length > 0);
      target = typeof t === 'string' ? t.trim() : null;
      method = entry.method === undefined ? null : normalizeMethod(entry.method);
      if (entry.method !== undefined && method === null) target = null;
    }
    if (target === null) {
      skip('invalid_resource');
      continue;
    }
    const absolute = /^[a-z][a-z0-9+.-]*:/i.test(target);
    if (!absolute && !target.startsWith('/')) {
      skip('invalid_resource');
      continue;
    }
    if (target.length > MAX_URL || BAD_URL_CHARS.test(target)) {
      skip('invalid_url');
      continue;
    }
    const url = absolute ? target : `${origin.origin}${target}`;
    const host = httpHost(url);
    if (!host) {
      skip('invalid_url');
      continue;
    }
    if (!onOrigin(host, originHost)) {
      skip('other_host');
      continue;
    }
    if (/^http:/i.test(url) && origin.protocol === 'https:') {
      skip('not_https');
      continue;
    }
    const literal = ipLiteralOf(host);
    if (literal && !opts.allowPrivate && checkAddress(literal).blocked) {
      skip('blocked_address');
      continue;
    }
    const m = method ?? 'GET';
    const key = `${m} ${url}`;
    if (seen.has(key)) {
      skip('duplicate');
      continue;
    }
    seen.add(key);
    if (method === null) note('method_defaulted');
    if (absolute) note('absolute_url');
    if (host !== originHost) note('subdomain_url');
    const rec = isRecord(entry) ? entry : null;
    if (rec && (rec.price !== undefined || rec.amount !== undefined)) note('stated_price');
    out.resources.push({
      method: m,
      url,
      network: rec && typeof rec.network === 'string' ? rec.network : null,
      description: rec?.description ?? null,
      raw: entry,
    });
  }
  if (list.length > MAX_WELL_KNOWN_RESOURCES) out.skipped.over_cap = list.length - MAX_WELL_KNOWN_RESOURCES;
  return out;
}
