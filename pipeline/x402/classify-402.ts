import { PAYMENT_PROTOCOLS } from '../../site/contract/common.ts';
import { decodeHeader, type PaymentRequestRead } from './payment-request.ts';

/**
 * Which payment protocols a response speaks (docs/notes/probe.md, "Which protocol answered"). Pure:
 * status, headers and body in, classification out. More than one protocol answers HTTP 402:
 * - x402 v2: a `PAYMENT-REQUIRED` header (any letter case); it decides over the body, so a header
 *   offer with a `{}` body is v2;
 * - x402 v1: no header, a JSON body declaring `x402Version: 1`;
 * - x402 sign-in only: an x402 request whose `accepts` is an empty list (authentication, no offer);
 * - MPP: a `WWW-Authenticate` challenge with scheme `Payment`;
 * - L402: a `WWW-Authenticate` challenge with scheme `L402` (older servers: `LSAT`).
 * `WWW-Authenticate` may hold several challenges, comma-joined in one value or repeated (a repeated
 * header arrives joined with ", "); each is read. Other schemes (and the bare `x402` hint some
 * servers add) carry no payment terms and are not protocols here.
 *
 * `challenges` lists every protocol found, in the order of PAYMENT_PROTOCOLS (x402 first, and the
 * header's x402 before a body's, as the reference client reads them); `classification` is the first, `other-402` for a 402 with none, `not-402` for any other status (its challenges
 * are not read). An x402 request counts whether or not it is valid: the pass rule tells malformed
 * from valid (pipeline/probe/rules/x402-mainnet.ts), the classifier only says what was attempted.
 */
export type PaymentProtocol = (typeof PAYMENT_PROTOCOLS)[number];
export type Classification402 = PaymentProtocol | 'other-402' | 'not-402';

export interface Classified402 {
  classification: Classification402;
  challenges: PaymentProtocol[];
}

export interface Response402 {
  status: number;
  /** Header names in any letter case; a repeated header as a list or joined with ", ". */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  body: Buffer | string | null;
}

const ORDER: readonly PaymentProtocol[] = PAYMENT_PROTOCOLS;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Header map with lower-case names and repeated values joined with ", " (what the probe's edge gives). */
export function lowerHeaders(headers: Response402['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = typeof v === 'string' ? v : v.join(', ');
    const name = k.toLowerCase();
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

/**
 * The auth-schemes of a WWW-Authenticate value, lower-cased, in order. HTTP's grammar: a list of
 * challenges, each `scheme [ token68 | auth-param *( "," auth-param ) ]`, where an auth-param is
 * `name = (token | quoted-string)`. A comma-separated element that starts with a token followed by
 * `=` continues the current challenge; one that starts with a token followed by whitespace or the end
 * starts a new challenge. Quoted strings may contain commas and escaped quotes.
 */
export function authSchemes(value: string): string[] {
  const elements: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (quoted) {
      if (ch === '\\' && i + 1 < value.length) {
        cur += ch + value[++i];
        continue;
      }
      if (ch === '"') quoted = false;
      cur += ch;
    } else if (ch === '"') {
      quoted = true;
      cur += ch;
    } else if (ch === ',') {
      elements.push(cur);
      cur = '';
    } else cur += ch;
  }
  elements.push(cur);
  const schemes: string[] = [];
  for (const raw of elements) {
    const e = raw.trim();
    if (!e) continue;
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(\s*=)?/.exec(e);
    if (!m || m[2]) continue; // an auth-param of the current challenge (or not a token at all)
    schemes.push(m[1]!.toLowerCase());
  }
  return schemes;
}

function bodyJson(body: Buffer | string | null): unknown {
  if (body === null) return undefined;
  const text = (typeof body === 'string' ? body : body.toString('utf8')).trim();
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const offersNothing = (raw: unknown): boolean => isObj(raw) && Array.isArray(raw.accepts) && raw.accepts.length === 0;

/** The x402 protocols of a 402: from the header when present (as the reference client reads it), else a v1 body. */
function x402Of(headers: Record<string, string>, body: Buffer | string | null, read: PaymentRequestRead | undefined): PaymentProtocol[] {
  const found: PaymentProtocol[] = [];
  const header = headers['payment-required'];
  const json = bodyJson(body);
  const bodyV1 = isObj(json) && json.x402Version === 1;
  if (header !== undefined && header.trim() !== '') {
    // The caller's read of a valid header saves decoding it twice on the probe's hot path.
    const d = read?.kind === 'valid' && read.source === 'header' ? { ok: true as const, json: read.raw } : decodeHeader(header);
    const raw = d.ok ? d.json : undefined;
    if (offersNothing(raw)) found.push('x402-auth-only');
    else found.push(isObj(raw) && raw.x402Version === 1 ? 'x402-v1' : 'x402-v2');
    // A v1 body beside the header is a second x402 challenge (hybrid servers send both).
    if (bodyV1 && !offersNothing(json)) found.push('x402-v1');
  } else if (isObj(json) && 'x402Version' in json) {
    // A body declaring any version is an x402 attempt; only v1 may travel there (a v2 body is malformed).
    found.push(offersNothing(json) ? 'x402-auth-only' : bodyV1 ? 'x402-v1' : 'x402-v2');
  }
  return found;
}

/** `read`: the caller's readPaymentRequest of the same response, when it has one (never changes the result). */
export function classify402(res: Response402, read?: PaymentRequestRead): Classified402 {
  if (res.status !== 402) return { classification: 'not-402', challenges: [] };
  const headers = lowerHeaders(res.headers);
  const found = new Set<PaymentProtocol>(x402Of(headers, res.body, read));
  for (const scheme of authSchemes(headers['www-authenticate'] ?? '')) {
    if (scheme === 'payment') found.add('mpp');
    else if (scheme === 'l402' || scheme === 'lsat') found.add('l402');
  }
  const challenges = ORDER.filter((p) => found.has(p));
  return { classification: challenges[0] ?? 'other-402', challenges };
}
